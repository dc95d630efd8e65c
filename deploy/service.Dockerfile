# syntax=docker/dockerfile:1
# One image per backend service, chosen at build time:
#   docker build -f deploy/service.Dockerfile --build-arg SERVICE=auth --build-arg PORT=8081 .
# SERVICE is a folder under services/ (auth, descriptors, media, ai, astro). The ai image also
# runs the speech workers (`node src/worker.ts`, the compose service ai-worker).
# Needs BuildKit with Dockerfile syntax >= 1.20 (COPY --parents); the line above fetches it.

# Stage 1: production dependencies of one workspace (+ packages/* it links), from the lockfile.
# Only the manifests are copied, so this layer is rebuilt only when a package.json or the
# lockfile changes. --ignore-scripts: the root `prepare` script must not run here.
FROM node:24-slim AS deps
ARG SERVICE
WORKDIR /app
COPY --parents package.json package-lock.json packages/*/package.json gateway/package.json services/*/package.json frontend/package.json ./
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    test -n "${SERVICE}" && test -f "services/${SERVICE}/package.json" \
    && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
       --workspace "services/${SERVICE}" --include-workspace-root=false

# Stage 2: runtime. Sources run as they are (Node 24 strips the types); no compile step.
FROM node:24-slim AS runtime
ARG SERVICE
ARG PORT=8081
LABEL org.opencontainers.image.title="crv-training-${SERVICE}" \
      org.opencontainers.image.licenses="GPL-3.0-or-later"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT}
WORKDIR /app
COPY --from=deps /app ./
COPY packages/ ./packages/
COPY services/${SERVICE}/ ./services/${SERVICE}/
# The vocabulary files: descriptors seeds them; ai reads them for example sentences' parts of speech.
COPY services/descriptors/data/ ./services/descriptors/data/
WORKDIR /app/services/${SERVICE}
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
CMD ["node", "--optimize-for-size", "src/server.ts"]
