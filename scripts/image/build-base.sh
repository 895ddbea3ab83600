#!/usr/bin/env bash
# Builds an equivalent of node:24.18-bookworm-slim from Debian packages, for machines that cannot
# pull from Docker Hub (CI): `debootstrap --variant=minbase bookworm`, plus Node.js 24 (this
# machine's when it is 24.18, else the one scripts/node24.sh fetches from the npm registry: binary and
# headers) and this machine's npm, laid out as in the official image (/usr/local), and a `node`
# user with uid 1000. Prints the image name; pass it as --build-arg BASE_IMAGE=<name>.
#
# The root filesystem is cached in $SWITCHYARD_IMAGE_CACHE (default /var/tmp/switchyard-image-cache)
# so repeated local runs skip debootstrap. Needs root, buildah and debootstrap.
set -euo pipefail

IMAGE=localhost/switchyard-base:node24.18-bookworm-slim
CACHE="${SWITCHYARD_IMAGE_CACHE:-/var/tmp/switchyard-image-cache}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
STORAGE=(--storage-driver vfs)

npm_dir="$(dirname "$(readlink -f "$(command -v npm)")")/.."
npm_dir="$(readlink -f "$npm_dir")"
if [ "$(node -p 'process.versions.node.split(".").slice(0, 2).join(".")')" = "24.18" ]; then
  node_bin="$(command -v node)"
  node_prefix="$(node -p 'process.config.variables.node_prefix')"
else
  node_prefix="$(bash "$(dirname "${BASH_SOURCE[0]}")/../node24.sh")"
  node_bin="$node_prefix/bin/node"
fi
"$node_bin" -p 'process.versions.node' | grep -q '^24\.18\.' || { echo "build-base: $node_bin is not Node.js 24.18" >&2; exit 1; }
headers=""
for dir in "$node_prefix/include/node" /usr/include/node /usr/local/include/node; do
  if [ -f "$dir/node.h" ]; then headers="$dir"; break; fi
done
if [ -z "$headers" ]; then
  echo "build-base: node's headers (node.h) not found; install them with node" >&2
  exit 1
fi

rootfs="$CACHE/bookworm-minbase"
if [ ! -f "$rootfs/.complete" ]; then
  rm -rf "$rootfs"
  mkdir -p "$CACHE"
  debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
  # As in Debian's official images: no apt caches, no docs.
  chroot "$rootfs" apt-get clean
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
  touch "$rootfs/.complete"
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/usr/local/bin" "$stage/usr/local/lib/node_modules" "$stage/usr/local/include"
cp "$node_bin" "$stage/usr/local/bin/node"
cp -a "$npm_dir" "$stage/usr/local/lib/node_modules/npm"
cp -a "$headers" "$stage/usr/local/include/node"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"

ctr="$(buildah "${STORAGE[@]}" from scratch)"
cleanup() { buildah "${STORAGE[@]}" rm "$ctr" >/dev/null 2>&1 || true; rm -rf "$stage"; }
trap cleanup EXIT
mnt="$(buildah "${STORAGE[@]}" mount "$ctr")"
cp -a "$rootfs/." "$mnt/"
rm -f "$mnt/.complete"
cp -a "$stage/usr/local/." "$mnt/usr/local/"
chroot "$mnt" groupadd --gid 1000 node
chroot "$mnt" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
buildah "${STORAGE[@]}" umount "$ctr" >/dev/null
buildah "${STORAGE[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env "NODE_VERSION=$("$node_bin" -p 'process.versions.node')" --cmd node "$ctr"
buildah "${STORAGE[@]}" commit --quiet "$ctr" "$IMAGE" >/dev/null
echo "$IMAGE"
