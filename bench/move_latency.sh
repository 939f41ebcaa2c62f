#!/usr/bin/env bash
# Issue 9's benchmark: move POST latency (p50/p99/max) while the mail
# worker sends each turn's mail to an SMTP sink on 127.0.0.1 that answers,
# and to one that accepts connections and never answers (release build).
#   bash bench/move_latency.sh              # 200 moves per case
#   MOVES=1000 bash bench/move_latency.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench move_latency
