# Qhorus channel service. Build: `docker build -t qhorus .`; run with Postgres and Redis:
# `docker compose up` (docker-compose.yml). Without DATABASE_URL it runs on the embedded
# Postgres (PGlite) under /data, and without REDIS_URL it runs summary jobs in process.

# ---- build: install everything, compile, then drop the dev dependencies ------------------------
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm workspaces (the @qhorus/* packages): npm ci needs each workspace's package.json.
COPY libs/qhorus-api/package.json libs/qhorus-api/
COPY libs/blocks-summarisation/package.json libs/blocks-summarisation/
COPY libs/blocks-channel-summary/package.json libs/blocks-channel-summary/
COPY libs/qhorus-client/package.json libs/qhorus-client/
COPY libs/qhorus-langchain/package.json libs/qhorus-langchain/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps ./apps
COPY libs ./libs
COPY migrations ./migrations
COPY examples ./examples
RUN npx nest build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: compiled output and production dependencies only, as the unprivileged `node` user -
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    QHORUS_DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The data dir holds the embedded database and the generated admin token (when
# QHORUS_ADMIN_TOKEN is unset): `docker compose exec qhorus cat /data/admin-token`.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Readiness: Postgres and the queue's store answer (see /health). Node's fetch: no curl needed.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrations run at start-up. SIGTERM drains summary jobs before exit (QHORUS_SHUTDOWN_TIMEOUT_MS).
CMD ["node", "dist/apps/channel-service/src/main.js"]
