#!/usr/bin/env bash
# Builds and runs every test stage, as CI does (.ci/run calls this through the README's test
# command). Stages:
#   1. Release build, the whole CTest suite (unit, golden, rule, CLI, server and browser tests,
#      and the fuzz corpus replays).
#   2. The same suite under AddressSanitizer + UBSan (build-asan, -DFITRANK_SANITIZE=ON; any
#      report aborts the test that triggers it).
#   3. When clang and libFuzzer are installed (else one "skipped" line saying what to install):
#      each fuzz target (tests/fuzz/) built with libFuzzer over instrumented libraries
#      (build-fuzz, -DFITRANK_FUZZ=ON), its corpus replayed, then run for FITRANK_FUZZ_SECONDS
#      (default 20) from its corpus and seeds; a crash, leak, timeout or sanitizer report fails
#      the stage and leaves the input in build-fuzz/artifacts/.
# Each stage prints its own summary and wall time; the script stops at the first failing stage.
# FITRANK_STAGES=1,2 runs only the stages listed (default: all three).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${FITRANK_JOBS:-2}
stages=${FITRANK_STAGES:-1,2,3}
fuzz_seconds=${FITRANK_FUZZ_SECONDS:-20}
# ccache, when installed, makes the three builds of one tree share their unchanged objects.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
want() { [[ ",$stages," == *",$1,"* ]]; }
started=$SECONDS
took() { echo "== stage $1 took $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"; started=$SECONDS; }

if want 1; then
  echo "== stage 1: release build and tests"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
  cmake --build build -j"$jobs"
  ctest --test-dir build --output-on-failure -j"$jobs"
  took 1
fi

if want 2; then
  echo "== stage 2: AddressSanitizer + UBSan build and tests"
  # -O1: sanitized code at -O3 takes twice as long to build for little faster tests.
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
    -DFITRANK_SANITIZE=ON "${launcher[@]}"
  cmake --build build-asan -j"$jobs"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
  took 2
fi

# True if clang++ can link a libFuzzer binary (clang, and libclang-rt-14-dev's runtime).
have_libfuzzer() {
  command -v clang++ >/dev/null || return 1
  local dir
  dir=$(mktemp -d)
  printf '%s\n' '#include <cstddef>' '#include <cstdint>' \
    'extern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }' >"$dir/t.cc"
  clang++ -fsanitize=fuzzer "$dir/t.cc" -o "$dir/t" >/dev/null 2>&1
  local rc=$?
  rm -rf "$dir"
  return $rc
}

if want 3; then
  if ! have_libfuzzer; then
    echo "== stage 3: skipped: clang++ cannot link a libFuzzer target here" \
         "(apt-get install clang libclang-rt-14-dev)"
  else
    echo "== stage 3: fuzz targets, ${fuzz_seconds}s each"
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DFITRANK_FUZZ=ON "${launcher[@]}"
    targets=()
    for src in tests/fuzz/*_fuzzer.cc; do targets+=("$(basename "$src" .cc)"); done
    cmake --build build-fuzz -j"$jobs" --target "${targets[@]}"
    # The corpus replays (past crashes stay fixed under libFuzzer's own driver), the check that
    # the libraries are instrumented, and the check that gcc is refused.
    ctest --test-dir build-fuzz --output-on-failure -j"$jobs" -R '^fuzz_'
    mkdir -p build-fuzz/artifacts
    for t in "${targets[@]}"; do
      name=${t%_fuzzer}
      mkdir -p "build-fuzz/corpus/$name"
      # New inputs go to build-fuzz/corpus/<name> (first directory); the checked-in corpus and
      # the seeds are read only.
      build-fuzz/tests/fuzz/"$t" -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$name-" \
        "build-fuzz/corpus/$name" "tests/fuzz/corpus/$name" "build-fuzz/tests/fuzz/seeds/$name" \
        2>"build-fuzz/artifacts/$name.log" || {
          tail -50 "build-fuzz/artifacts/$name.log"
          echo "fuzz target $name failed: the input is in build-fuzz/artifacts/$name-*;" \
               "add it to tests/fuzz/corpus/$name/ once fixed"
          exit 1
        }
      # One line per target: executions, coverage (edges, features) and corpus at the end.
      runs=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "build-fuzz/artifacts/$name.log" |
             grep -oE '[0-9]+$' || true)
      last=$(grep -E '^#[0-9]+' "build-fuzz/artifacts/$name.log" | tail -1 |
             grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
      echo "  $name: ${runs:-?} executions in ${fuzz_seconds}s, ${last:-no status line}"
    done
  fi
  took 3
fi
echo "== all stages passed"
