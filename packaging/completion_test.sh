#!/usr/bin/env bash
# The bash completion (fitrank.bash) against the built binary, and the zsh one's syntax when
# zsh is installed.   completion_test.sh BIN PACKAGING_DIR
set -euo pipefail
bin=$1
dir=$2
source "$dir/fitrank.bash"
fail=0

# complete WORDS...: runs _fitrank as bash would for the command line WORDS (the last one is
# being completed) and prints COMPREPLY one entry a line.
complete_words() {
  COMP_WORDS=("$bin" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _fitrank
  printf '%s\n' "${COMPREPLY[@]}"
}

# expect NAME EXPECTED WORDS...: the completions must equal EXPECTED (lines).
expect() {
  local name=$1 want=$2
  shift 2
  local got
  got=$(complete_words "$@")
  if [[ $got != "$want" ]]; then
    printf 'FAIL %s\n  want: %q\n  got:  %q\n' "$name" "$want" "$got"
    fail=1
  else
    echo "ok   $name"
  fi
}

expect "command" "recommend" reco
expect "two commands, in help order" $'calibrate\ncatalog' ca
expect "subcommand" "models" catalog mo
expect "rules subcommand" "schema" rules sch
expect "flag" $'--gpu\n--gpus' recommend --gp
expect "flag values from the help" $'interactive' recommend --mode int
expect "flag values after a label" $'q8_0' estimate --kv-cache q8
expect "format values" $'csv' gpu --format cs
expect "GPU names, spaces escaped" 'GeForce\ RTX\ 4090' recommend --gpu 'GeForce RTX 409'
expect "positional GPU" 'GeForce\ RTX\ 4090' compare 4090 'GeForce RTX 409'
expect "model names" 'Llama\ 3.1\ 8B\ Instruct' fit 'Llama 3.1 8B I'
expect "quant ids" 'Q4_K_M' estimate --quant Q4_K_M
expect "no values for a free number" '' recommend --top ''

# zsh: _fitrank with the completion system's compadd and _files replaced by stubs that print
# what would be offered; zsh itself would then keep those matching the word typed, as the
# grep does here.
zsh_complete() {
  zsh -f -c '
    bin=$1 dir=$2; shift 2
    compadd() { if [[ $1 == -a ]]; then print -rl -- "${(@P)2}"; else print -rl -- "$@"; fi }
    _files() { print -r -- "<files $*>"; }
    source "$dir/_fitrank" >/dev/null 2>&1
    words=("$bin" "$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}
    _fitrank | grep -F -- "$PREFIX"' zsh "$bin" "$dir" "$@" || true
}
zexpect() {
  local name=$1 want=$2
  shift 2
  local got
  got=$(zsh_complete "$@")
  if [[ $got != "$want" ]]; then
    printf 'FAIL zsh %s\n  want: %q\n  got:  %q\n' "$name" "$want" "$got"
    fail=1
  else
    echo "ok   zsh $name"
  fi
}
if command -v zsh >/dev/null; then
  zsh -n "$dir/_fitrank" && echo "ok   zsh syntax" || { echo "FAIL zsh syntax"; fail=1; }
  zexpect "command" "recommend" reco
  zexpect "subcommand" "models" catalog mo
  zexpect "flag" $'--gpu\n--gpus' recommend --gp
  zexpect "flag values from the help" "interactive" recommend --mode int
  zexpect "GPU names" "GeForce RTX 4090" recommend --gpu 'GeForce RTX 409'
  zexpect "model names" "Llama 3.1 8B Instruct" fit 'Llama 3.1 8B I'
  zexpect "directories" "<files -/>" recommend --data ''
else
  echo "skip zsh (not installed)"
fi
exit $fail
