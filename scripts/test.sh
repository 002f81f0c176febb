#!/usr/bin/env bash
# The project's test command (README): installs what the tests need, provisions the real models,
# then checks formatting, lints and runs every test. CI runs exactly this through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# Real models for the tests of search quality and scoring (no mock embedder): provisioned once per
# machine into ./models (git-ignored); `ivd models fetch` verifies and returns at once when present.
export IVD_MODELS="${IVD_MODELS:-$PWD/models}"

echo "== knowledge base (authoring check)"
python3 scripts/kb_check.py
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets --quiet -- -D warnings
echo "== models (IVD_MODELS=$IVD_MODELS)"
cargo run --quiet -- models fetch
echo "== cargo test"
cargo test --all-targets -- --test-threads 2
