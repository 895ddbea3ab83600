#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then run it.
# Used by .ci/run; safe to re-run locally (skips what is already there). The quick start is checked
# on the machine's own Node.js, the rest runs on Node.js 24 (installed into .tools/ when older).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

phase_start=0
phase() { phase_start=$SECONDS; echo "=== [test-all] $1"; }
phase_done() { echo "=== [test-all] $1 done in $((SECONDS - phase_start))s"; }

is_root() { [ "$(id -u)" = "0" ]; }

apt_updated=0
apt_install() {
  if [ "$apt_updated" = "0" ]; then
    apt-get update -qq
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

have_pg_server() {
  local dir
  if command -v pg_config >/dev/null 2>&1; then
    dir="$(pg_config --bindir 2>/dev/null || true)"
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      return 0
    fi
  fi
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      return 0
    fi
  done
  return 1
}

# --- PostgreSQL server binaries (the harness runs its own temp cluster) ---
phase "PostgreSQL binaries"
if have_pg_server; then
  echo "PostgreSQL server binaries present"
elif [ "${SWITCHYARD_TEST_SKIP_PG:-}" = "1" ]; then
  echo "PostgreSQL missing; SWITCHYARD_TEST_SKIP_PG=1 so PG suites will skip"
elif is_root; then
  apt_install postgresql
  # The package may start its own cluster on 5432; the harness doesn't use it.
  service postgresql stop >/dev/null 2>&1 || true
  if command -v pg_lsclusters >/dev/null 2>&1; then
    pg_lsclusters --no-header 2>/dev/null | while read -r ver name _; do
      pg_ctlcluster "$ver" "$name" stop >/dev/null 2>&1 || true
    done
  fi
  have_pg_server || { echo "PostgreSQL install did not provide initdb/pg_ctl/postgres" >&2; exit 1; }
else
  echo "PostgreSQL server binaries missing and not root: install Debian's 'postgresql' package," >&2
  echo "or set SWITCHYARD_TEST_SKIP_PG=1 to skip the PostgreSQL suites." >&2
  exit 1
fi
phase_done "PostgreSQL binaries"

# --- nginx (deploy/smoke.sh runs Debian's nginx on loopback ports, in front of three replicas) ---
have_nginx() { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; }
phase "nginx"
if have_nginx; then
  echo "nginx present"
elif [ "${SWITCHYARD_SKIP_DEPLOY_SMOKE:-}" = "1" ] || [ "${SWITCHYARD_TEST_SKIP_PG:-}" = "1" ]; then
  echo "nginx missing; the deployment smoke will be skipped"
elif is_root; then
  apt_install nginx
  # The package may start its own server on port 80; the smoke runs a private one.
  service nginx stop >/dev/null 2>&1 || true
  have_nginx || { echo "nginx install did not provide the nginx binary" >&2; exit 1; }
else
  echo "nginx missing and not root: install Debian's 'nginx' package," >&2
  echo "or set SWITCHYARD_SKIP_DEPLOY_SMOKE=1 to skip the deployment smoke." >&2
  exit 1
fi
phase_done "nginx"

# --- Chromium (the console's browser tests drive Debian's build through playwright-core) ---
phase "chromium"
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  echo "chromium present"
elif is_root; then
  apt_install chromium
else
  echo "chromium missing and not root: install Debian's 'chromium' package (the console tests need it)" >&2
  exit 1
fi
phase_done "chromium"

# --- Build tools for native addons (better-sqlite3, re2) ---
phase "build tools"
if command -v g++ >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  echo "g++, make, python3 present"
elif is_root; then
  apt_install build-essential python3
else
  echo "g++/make/python3 missing (needed to build native addons) and not root" >&2
  exit 1
fi
phase_done "build tools"

# --- curl and jq: the guides' examples use them (test/docs/guides/*.test.ts run every one) ---
phase "doc-test tools"
if command -v curl >/dev/null 2>&1 && command -v jq >/dev/null 2>&1; then
  echo "curl, jq present"
elif is_root; then
  apt_install curl jq ca-certificates
else
  echo "curl/jq missing (the docs/guides examples need them) and not root" >&2
  exit 1
fi
phase_done "doc-test tools"

# --- npm dependencies ---
phase "npm dependencies"
if [ "${SWITCHYARD_FORCE_INSTALL:-}" != "1" ] && [ -f node_modules/.package-lock.json ] \
  && [ node_modules/.package-lock.json -nt package.json ] \
  && { [ ! -f package-lock.json ] || [ node_modules/.package-lock.json -nt package-lock.json ]; }; then
  echo "node_modules is newer than package.json/package-lock.json: skipping install (SWITCHYARD_FORCE_INSTALL=1 to force)"
elif [ -f package-lock.json ]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi
phase_done "npm dependencies"

# --- the README's quick start on this machine's own Node.js (20 and 22 stay supported) ---
phase "quick start on node $(node --version)"
bash scripts/quickstart-smoke.sh
phase_done "quick start"

# --- Node.js 24 (the supported LTS) for everything below: fetched into .tools/node24 unless this
# machine's node is the 24.18 the image runs (scripts/node24.sh says why not a later 24) ---
phase "Node.js 24"
if [ "$(node -p 'process.versions.node.split(".").slice(0, 2).join(".")')" != "24.18" ]; then
  node24="$(bash scripts/node24.sh)"
  export PATH="$node24/bin:$PATH"
  # node-gyp builds against that node's own headers, never downloading them.
  export npm_config_nodedir="$node24"
fi
echo "node $(node --version) at $(command -v node)"
# The native addons, built for the node that runs the suite.
node -e "require('better-sqlite3'); require('re2')" 2>/dev/null || npm rebuild better-sqlite3 re2
phase_done "Node.js 24"

# --- lint, import boundaries and formatting: a violation fails the build like a failing test ---
phase "lint and format"
npm run lint
npm run format:check
phase_done "lint and format"

# --- build and test ---
phase "npm test"
npm test
phase_done "npm test"

# --- the documented deployment: three replicas behind nginx on one PostgreSQL (docs/deploy.md) ---
phase "deployment smoke"
if [ "${SWITCHYARD_SKIP_DEPLOY_SMOKE:-}" = "1" ] || [ "${SWITCHYARD_TEST_SKIP_PG:-}" = "1" ] || ! have_nginx; then
  echo "skipped (SWITCHYARD_SKIP_DEPLOY_SMOKE=1, SWITCHYARD_TEST_SKIP_PG=1 or no nginx)"
else
  bash deploy/smoke.sh
fi
phase_done "deployment smoke"

# --- the container image: built with buildah, the README's first call made inside it (docs/testing.md) ---
phase "container image"
if [ "${SWITCHYARD_SKIP_IMAGE_SMOKE:-}" = "1" ]; then
  echo "skipped (SWITCHYARD_SKIP_IMAGE_SMOKE=1)"
elif ! is_root; then
  echo "skipped (buildah with vfs storage and chroot isolation needs root)"
else
  bash scripts/image/smoke.sh
fi
phase_done "container image"
