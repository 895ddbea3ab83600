# shellcheck shell=bash
# The README's first call against a gateway that is starting: waits for /health, reads the
# management key its first start printed into its log, creates an API key, makes one demo chat
# call (streamed: ends with [DONE]). Sourced by scripts/quickstart-smoke.sh and scripts/image/smoke.sh.
#   first_call <base url> <server log> <server pid> <label>
first_call() {
  local sy="$1" log="$2" pid="$3" label="$4" mgmt key answer
  for _ in $(seq 1 120); do
    curl -sf "$sy/health" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "$label: the gateway exited" >&2; return 1; }
    sleep 0.5
  done
  curl -sf "$sy/health" | grep -q '"status":"ok"' || { cat "$log" >&2; return 1; }
  mgmt="$(grep -o 'sk-sy-v1-[0-9a-f]\{64\}' "$log" | head -1)"
  [ -n "$mgmt" ] || { cat "$log" >&2; echo "$label: no management key printed" >&2; return 1; }
  key="$(curl -sf -X POST "$sy/api/v1/keys" -H "Authorization: Bearer $mgmt" -H 'Content-Type: application/json' \
    -d '{"name":"my-app","limit":10,"limit_reset":"monthly"}' | sed -n 's/.*"key":"\(sk-sy-v1-[0-9a-f]*\)".*/\1/p')"
  [ -n "$key" ] || { echo "$label: creating an API key failed" >&2; return 1; }
  answer="$(curl -sfN "$sy/api/v1/chat/completions" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    -d '{"model":"demo/echo","stream":true,"messages":[{"role":"user","content":"Hello"}]}')"
  echo "$answer" | grep -q 'data: \[DONE\]' || { echo "$answer" >&2; echo "$label: the demo call failed" >&2; return 1; }
}
