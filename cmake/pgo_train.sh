#!/bin/sh
# The training run of a PGO build (cmake/pgo.cmake): what the instrumented fitrank at $1 runs
# so that its profile shows the paths users take. Mostly the ranking loop (a sweep over every
# 20th GPU of the catalog, all workloads and modes, one thread so that the counts are the same
# on every run), then the single-question reports, whose time is mostly start-up. Any command
# that fails stops the build: a profile of a half run would silently optimise for the wrong
# paths.
set -eu
fitrank=$1
names=$("$fitrank" catalog gpus --names)
set --
i=0
while IFS= read -r name; do
  if [ $((i % 20)) -eq 0 ]; then set -- "$@" --gpu "$name"; fi
  i=$((i + 1))
done <<END
$names
END
[ $# -gt 0 ] || { echo "pgo_train.sh: no GPU in the catalog" >&2; exit 1; }
"$fitrank" sweep "$@" --threads 1 --format jsonl >/dev/null
"$fitrank" recommend --gpu "RTX 4090" --workload coding >/dev/null
"$fitrank" recommend --gpu "RTX 3090" --gpus 2 --mode light-api --json >/dev/null
"$fitrank" fit qwen3-32b --gpu "RTX 4090" >/dev/null
"$fitrank" gpu "RTX 4090" >/dev/null
"$fitrank" upgrade --gpu "RTX 3060 12GB" >/dev/null
"$fitrank" compare "RTX 4090" "RX 7900 XTX" >/dev/null
"$fitrank" estimate --model llama-3.1-8b-instruct --gpu "RTX 4090" >/dev/null
"$fitrank" rules lint >/dev/null
