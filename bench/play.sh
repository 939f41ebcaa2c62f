#!/usr/bin/env bash
# Rules work per move as the server does it (restore the game, read and play
# the move text), for every variant, in coordinate and display notation.
#   bash bench/play.sh          # 100 fixed random games per variant
#   bash bench/play.sh 20       # fewer
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release -p missive-rules --example play_moves -- "$@"
