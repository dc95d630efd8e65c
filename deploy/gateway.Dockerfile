# syntax=docker/dockerfile:1
# The gateway image: the gateway's sources plus the built frontend it serves (FRONTEND_DIST).
#   docker build -f deploy/gateway.Dockerfile .
# Needs BuildKit with Dockerfile syntax >= 1.20 (COPY --parents); the line above fetches it.

# Every workspace manifest and the lockfile: the only inputs of the two installs below, so
# they are rebuilt only when a package.json or the lockfile changes.
FROM node:24-slim AS manifests
WORKDIR /app
COPY --parents package.json package-lock.json packages/*/package.json gateway/package.json services/*/package.json frontend/package.json ./

# Production dependencies of the gateway (+ packages/* it links). --ignore-scripts: the root
# `prepare` script must not run here.
FROM manifests AS deps
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      --workspace gateway --include-workspace-root=false

# The frontend build: full install (Vite is a dev dependency), then `vite build`. It reads the
# committed packages/contracts/generated/openapi.json and the generated RTK Query client.
FROM manifests AS frontend
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ ./packages/
COPY frontend/ ./frontend/
RUN npm run build --workspace frontend

# Runtime.
FROM node:24-slim AS runtime
ARG PORT=8080
LABEL org.opencontainers.image.title="crv-training-gateway" \
      org.opencontainers.image.licenses="GPL-3.0-or-later"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT} \
    FRONTEND_DIST=/app/frontend/dist
WORKDIR /app
COPY --from=deps /app ./
COPY packages/ ./packages/
COPY gateway/ ./gateway/
COPY --from=frontend /app/frontend/dist ./frontend/dist
WORKDIR /app/gateway
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "src/server.ts"]
