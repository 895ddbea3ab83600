#!/usr/bin/env bash
# The README's quick start on this machine's own Node.js (20, 22 or 24): build, start on a free
# loopback port with a fresh SQLite store, GET /health, create an API key with the management key
# the first start prints, make one demo call, stop with SIGTERM. Run by scripts/test-all.sh before
# it switches to Node.js 24, so the versions README names as supported keep working.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "quick start on node $(node --version)"
# The native addons may have been built for another node (test-all.sh rebuilds them for 24).
node -e "require('better-sqlite3'); require('re2')" 2>/dev/null || npm rebuild better-sqlite3 re2 >/dev/null
npm run --silent build

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
PORT="$port" HOST=127.0.0.1 SWITCHYARD_DATABASE_URL="sqlite:$work/switchyard.db" node dist/src/main.js >"$work/server.log" 2>&1 &
server_pid=$!
# shellcheck source=lib/first-call.sh
source scripts/lib/first-call.sh
first_call "http://127.0.0.1:$port" "$work/server.log" "$server_pid" "quick start"
kill -TERM "$server_pid"
wait "$server_pid" || { cat "$work/server.log" >&2; echo "quick start: the gateway did not stop cleanly" >&2; exit 1; }
server_pid=""
echo "quick start passed on node $(node --version)"
