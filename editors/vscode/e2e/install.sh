#!/bin/sh
# Installs this folder's pinned packages (package-lock.json: code-server,
# VS Code's web build, and playwright-core) with npm ci, on a machine whose
# only network is the npm registry:
# - code-server 4.100.3 supports Node 20 only (its postinstall refuses
#   other majors); newer releases need Node 22 or 24.
# - Its postinstall installs VS Code's own dependencies (pinned by their
#   npm-shrinkwrap.json) with npm install; the native ones (kerberos, which
#   needs Debian's libkrb5-dev, node-pty, @parcel/watcher, spdlog) fall
#   back to building from source when their prebuilt download fails, with
#   build-essential and python3. As root npm needs unsafe-perm, and yes
#   for the npx inside node-pty's build.
# - @vscode/ripgrep 1.15.11 (what code-server 4.100.3 pins) downloads
#   ripgrep v13.0.0-10 from GitHub in its postinstall unless the archive is
#   in its cache, $TMPDIR/vscode-ripgrep-cache-1.15.11: the cache is seeded
#   with Debian's rg (ripgrep 13 too).
# - npm 11.19 and later run no dependency's install scripts unless the
#   project's allowScripts approves it, and the nested install in
#   code-server's postinstall has no such list: both need
#   dangerously_allow_all_scripts (older npm ignores the setting). The
#   packages are the ones package-lock.json and VS Code's shrinkwrap pin.
# A second run with the same package-lock.json does nothing.
set -eu
cd "$(dirname "$0")"

major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" != 20 ]; then
	echo "code-server 4.100.3 needs Node.js 20 (this is $(node --version))" >&2
	exit 1
fi
rg=$(command -v rg) || {
	echo "ripgrep is missing: apt-get install ripgrep" >&2
	exit 1
}
stamp=node_modules/.parley-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x node_modules/.bin/code-server ]; then
	exit 0
fi

case $(uname -m) in
x86_64) target=x86_64-unknown-linux-musl ;;
aarch64) target=aarch64-unknown-linux-musl ;;
*)
	echo "no ripgrep cache layout known for $(uname -m)" >&2
	exit 1
	;;
esac
tmp="$PWD/.cache/tmp"
cache="$tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
seed=$(mktemp -d)
cp "$rg" "$seed/rg"
tar -czf "$cache/ripgrep-v13.0.0-10-$target.tar.gz" -C "$seed" rg
rm -rf "$seed"

TMPDIR="$tmp" npm_config_unsafe_perm=true npm_config_yes=true npm_config_dangerously_allow_all_scripts=true \
	npm ci --no-audit --no-fund
echo "$want" >"$stamp"
