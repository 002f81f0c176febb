#!/usr/bin/env bash
# System packages ivd needs to build and provision, installed only when missing (Debian/Ubuntu):
# whisper.cpp (whisper-rs-sys) and libopus (opusic-sys) are C/C++ built with cmake, whisper-rs-sys
# generates its bindings with libclang, and `ivd models fetch` runs Python with pip.
set -euo pipefail
need_apt=()
command -v python3 >/dev/null || need_apt+=(python3 python3-pip)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v c++ >/dev/null || need_apt+=(g++)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || need_apt+=(libclang-dev)
if ((${#need_apt[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need_apt[@]}"
fi
