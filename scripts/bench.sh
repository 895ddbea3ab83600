#!/usr/bin/env bash
# Gateway benchmark (issue #8): builds, then runs bench/gateway-bench/run.ts.
#   bash scripts/bench.sh              full run (~15 min): 3 repetitions, 10 s per cell
#   bash scripts/bench.sh --quick      smoke test (~1 min): 1 repetition, 2 s per cell
#   bash scripts/bench.sh --soak 10    10-minute soak of Switchyard (RSS slope)
#   bash scripts/bench.sh --streams 512
# Installs the Portkey gateway from npm into bench/.portkey (gitignored) on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.json
exec node dist/bench/gateway-bench/run.js "$@"
