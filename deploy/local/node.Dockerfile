# A stand-in for node:24-slim built without a registry: a Debian base plus the Node binary the
# project pins (the npm `node` package in node_modules) and npm from the npm registry.
#   scripts/test-deploy.ts builds it; the build context holds only the `node` binary.
# DEBIAN_BASE is a `debootstrap --variant=minbase bookworm` root imported as an image.
ARG DEBIAN_BASE=localhost/crv-debian:bookworm-min
FROM ${DEBIAN_BASE}
ARG NPM_VERSION=11.6.2
# A CA bundle for a TLS-inspecting proxy between the build and the npm registry, if there is one:
# the path where the build mounts it (scripts/test-deploy.ts does, from NODE_EXTRA_CA_CERTS). An
# ARG is seen by this stage's RUN steps and is not kept in the image's environment.
ARG NODE_EXTRA_CA_CERTS=
# The `node` user of the official image (uid and gid 1000), which the app images switch to.
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/sh --create-home node
COPY node /usr/local/bin/node
# npm's tarball bundles its dependencies; node fetches it (the base has neither curl nor npm).
RUN node -e "fetch('https://registry.npmjs.org/npm/-/npm-' + process.argv[1] + '.tgz').then(async (r) => { if (!r.ok) throw new Error('npm tarball: ' + r.status); require('fs').writeFileSync('/tmp/npm.tgz', Buffer.from(await r.arrayBuffer())) })" "${NPM_VERSION}" \
    && mkdir -p /usr/local/lib/node_modules/npm \
    && tar -xzf /tmp/npm.tgz -C /usr/local/lib/node_modules/npm --strip-components=1 \
    && rm /tmp/npm.tgz \
    && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && node --version && npm --version
CMD ["node"]
