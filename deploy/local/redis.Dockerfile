# A stand-in for redis:7 built without a registry: Debian's Redis (7.0 in bookworm), run as the
# `redis` user with its data in /data, like the official image.
ARG DEBIAN_BASE=localhost/crv-debian:bookworm-min
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o redis -g redis -m 750 /data
WORKDIR /data
USER redis
EXPOSE 6379
# The official image turns protected mode off when it runs without a configuration file: the
# stack's private network is the protection. Debian's defaults would refuse every other container.
ENTRYPOINT ["/bin/sh", "-c", "exec \"$@\" --protected-mode no", "redis"]
CMD ["redis-server"]
