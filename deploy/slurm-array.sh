#!/usr/bin/env bash
# Slurm array: one task per shard; `--shard N` reads SLURM_ARRAY_TASK_ID. IN and OUT on a shared
# file system. A task that fails can be resubmitted alone (`sbatch --array=K ...`): done files are
# skipped by content hash. Then merge once:
#
#   jobid=$(sbatch --parsable deploy/slurm-array.sh /shared/in /shared/out)
#   sbatch --dependency=afterany:$jobid --wrap "ivd batch merge /shared/out"
#
#SBATCH --job-name=ivd-batch
#SBATCH --array=0-7            # N = 8 shards: keep equal to SHARDS below
#SBATCH --cpus-per-task=2
#SBATCH --mem=4G
#SBATCH --time=12:00:00
#SBATCH --output=ivd-batch-%A_%a.log
set -euo pipefail
IN="${1:?usage: sbatch deploy/slurm-array.sh IN_DIR OUT_DIR}"
OUT="${2:?usage: sbatch deploy/slurm-array.sh IN_DIR OUT_DIR}"
SHARDS=8
# One history database per task (SQLite on a network file system is not shared between writers).
export IVD_HOME="${IVD_HOME_BASE:-$OUT/.homes}/task-${SLURM_ARRAY_TASK_ID}"
# export OPENAI_BASE_URL=http://vllm-node:8000/v1 IVD_LLM_MODEL=...   # an OpenAI-compatible server
exec ivd batch "$IN" --out "$OUT" --shard "$SHARDS" --jobs "${SLURM_CPUS_PER_TASK:-2}" --format json,html
