#!/usr/bin/env bash
# HTTP load benchmark: the release server on 127.0.0.1 under 64 keep-alive
# connections; trivial handler, raw SQLite transactions, move POST and game
# page (each view by a player of its own after the opponent's move) on SQLite
# and PostgreSQL (its Unix socket, or MISSIVE_BENCH_POSTGRES_URL), and for
# scale /healthz in the page's place after each move (*-floor), then the
# ratios against the targets.
#   bash bench/http.sh                 # 3 s per case
#   bash bench/http.sh --secs 20       # longer runs
#   bash bench/http.sh --conns 16 --workers 2 --pool 4
#   bash bench/http.sh --only trivial,sqlite-page   # some cases only
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench http -- "$@"
