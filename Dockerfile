# The API and settings pages for any container host. Needs DATABASE_URL (a Postgres server, e.g.
# Supabase's pooler URL); see docs/deploy.md for every variable.
#   docker build -t pds . && docker run -p 3000:3000 -e DATABASE_URL=… -e UPLOAD_SIGNING_SECRET=… pds

FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_OUTPUT=standalone
COPY package.json package-lock.json ./
# No install scripts: the image already has Node 24 (the `node` dev package would fetch another).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN node node_modules/next/dist/bin/next build
# server.ts answers the API itself: it and what it loads join Next's standalone output.
RUN node scripts/trace-server.ts

FROM node:24-bookworm-slim AS run
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 HOST=0.0.0.0 REQUIRE_SERVER_DATABASE=1
# Memory: two malloc arenas and a young generation of 16 MB semi-spaces (scripts/server-runtime.ts).
ENV MALLOC_ARENA_MAX=2
# Next's standalone output plus server.ts, lib/ and registry/, and only the node_modules they load.
COPY --from=build --chown=node:node /app/.next/standalone ./
COPY --from=build --chown=node:node /app/.next/static ./.next/static
COPY --from=build --chown=node:node /app/public ./public
# Read at run time: applied on first use under an advisory lock.
COPY --from=build --chown=node:node /app/supabase/migrations ./supabase/migrations
# The local upload driver's default UPLOADS_DIR: owned by node so that it is writable with a read-only root, and
# a fresh volume mounted here takes this ownership.
RUN mkdir -p /app/.data/uploads && chown -R node:node /app/.data
# Node's compile cache, filled by one start of the server as the image is built (on a throw-away embedded
# database), then the Postgres driver that start does not load: a new container loads its modules compiled
# instead of stripping and compiling each again, about 0.3 s of its first start (scripts/warm-compile-cache.ts).
# /tmp is a tmpfs for that step, so nothing the start writes there stays in the image. Read at run time; a
# read-only root only keeps it from growing.
ENV NODE_COMPILE_CACHE=/app/.compile-cache
RUN mkdir -p /app/.compile-cache && chown node:node /app/.compile-cache
USER node
RUN --mount=type=bind,from=build,source=/app/scripts,target=/opt/warm-scripts --mount=type=tmpfs,target=/tmp \
  NODE_DISABLE_COMPILE_CACHE=1 node /opt/warm-scripts/warm-compile-cache.ts server.ts lib/db/server-driver.ts
EXPOSE 3000
# Kept only in Docker's image format: build with `--format docker` under podman/buildah (docs/deploy.md), or use
# compose.yaml's healthcheck. It probes the address the server binds (HOST), loopback when that is all interfaces.
HEALTHCHECK --interval=30s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "const h = process.env.HOST || ''; const a = !h || h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h.includes(':') ? '[' + h + ']' : h; fetch('http://' + a + ':' + (process.env.PORT || 3000) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=50", "--no-wasm-code-gc", "server.ts"]
