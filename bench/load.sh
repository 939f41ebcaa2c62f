#!/usr/bin/env bash
# Mixed load on a populated database (issue 65): `missive dev populate`
# makes the database once (kept in $MISSIVE_LOAD_DIR, default target/load,
# and on PostgreSQL as database ${MISSIVE_LOAD_DB_PREFIX:-missive_load}_GAMES),
# then benches/load.rs starts the release server on it as a process of its
# own and plays --players players at once, each with a session of their
# own, for --secs seconds: per page kind p50/p95/p99 latency, throughput,
# refusals, and the server's CPU per request (PostgreSQL's too). Five
# seconds in, a backup is taken while the load goes on (`missive backup` on
# SQLite, `pg_dump -Fc` on PostgreSQL, into $MISSIVE_LOAD_DIR, deleted
# after): its time, size, and the moves made meanwhile (--no-backup: none).
#   bash bench/load.sh                          # 10,000 games, both backends
#   bash bench/load.sh --games 100000 --secs 30
#   bash bench/load.sh --only sqlite --players 16
#   bash bench/load.sh --rate 300      # an open loop: 300 requests/s offered
# By default each player asks again as soon as answered (a closed loop: the
# machine's most, latency then mostly queueing); with --rate R the players
# send R requests a second between them at random moments (an open loop, as
# independent players do), and a request's latency counts from when it was
# due, so a server that falls behind shows it.
# PostgreSQL is reached over its Unix socket ($MISSIVE_LOAD_PG_HOST, default
# /var/run/postgresql) as $MISSIVE_LOAD_PG_USER (default postgres). A run
# plays moves, so the database it leaves has a few more; delete the file or
# drop the database to start again from the generated one.
set -euo pipefail
cd "$(dirname "$0")/.."
games=10000 players=32 secs=20 only=sqlite,postgres workers=0 backup=1 rate=0
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --players) players=$2; shift 2 ;;
    --secs) secs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --workers) workers=$2; shift 2 ;;
    --no-backup) backup=0; shift ;;
    --rate) rate=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
dir=${MISSIVE_LOAD_DIR:-target/load}
pg_host=${MISSIVE_LOAD_PG_HOST:-/var/run/postgresql}
pg_user=${MISSIVE_LOAD_PG_USER:-postgres}
prefix=${MISSIVE_LOAD_DB_PREFIX:-missive_load}
# The population's shape: a player for every ten games, a tournament for
# every 2,000 (at most 500).
people=$(( games / 10 > 100 ? games / 10 : 100 ))
cups=$(( games / 2000 < 5 ? 5 : (games / 2000 > 500 ? 500 : games / 2000) ))
cargo build --release --quiet --bin missive
mkdir -p "$dir"
populate() {
  DATABASE_URL="$1" target/release/missive dev populate \
    --players "$people" --games "$games" --tournaments "$cups"
}
for backend in ${only//,/ }; do
  case "$backend" in
    sqlite)
      url="$dir/load-$games.db"
      [ -f "$url" ] || populate "$url" ;;
    postgres)
      db="${prefix}_$games"
      url="postgres://$pg_user@localhost/$db?host=$pg_host"
      if ! psql -h "$pg_host" -U "$pg_user" -Atc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
        psql -h "$pg_host" -U "$pg_user" -qc "CREATE DATABASE $db"
        populate "$url"
      fi ;;
    *) echo "unknown backend: $backend" >&2; exit 2 ;;
  esac
  backup_args=()
  [ "$backup" = 1 ] && backup_args=(--backup-dir "$dir")
  cargo bench --quiet --bench load -- --database-url "$url" \
    --server target/release/missive --secs "$secs" --players "$players" --workers "$workers" --rate "$rate" \
    "${backup_args[@]}"
done
