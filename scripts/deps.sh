#!/usr/bin/env bash
# System packages ivd needs to build, provision and test, installed only when missing (Debian/Ubuntu).
# Each one is checked by its package name (`dpkg -s`), never by a file glob: the image's
# libclang-cpp14 (the C++ interface library) once satisfied a glob for libclang, and bindgen,
# which needs libclang-dev's libclang.so, then failed seven minutes into the build.
#
#   build:      cmake, g++ and libclang-dev (whisper.cpp and libopus are C/C++ built with cmake;
#               whisper-rs-sys generates its bindings with libclang), pkg-config
#   provision:  python3-pip, python3-venv (`ivd models fetch` and the llama.cpp test server use pip)
#   tests:      chromium (HTML reports and the web console in a real browser), espeak-ng and sox
#               (spoken answers for the fake microphone), fonts-noto-cjk (Chinese pages in screenshots),
#               time (peak memory in `ivd bench`), tmux (interactive commands)
#
# `scripts/deps.sh --list` prints the list and exits.
set -euo pipefail
packages=(cmake g++ libclang-dev pkg-config python3-pip python3-venv
  chromium espeak-ng sox fonts-noto-cjk time tmux)
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
command -v dpkg >/dev/null || { echo "deps.sh: no dpkg here; install by hand: ${packages[*]}" >&2; exit 1; }
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "deps.sh: installing ${missing[*]}" >&2
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
fi
