#!/bin/sh
# Run once by the postgres image when it creates its database (/docker-entrypoint-initdb.d):
# lets a streaming replica on the compose network (`--profile cluster`, service postgres-replica)
# take a base backup and stream, with the same password as the service. See docs/deploy.md.
set -eu
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
