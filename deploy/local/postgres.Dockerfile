# A stand-in for postgres:17 built without a registry: Debian's PostgreSQL (15 in bookworm) with
# the parts of the official image's interface the compose file uses: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB create the role and database on the first start, the data
# lives in /var/lib/postgresql/data, and the server runs as the `postgres` user.
ARG DEBIAN_BASE=localhost/crv-debian:bookworm-min
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/* \
    && install -d -o postgres -g postgres -m 700 /var/lib/postgresql/data \
    && install -d -o postgres -g postgres -m 2775 /var/run/postgresql
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
USER postgres
EXPOSE 5432
ENTRYPOINT ["/bin/sh", "/usr/local/bin/postgres-entrypoint.sh"]
CMD ["postgres"]
