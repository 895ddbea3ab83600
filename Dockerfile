# Switchyard container image: `docker build -t switchyard .` (or `buildah bud`), then
#   docker run -p 8080:8080 -v switchyard-data:/data switchyard
# The first start on an empty /data prints a management key once (`docker logs`). README, "Deploy".
#
# BASE_IMAGE: Node.js 24 (LTS) on Debian bookworm with node, npm and node's headers under /usr/local
# (the official image's layout). CI, which cannot pull from Docker Hub, builds an equivalent from
# Debian packages (scripts/image/build-base.sh) and passes it with --build-arg. 24.18: later 24.x
# releases abort better-sqlite3 12 when a statement is garbage-collected (scripts/node24.sh).
ARG BASE_IMAGE=node:24.18-bookworm-slim

# --- build stage: dependencies with the native addons compiled, TypeScript, production deps only ---
FROM ${BASE_IMAGE} AS build
# node-gyp compiles better-sqlite3 and re2 when no prebuilt binary can be fetched.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# The headers of the node that runs here, so node-gyp never downloads them.
ENV npm_config_nodedir=/usr/local
COPY package.json package-lock.json ./
# A CA bundle (path inside the build) for networks whose TLS egress is intercepted; unset normally.
ARG EXTRA_CA_CERTS=
# --ignore-scripts: the package's own `prepare` (a build) needs the sources, copied below; the two
# native addons are then built on their own, in a layer that source edits do not invalidate.
RUN if [ -n "$EXTRA_CA_CERTS" ]; then export NODE_EXTRA_CA_CERTS="$EXTRA_CA_CERTS"; fi \
 && npm ci --prefer-offline --no-audit --no-fund --ignore-scripts \
 && npm rebuild better-sqlite3 re2
COPY . .
# The gateway and the web console it serves at /console/ (web/dist), then production deps only.
RUN npx tsc -p tsconfig.json \
 && npm run build:web \
 && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime stage: node, the compiled gateway, its console and production dependencies; no compilers ---
FROM ${BASE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    SWITCHYARD_DATABASE_URL=sqlite:/data/switchyard.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/examples ./examples
# SQLite lives in /data (a volume); the gateway runs as the unprivileged `node` user (uid 1000).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles the signals itself: SIGTERM/SIGINT finish in-flight requests and
# exit, SIGHUP reloads the catalog. It starts no child processes, so nothing needs reaping.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["serve"]
