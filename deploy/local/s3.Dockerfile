# A stand-in for MinIO built without a registry: s3rver, the S3-compatible server from npm that the
# project's storage tests use, on the local Node base. It speaks the S3 REST API (path style) and
# checks the signatures of the one key pair it is given (the app's).
ARG BASE_IMAGE=localhost/crv-node:24
FROM ${BASE_IMAGE}
ARG S3RVER_VERSION=3.7.1
# A CA bundle for a TLS-inspecting proxy between the build and the npm registry, if there is one:
# the path where the build mounts it (scripts/test-deploy.ts does, from NODE_EXTRA_CA_CERTS). An
# ARG is seen by this stage's RUN steps and is not kept in the image's environment.
ARG NODE_EXTRA_CA_CERTS=
WORKDIR /srv
RUN npm install --no-save --no-audit --no-fund --ignore-scripts "s3rver@${S3RVER_VERSION}" \
    && install -d -o node -g node /data
COPY s3-server.mjs s3-init.mjs ./
USER node
EXPOSE 9000
CMD ["node", "s3-server.mjs"]
