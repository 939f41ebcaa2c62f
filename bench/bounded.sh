#!/usr/bin/env bash
# Issue 37's benchmark: record-check time for a 1,000-8,000-ply Leaperhouse
# Knight-shuffle record, export times for a 10- and a 2,000-ply game, and
# another game's JSON p50/p99 under ten concurrent exports (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench bounded
