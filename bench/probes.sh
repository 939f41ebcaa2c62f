#!/usr/bin/env bash
# Measurements run by hand (benches/probes.rs), in a release build:
#   bash bench/probes.sh sweep                 clock sweep over 2,000 games
#   bash bench/probes.sh standings             a 46-player round robin's page data
#   bash bench/probes.sh forgot_timing         /password/forgot, known against unknown
#   bash bench/probes.sh backup                a backup under a longer load
#   bash bench/probes.sh exports_while_checks  PGN exports while record checks loop
#                                              (MISSIVE_MEASURE_BIN=other/missive to compare)
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench probes -- "$@"
