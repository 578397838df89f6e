#!/bin/sh
# Builds the Debian package from the build tree (cpack), unpacks it into a scratch root with
# `dpkg -x`, and runs what it installed.   deb_test.sh BUILD_DIR
set -eu
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" > "$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack"; }
version=$("$build/fitrank" --version | sed -n '1s/^fitrank //p')
deb="$work/pkg/fitrank_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$work/pkg"; fail "no $deb"; }
echo "ok   built $(basename "$deb")"

# Depends: every shared library the binary and its HTTP plugin need (their NEEDED entries) must
# come from a package it names; what those libraries need in turn is their packages' Depends
# (libssl for libcpp-httplib, say). Abseil, linked statically, must not appear.
depends=$(dpkg-deb -f "$deb" Depends)
echo "     Depends: $depends"
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
for name in $(objdump -p "$build/fitrank" "$build/libfitrank_http.so" |
              awk '$1 == "NEEDED" {print $2}' | sort -u); do
  pkg=$(dpkg -S "*/$arch/$name" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$pkg" ] || fail "no installed package has $name"
  case "$depends" in
    "$pkg "* | "$pkg,"* | *", $pkg "* | *", $pkg,"* | *", $pkg") ;;
    *) fail "the binary links $name but Depends lacks $pkg" ;;
  esac
done
# Start-up: HTTP (and OpenSSL through it) is the plugin's, opened only by serve and the Ollama
# client (cli/http/transport.h); the binary itself must not link it.
objdump -p "$build/fitrank" | awk '$1 == "NEEDED" {print $2}' | grep -E '^lib(cpp-httplib|ssl|crypto)' &&
  fail "fitrank links HTTP/TLS libraries that every command would load"
case "$depends" in *libabsl*) fail "Depends names Abseil, which should be static" ;; esac
[ "$(dpkg-deb -f "$deb" Package)" = fitrank ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field"

root="$work/root"
dpkg -x "$deb" "$root"
for f in usr/bin/fitrank usr/lib/fitrank/libfitrank_http.so usr/share/man/man1/fitrank.1.gz \
         usr/share/bash-completion/completions/fitrank usr/share/zsh/vendor-completions/_fitrank \
         usr/share/doc/fitrank/README.md usr/share/doc/fitrank/LICENSE \
         usr/share/doc/fitrank/CHANGELOG.md; do
  [ -f "$root/$f" ] || fail "the package lacks /$f"
done
echo "ok   files in place"

"$root/usr/bin/fitrank" --version | grep -q "^fitrank $version$" || fail "installed --version"
"$root/usr/bin/fitrank" --version | grep -q "^catalog data as of " || fail "no data date"
"$root/usr/bin/fitrank" gpu 4090 --json | grep -q '"GeForce RTX 4090"' || fail "installed gpu 4090"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' |
  "$root/usr/bin/fitrank" mcp | grep -q '"name":"recommend"' || fail "installed mcp tools/list"
# serve opens the HTTP plugin from ../lib/fitrank: with it, an address that is not this
# machine's fails at bind (TEST-NET-1), not at loading.
serve_err=$("$root/usr/bin/fitrank" serve --host 192.0.2.1 --port 1 2>&1 || true)
echo "$serve_err" | grep -q "cannot bind 192.0.2.1:1" || fail "installed serve: $serve_err"
echo "ok   installed binary runs"

# The man page documents every command, from the binary's own help.
man=$(gzip -dc "$root/usr/share/man/man1/fitrank.1.gz")
echo "$man" | grep -q '^\.SH COMMANDS' || fail "man page has no COMMANDS section"
for c in $("$root/usr/bin/fitrank" --help | awk '/^Commands:/ {on = 1; next} on && NF == 0 {on = 0} on {print $1}'); do
  echo "$man" | grep -q "^\.SS $c\$" || fail "man page lacks command $c"
done
echo "ok   man page"
