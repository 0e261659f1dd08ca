#!/bin/sh
# The image's entrypoint: prepare what every process needs, then run the command given.
set -eu

# Prometheus multiprocess mode: each process writes its samples there. Start from an empty
# directory, so a restarted container does not add up the samples of its previous run.
if [ -n "${PROMETHEUS_MULTIPROC_DIR:-}" ]; then
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    rm -f "$PROMETHEUS_MULTIPROC_DIR"/*.db
fi

exec "$@"
