#!/usr/bin/env bash
# The outbox drain rate (formerly `missive mail-bench`): queue --count
# mails, drain them with --workers workers (each its own SMTP connection and
# lease name) into an SMTP sink on 127.0.0.1, over a scratch SQLite file or
# the database --database-url names; prints mails/second (release build).
#   bash bench/mail.sh                          # 2,000 mails, 1 worker
#   bash bench/mail.sh --count 5000 --workers 4
#   bash bench/mail.sh --database-url postgres://postgres@127.0.0.1/bench_db
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench mail -- "$@"
