#!/bin/sh
# fitrank without its HTTP plugin (cli/http/transport.h): every command that needs no HTTP
# works; `serve` refuses with a message saying where it looked (exit 2); `detect` says in a
# note that it did not ask Ollama.   http_plugin_missing.sh FITRANK_BINARY
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp "$1" "$work/fitrank"

"$work/fitrank" fit llama-3.1-8b-instruct --gpu 4090 > /dev/null || fail "fit without the plugin"
echo "ok   fit runs without the plugin"

set +e
err=$("$work/fitrank" serve --port 0 2>&1)
code=$?
set -e
[ "$code" = 2 ] || fail "serve exit $code, not 2: $err"
echo "$err" | grep -q "HTTP support (libfitrank_http.so, part of fitrank) cannot be loaded" ||
  fail "serve does not say what is missing: $err"
echo "$err" | grep -q "($work/libfitrank_http.so: not there; $work/../lib/fitrank/libfitrank_http.so: not there)" || fail "serve does not say where: $err"
echo "ok   serve says what is missing and where it looked"

out=$(OLLAMA_HOST=127.0.0.1:9 "$work/fitrank" detect --sysroot /nonexistent 2>&1) ||
  fail "detect without the plugin: $out"
echo "$out" | grep -q "ollama: not asked: HTTP support" || fail "detect has no note: $out"
echo "ok   detect notes that it did not ask Ollama"
