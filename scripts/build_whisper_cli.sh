#!/usr/bin/env bash
# Build whisper.cpp's own command-line program, `whisper-cli`, from the very library sources
# whisper-rs-sys 0.15 compiles into ivd (whisper.cpp 1.8.3; Release, native) for
# `ivd bench --audio FILE --whisper-cli PATH`. The crate ships no examples/, so they come from the
# npm package @fugood/whisper.node@1.0.15, whose vendored whisper.cpp is 1.8.3 with examples/
# (examples/cli, common*, grammar-parser* as in 1.8.3). Needs npm, cmake, a C++ compiler.
# Prints the binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(cargo metadata --format-version 1 2>/dev/null | python3 -c '
import json, sys, os
m = json.load(sys.stdin)
p = next(p for p in m["packages"] if p["name"] == "whisper-rs-sys")
print(os.path.join(os.path.dirname(p["manifest_path"]), "whisper.cpp"))')
work=target/whisper-cli
rm -rf "$work/src" "$work/npm"
mkdir -p "$work/npm"
(cd "$work/npm" && npm pack --silent @fugood/whisper.node@1.0.15 >/dev/null && tar xzf fugood-whisper.node-1.0.15.tgz)
cp -r "$src" "$work/src"
cp -r "$work/npm/package/whisper.cpp/examples" "$work/src/"
cmake -S "$work/src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DWHISPER_BUILD_EXAMPLES=ON \
  -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_SERVER=OFF -DWHISPER_SDL2=OFF -DGGML_NATIVE=ON >&2
cmake --build "$work/build" --target whisper-cli -j"$(nproc)" >&2
echo "$work/build/bin/whisper-cli"
