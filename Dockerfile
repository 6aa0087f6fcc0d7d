# The app server's image: one process, `node build/node/server.js`, configured by the environment (README,
# "Configuration"). docs/deployment.md shows it in its place: PostgreSQL behind PgBouncer, several of these behind
# a balancer, uploads in an S3-compatible bucket.
#
#   docker build -t ek-chhat .
#   docker run -e DATABASE_URL=... -e STORAGE=s3 -e S3_BUCKET=... -p 3000:3000 ek-chhat

FROM node:20-bookworm-slim AS build
WORKDIR /app
# React Router and React DOM carry patches of ours (patches/, decision 037): npm ci applies them after installing
# (patch-package, a development dependency; `npm prune` below keeps the patched files).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
# What `npm start` sets (decisions 014, 032 and 045): glibc's allocator and V8's heap bounded, so that the server
# stays near 300 MB resident; HOST so that the balancer can reach the container. `docker run -e NODE_OPTIONS=...`
# replaces the V8 flags (keep them in it).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    NODE_OPTIONS="--max-semi-space-size=16 --max-old-space-size=512"
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server ./server
COPY --from=build /app/shared ./shared
# The embedded database and local files, for a single container without DATABASE_URL and STORAGE=s3.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains the requests in flight (SHUTDOWN_TIMEOUT_SECONDS, 25 by default): give the container longer
# than that to stop (`docker stop -t 30`, compose's stop_grace_period).
CMD ["node", "--enable-source-maps", "build/node/server.js"]
