#!/usr/bin/env bash
# The project's test command (README): installs what the tests need, then checks formatting,
# lints and runs every test. CI runs exactly this through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v python3 >/dev/null || need_apt+=(python3)
if ((${#need_apt[@]})); then
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}"
fi
rustup component add rustfmt clippy >/dev/null 2>&1 || true

echo "== knowledge base (authoring check)"
python3 scripts/kb_check.py
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets --quiet -- -D warnings
echo "== cargo test"
cargo test --all-targets -- --test-threads 2
