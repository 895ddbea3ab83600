#!/usr/bin/env bash
# Smoke test of the deployment in docs/deploy.md: three replicas behind nginx (Debian's package,
# deploy/nginx/switchyard.conf) on one PostgreSQL, all on 127.0.0.1, torn down afterwards.
# Needs: a build (npm run build), nginx, PostgreSQL server binaries. Takes a few seconds.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ ! -f dist/scripts/deploy-smoke.js ]; then
  npx tsc -p tsconfig.json
fi
exec node dist/scripts/deploy-smoke.js "$@"
