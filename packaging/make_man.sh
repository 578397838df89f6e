#!/bin/sh
# Writes the man page fitrank.1 (gzipped) from the binary's own help, so it cannot drift:
# help2man takes the summary, synopsis and command list from `fitrank --help` and the version
# from `fitrank --version`; the COMMANDS section is every command's `fitrank COMMAND --help`.
#   make_man.sh BIN OUT.1.gz
set -eu
bin=$1
out=$2
inc=$(mktemp)
trap 'rm -f "$inc" "$out.tmp"' EXIT

# roff: a backslash is \e, a hyphen in a flag is \-, a line may not start with . or '.
roff() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\([.']\)/\\\\\&\1/"; }

commands=$("$bin" --help | awk '/^Commands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}')
{
  echo "[COMMANDS]"
  for c in $commands; do
    echo ".SS $c"
    echo ".nf"
    "$bin" "$c" --help | roff
    echo ".fi"
  done
  cat <<'ROFF'
[EXIT STATUS]
0 success, 1 the query had no answer, 2 bad input or usage (with the problem, where it is, and
a hint).
[ENVIRONMENT]
.TP
.B FITRANK_DATA
a data tree overriding the embedded one file by file (as \-\-data DIR).
.TP
.B FITRANK_RULES
local rule files loaded after the shipped ones (as \-\-rules DIR).
.TP
.B NO_COLOR
no colour in tables even on a terminal.
[SEE ALSO]
The README (/usr/share/doc/fitrank/README.md) shows an example of every command, the rule
language and how to register \fBfitrank mcp\fR with an MCP client.
ROFF
} > "$inc"

help2man --no-info --section=1 --manual="User Commands" \
  --name="which AI models run on your hardware, how fast, and what to buy next" \
  --include="$inc" --output="$out.tmp" "$bin"
gzip -9n < "$out.tmp" > "$out"
