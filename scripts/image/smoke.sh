#!/usr/bin/env bash
# Builds the container image and makes the README's first call inside it: start the gateway from
# the image, GET /health, create an API key with the management key it prints, make a demo chat
# call, stop it with SIGTERM. Also checks the image's contract (non-root user, /data volume,
# HEALTHCHECK, Node 24). Prints the build time and the image size.
#
# No Docker daemon needed: buildah (vfs storage, chroot isolation) as root, on a base built from
# Debian packages when node:24.18-bookworm-slim cannot be pulled (scripts/image/build-base.sh).
# Installs buildah and debootstrap through apt when missing. Called by scripts/test-all.sh.
#
# Disk: vfs storage keeps every layer as a full copy of the root filesystem, so the build runs
# without a layer cache (each stage is committed once, not once per instruction) and everything the
# smoke made (containers, images, the base it built) is removed when it ends, whatever the outcome;
# SWITCHYARD_KEEP_IMAGE=1 keeps the image for a look afterwards.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

STORAGE=(--storage-driver vfs)
IMAGE=localhost/switchyard:smoke

if [ "$(id -u)" != "0" ]; then
  echo "image smoke: needs root (buildah with vfs storage and chroot isolation)" >&2
  exit 1
fi
missing=()
command -v buildah >/dev/null 2>&1 || missing+=(buildah)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
if [ "${#missing[@]}" -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Working containers and images a previous, interrupted run left behind.
buildah "${STORAGE[@]}" rm --all >/dev/null 2>&1 || true
buildah "${STORAGE[@]}" rmi --prune >/dev/null 2>&1 || true
graph_root="$(buildah "${STORAGE[@]}" info --format '{{.store.GraphRoot}}' 2>/dev/null || echo /var/lib/containers/storage)"
mkdir -p "$graph_root"
free_mb() { df -Pm "$graph_root" | awk 'NR == 2 { print $4 }'; }
echo "=== [image] storage $graph_root: $(free_mb) MB free before the build"

built_base=""
remove_images() {
  if [ "${SWITCHYARD_KEEP_IMAGE:-}" = "1" ]; then return; fi
  buildah "${STORAGE[@]}" rm --all >/dev/null 2>&1 || true
  buildah "${STORAGE[@]}" rmi --force "$IMAGE" >/dev/null 2>&1 || true
  if [ -n "$built_base" ]; then buildah "${STORAGE[@]}" rmi --force "$built_base" >/dev/null 2>&1 || true; fi
  buildah "${STORAGE[@]}" rmi --prune >/dev/null 2>&1 || true
}
trap remove_images EXIT

build_args=()
if [ -n "${SWITCHYARD_BASE_IMAGE:-}" ]; then
  base="$SWITCHYARD_BASE_IMAGE"
elif buildah "${STORAGE[@]}" pull --quiet docker.io/library/node:24.18-bookworm-slim >/dev/null 2>&1; then
  base=docker.io/library/node:24.18-bookworm-slim
else
  echo "=== [image] node:24.18-bookworm-slim cannot be pulled: building an equivalent base from Debian packages"
  started=$SECONDS
  base="$(bash scripts/image/build-base.sh)"
  built_base="$base"
  echo "=== [image] base $base built in $((SECONDS - started))s"
fi
build_args+=(--build-arg "BASE_IMAGE=$base")
# A network that intercepts TLS (a proxy with its own CA): hand the build this machine's CA bundle.
volumes=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  volumes+=(-v "$NODE_EXTRA_CA_CERTS:/etc/ssl/host-ca.crt:ro")
  build_args+=(--build-arg EXTRA_CA_CERTS=/etc/ssl/host-ca.crt)
fi
# npm's cache (filled by the test run's own install) spares the build most downloads.
if [ -d "$HOME/.npm/_cacache" ]; then volumes+=(-v "$HOME/.npm:/root/.npm"); fi

echo "=== [image] building $IMAGE"
started=$SECONDS
buildah "${STORAGE[@]}" bud --quiet --isolation chroot --format docker --layers=false \
  "${volumes[@]}" "${build_args[@]}" -t "$IMAGE" . >/dev/null
build_seconds=$((SECONDS - started))
size="$(buildah "${STORAGE[@]}" images --format '{{.Size}}' "$IMAGE" | head -1)"
echo "=== [image] built in ${build_seconds}s, size $size, $(free_mb) MB free after the build"

inspect() { buildah "${STORAGE[@]}" inspect --type image --format "$1" "$IMAGE"; }
[ "$(inspect '{{.Docker.Config.User}}')" = "node" ] || { echo "image smoke: the image does not run as node" >&2; exit 1; }
inspect '{{.Docker.Config.Healthcheck.Test}}' | grep -q '/health' || { echo "image smoke: no HEALTHCHECK on /health" >&2; exit 1; }
inspect '{{.Docker.Config.Volumes}}' | grep -q '/data' || { echo "image smoke: no /data volume" >&2; exit 1; }

ctr="$(buildah "${STORAGE[@]}" from --quiet "$IMAGE")"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid" 2>/dev/null || true; fi
  buildah "${STORAGE[@]}" rm "$ctr" >/dev/null 2>&1 || true
  rm -rf "$work"
  remove_images
}
trap cleanup EXIT

run() { buildah "${STORAGE[@]}" run --isolation chroot "$ctr" -- "$@"; }
[ "$(run id -u)" = "1000" ] || { echo "image smoke: the gateway's user is not uid 1000" >&2; exit 1; }
run node -p 'process.versions.node' | grep -q '^24\.18\.' || { echo "image smoke: node is not 24.18" >&2; exit 1; }

# The image's command, as `docker run` would start it (chroot isolation shares this host's network).
port="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
entrypoint="$(inspect '{{range .Docker.Config.Entrypoint}}{{.}} {{end}}{{range .Docker.Config.Cmd}}{{.}} {{end}}')"
# shellcheck disable=SC2086 # the image's entrypoint and command, word-split as docker does
buildah "${STORAGE[@]}" run --isolation chroot --env "PORT=$port" --env HOST=127.0.0.1 "$ctr" -- $entrypoint \
  >"$work/server.log" 2>&1 &
server_pid=$!
sy="http://127.0.0.1:$port"
# shellcheck source=../lib/first-call.sh
source scripts/lib/first-call.sh
first_call "$sy" "$work/server.log" "$server_pid" "image smoke"
echo "=== [image] first call served from the image (demo/echo, streamed)"
curl -sf "$sy/console/" | grep -q '<div id="app"' || { echo "image smoke: the console is not served from the image" >&2; exit 1; }
echo "=== [image] the console is served at /console/"

# SIGTERM to node, as `docker stop` sends it to the container's PID 1: it finishes and exits 0.
descendants() {
  local child
  for child in $(ps -o pid= --ppid "$1"); do
    echo "$child"
    descendants "$child"
  done
}
node_pid=""
for pid in $(descendants "$server_pid"); do
  # By its command line, not `ps -o comm`: Node 24 names its main thread "MainThread".
  argv0="$(ps -o args= -p "$pid" | awk '{print $1}')"
  if [ "${argv0##*/}" = "node" ]; then node_pid="$pid"; break; fi
done
[ -n "$node_pid" ] || { echo "image smoke: the gateway's node process was not found" >&2; exit 1; }
kill -TERM "$node_pid"
wait "$server_pid"
grep -q 'shutting down' "$work/server.log" || { cat "$work/server.log" >&2; echo "image smoke: no graceful shutdown" >&2; exit 1; }
server_pid=""
echo "=== [image] smoke passed (build ${build_seconds}s, image $size)"
