#!/usr/bin/env bash
# The project's test command (README): installs what the tests need, provisions the real models,
# then checks formatting, lints and runs every test. CI runs exactly this through .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every step's start is stamped with the seconds since this script began, for CI's time budget.
stamp() { echo "== [$(date -u +%H:%M:%S) +${SECONDS}s] $*"; }

./scripts/deps.sh
rustup component add rustfmt clippy >/dev/null 2>&1 || true

# Real models for the tests of search quality and scoring (no mock embedder): provisioned once per
# machine into ./models (git-ignored); `ivd models fetch` verifies and returns at once when present.
export IVD_MODELS="${IVD_MODELS:-$PWD/models}"

# llama.cpp's server for the real-endpoint test builds in the background (nice 19, about 5 min of
# both cores on its own): cargo's builds leave a core idle for long stretches (one crate at a time).
stamp "llama.cpp server: building in the background (log: target/llm-server-install.log)"
mkdir -p target
./scripts/llm_server.sh install >target/llm-server-install.log 2>&1 &
llm_install=$!

stamp "knowledge base (authoring check)"
python3 scripts/kb_check.py
stamp "cargo fmt --check"
cargo fmt --all -- --check
stamp "cargo clippy --all-targets -- -D warnings"
cargo clippy --all-targets --quiet -- -D warnings
stamp "models (IVD_MODELS=$IVD_MODELS)"
# Provisioning also embeds the knowledge base into the home it is given; the tests start their
# homes from a copy of that cache (tests/common: warm_home) instead of embedding it again.
export IVD_TEST_WARM_HOME="$PWD/target/test-home"
mkdir -p "$IVD_TEST_WARM_HOME"
IVD_HOME="$IVD_TEST_WARM_HOME" cargo run --quiet -- models fetch
# The test build (about 4 min, often one crate at a time) also overlaps the llama.cpp build.
# The web console's browser test: Playwright for Python driving Debian's chromium (no browser
# download: the test points Playwright at /usr/bin/chromium).
stamp "playwright (browser test)"
if [ ! -x target/browser-venv/bin/python ] || ! target/browser-venv/bin/python -c 'import playwright' 2>/dev/null; then
  python3 -m venv target/browser-venv
  target/browser-venv/bin/python -m pip install -q 'playwright==1.65.2'
fi
export IVD_BROWSER_PYTHON="$PWD/target/browser-venv/bin/python"
stamp "cargo test --no-run (build the tests)"
cargo test --all-targets --no-run --quiet
stamp "llama.cpp server for the real-endpoint test (waiting for the background build)"
wait "$llm_install" || { tail -20 target/llm-server-install.log; exit 1; }
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
LLM_CTX=8192 ./scripts/llm_server.sh start "$port" >/dev/null
trap './scripts/llm_server.sh stop >/dev/null 2>&1 || true' EXIT
export IVD_REAL_LLM_URL="http://127.0.0.1:$port/v1"
# Transcription takes both cores: those tests run on their own, one at a time, after the rest
# have run two at a time (a whisper test waiting for another would idle a test thread).
WHISPER_TESTS=(audio:: voices:: mock::an_answer_can_be_a_recording serve::a_real_browser)
skips=()
for t in "${WHISPER_TESTS[@]}"; do skips+=(--skip "$t"); done
stamp "cargo test (all but recordings, two at a time)"
cargo test --all-targets -- --test-threads 2 "${skips[@]}"
stamp "cargo test (recordings, one at a time)"
cargo test --all-targets -- --test-threads 1 "${WHISPER_TESTS[@]}"
stamp "done"
