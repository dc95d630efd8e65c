# syntax=docker/dockerfile:1
# One image per backend service, chosen at build time:
#   docker build -f deploy/service.Dockerfile --build-arg SERVICE=auth --build-arg PORT=8081 .
# SERVICE is a folder under services/ (auth, descriptors, media, ai, astro). The ai image also
# runs the speech workers (`node src/worker.ts`, the compose service ai-worker).
# Builds with BuildKit (the cache mounts) and with Podman/Buildah (scripts/test-deploy.ts).

# The base image: node:24-slim, or any image with Node 24, npm and a `node` user (the deploy test
# builds one from Debian's packages and the project's pinned Node, deploy/local/node.Dockerfile).
ARG BASE_IMAGE=node:24-slim

# Stage 1: production dependencies of one workspace (+ packages/* it links), from the lockfile.
# Only the manifests are copied, so this layer is rebuilt only when a package.json or the
# lockfile changes. --ignore-scripts: the root `prepare` script must not run here.
FROM ${BASE_IMAGE} AS deps
ARG SERVICE
# A CA bundle for a TLS-inspecting proxy between the build and the npm registry, if there is one:
# the path where the build mounts it (scripts/test-deploy.ts does, from NODE_EXTRA_CA_CERTS). An
# ARG is seen by this stage's RUN steps only and stays out of the runtime image.
ARG NODE_EXTRA_CA_CERTS=
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
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    test -n "${SERVICE}" && test -f "services/${SERVICE}/package.json" \
    && npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
       --workspace "services/${SERVICE}" --include-workspace-root=false

# Stage 2: runtime. Sources run as they are (Node 24 strips the types); no compile step.
# It starts from the install stage, whose /app is the manifests and node_modules, instead of
# copying that over a fresh base: the same files, and Buildah reuses the stage from its cache
# where it would copy node_modules again on every build (it does not cache COPY --from).
FROM deps AS runtime
ARG SERVICE
ARG PORT=8081
LABEL org.opencontainers.image.title="crv-training-${SERVICE}" \
      org.opencontainers.image.licenses="GPL-3.0-or-later"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=${PORT}
WORKDIR /app
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
