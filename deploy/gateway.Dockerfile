# syntax=docker/dockerfile:1
# The gateway image: the gateway's sources plus the built frontend it serves (FRONTEND_DIST).
#   docker build -f deploy/gateway.Dockerfile .
# Builds with BuildKit (the cache mounts) and with Podman/Buildah (scripts/test-deploy.ts).

# The base image: node:24-slim, or any image with Node 24, npm and a `node` user (the deploy test
# builds one from Debian's packages and the project's pinned Node, deploy/local/node.Dockerfile).
ARG BASE_IMAGE=node:24-slim

# Every workspace manifest and the lockfile: the only inputs of the two installs below, so
# they are rebuilt only when a package.json or the lockfile changes.
FROM ${BASE_IMAGE} AS manifests
WORKDIR /app
# Every workspace's manifest, one line each (COPY --parents would need Dockerfile syntax 1.20,
# which Buildah lacks); test/deploy.test.ts fails when a workspace is missing here.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json ./packages/contracts/
COPY packages/kit/package.json ./packages/kit/
COPY gateway/package.json ./gateway/
COPY frontend/package.json ./frontend/
COPY services/ai/package.json ./services/ai/
COPY services/astro/package.json ./services/astro/
COPY services/auth/package.json ./services/auth/
COPY services/descriptors/package.json ./services/descriptors/
COPY services/media/package.json ./services/media/
COPY services/practice/package.json ./services/practice/

# Production dependencies of the gateway (+ packages/* it links). --ignore-scripts: the root
# `prepare` script must not run here. NODE_EXTRA_CA_CERTS (both installs): a CA bundle for a
# TLS-inspecting proxy between the build and the npm registry, if there is one, at the path where
# the build mounts it (scripts/test-deploy.ts does); an ARG stays out of the runtime image.
FROM manifests AS deps
ARG NODE_EXTRA_CA_CERTS=
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
      --workspace gateway --include-workspace-root=false

# The frontend build: full install (Vite is a dev dependency), then `vite build`. It reads the
# committed packages/contracts/generated/openapi.json and the generated RTK Query client.
FROM manifests AS frontend
ARG NODE_EXTRA_CA_CERTS=
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/ ./packages/
COPY frontend/ ./frontend/
RUN npm run build --workspace frontend

# Runtime.
# It starts from the install stage, whose /app is the manifests and node_modules, instead of
# copying that over a fresh base: the same files, and Buildah reuses the stage from its cache
# where it would copy node_modules again on every build (it does not cache COPY --from).
FROM deps AS runtime
ARG PORT=8080
LABEL org.opencontainers.image.title="crv-training-gateway" \
      org.opencontainers.image.licenses="GPL-3.0-or-later"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT} \
    FRONTEND_DIST=/app/frontend/dist
WORKDIR /app
COPY packages/ ./packages/
COPY gateway/ ./gateway/
COPY --from=frontend /app/frontend/dist ./frontend/dist
WORKDIR /app/gateway
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "src/server.ts"]
