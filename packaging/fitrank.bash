# bash completion for fitrank.
#
# Everything is read from the installed binary, so it never goes stale: the commands from
# `fitrank --help`, a command's subcommands and flags from `fitrank COMMAND --help`, the values
# of a flag whose help lists them ("chat | coding | ..."), and GPU, model, quantization and
# runtime names from `fitrank catalog gpus|models|quants|runtimes --names`. Names with spaces
# are completed with the spaces escaped (`--gpu GeForce\ RTX\ 4090`).

# COMPREPLY = the lines of $1 that start with $cur, shell-quoted. (Called with the text, not
# at the end of a pipe: a pipe's last command runs in a subshell and COMPREPLY would be lost.)
_fitrank_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do
    if [[ -n $line && $line == "$cur"* ]]; then
      COMPREPLY+=("$(printf '%q' "$line")")
    fi
  done <<<"$1"
}

_fitrank() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local bin=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]}
  if ((COMP_CWORD == 1)); then
    _fitrank_reply "$("$bin" --help 2>/dev/null |
      awk '/^Commands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}'; printf '%s\n' --help --version)"
    return
  fi
  local help
  help=$("$bin" "$cmd" --help 2>/dev/null) || return
  case $prev in
    --gpu) _fitrank_reply "$("$bin" catalog gpus --names 2>/dev/null)"; return ;;
    --model) _fitrank_reply "$("$bin" catalog models --names 2>/dev/null)"; return ;;
    --quant) _fitrank_reply "$("$bin" catalog quants --names 2>/dev/null)"; return ;;
    --runtime) _fitrank_reply "$("$bin" catalog runtimes --names 2>/dev/null)"; return ;;
    --data | --rules) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --model-config | --measurements) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --*)
      # A flag that takes a value: its help line is "  --flag VALUE  help".
      local line
      line=$(printf '%s\n' "$help" | grep -E -- "^  $prev [A-Z]") || true
      if [[ -n $line ]]; then
        # Values listed as "a | b | c" (after an optional "label: ", before "(...)").
        _fitrank_reply "$(printf '%s\n' "$line" |
          sed -E 's/^  --[a-z-]+ [A-Z_]+ +//; s/ *\(.*//; s/^[^|]*: //' |
          awk -F ' [|] ' 'NF > 1 {for (i = 1; i <= NF; i++) print $i}')"
        return
      fi
      ;;
  esac
  if [[ $cur == -* ]]; then
    _fitrank_reply "$(printf '%s\n' "$help" | awk '/^  --/ {print $1}')"
    return
  fi
  # Subcommands ("fitrank catalog gpus|models|..."), then positional names.
  if ((COMP_CWORD == 2)); then
    local subs
    subs=$(printf '%s\n' "$help" | grep -oE "fitrank $cmd [a-z|-]+" | awk '{print $3}' |
           tr '|' '\n' | grep -E '^[a-z][a-z-]*$')
    if [[ -n $subs ]]; then
      _fitrank_reply "$subs"
      return
    fi
  fi
  case $cmd in
    gpu | compare) _fitrank_reply "$("$bin" catalog gpus --names 2>/dev/null)" ;;
    fit) _fitrank_reply "$("$bin" catalog models --names 2>/dev/null)" ;;
  esac
}

complete -F _fitrank fitrank
