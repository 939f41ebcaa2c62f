#!/usr/bin/env bash
# Issue 11's benchmark: page times of a 1,000-ply game against a 10-ply game
# (game page, a ply in the past, all moves, PGN export; release build).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench --quiet --bench records
