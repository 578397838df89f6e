#!/usr/bin/env bash
# Builds and runs every test stage, as CI does (.ci/run calls this through the README's test
# command). Stages:
#   1. Release build, the whole CTest suite (unit, golden, rule, CLI, server and browser tests).
# Each stage prints its own CTest summary; the script stops at the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${FITRANK_JOBS:-2}

echo "== stage 1: release build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
