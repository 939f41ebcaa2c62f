#!/usr/bin/env bash
# Perft speed of every variant (start position and a middlegame position),
# next to reference engines' own perft on the same machine, all as CPU time
# (user + system, best of two runs, start-up subtracted for the engines):
# - Fairy-Stockfish's WebAssembly build (npm package fairy-stockfish-nnue.wasm,
#   installed here on first use) where it knows the variant; a native build
#   is faster, so read those figures as a lower bound for it;
# - native Stockfish from Debian's `stockfish` package (installed here with
#   apt-get when missing) for the chess rows;
# - optionally native Fairy-Stockfish builds made outside this repository:
#   FSF_NATIVE=/path/to/stockfish (its 8x8 build) and FSF_LARGE=/path/to/
#   stockfish (largeboards=yes) add a column each.
#   bash bench/perft.sh            # all rows
#   QUICK=1 bash bench/perft.sh    # one ply shallower
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/missive
shallower=${QUICK:+1}; shallower=${shallower:-0}

if command -v node >/dev/null && [ ! -d bench/node_modules/fairy-stockfish-nnue.wasm ]; then
  (cd bench && npm install --no-save --silent fairy-stockfish-nnue.wasm@1.1.12 >/dev/null 2>&1) || echo "(could not install Fairy-Stockfish wasm; its rows are skipped)"
fi
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
if [ ! -x "$stockfish" ]; then
  { apt-get install -y -qq stockfish >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq stockfish >/dev/null 2>&1; }; } ||
    echo "(could not install Debian's stockfish; its column is empty)"
fi

# CPU seconds (user + system) that the command given takes, best of two.
cpu_best_of_two() {
  local best="" t
  for _ in 1 2; do
    t=$( { TIMEFORMAT='%3U %3S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$t; fi
  done
  echo "$best"
}

# A UCI engine's perft: ENGINE VARIANT(- for none) DEPTH FEN(- for start) INI(empty for none).
uci_perft() {
  local engine=$1 variant=$2 depth=$3 fen=$4 ini=$5
  {
    [ -n "$ini" ] && echo "setoption name VariantPath value $(realpath "$ini")"
    [ "$variant" != "-" ] && echo "setoption name UCI_Variant value $variant"
    if [ "$fen" = "-" ]; then echo "position startpos"; else echo "position fen $fen"; fi
    echo "go perft $depth"
  } | "$engine" 2>/dev/null | sed -n 's/^Nodes searched: //p'
}

# nodes/s of a UCI engine on a row, "(nodes:N!)" appended if its count differs.
uci_nps() {
  local engine=$1 variant=$2 depth=$3 fen=$4 ini=$5 nodes=$6 theirs cpu idle
  theirs=$(uci_perft "$engine" "$variant" "$depth" "$fen" "$ini")
  [ -z "$theirs" ] && { echo "-"; return; }
  cpu=$(cpu_best_of_two uci_perft "$engine" "$variant" "$depth" "$fen" "$ini")
  idle=$(cpu_best_of_two uci_perft "$engine" "$variant" 1 "$fen" "$ini")
  awk -v n="$theirs" -v c="$cpu" -v i="$idle" -v ours="$nodes" 'BEGIN {
    s = c - i; if (s < 0.001) s = 0.001
    printf "%.0f%s", n / s, (n == ours ? "" : "(nodes:" n "!)") }'
}

# variant | depth | FEN ("-" = start) | Fairy-Stockfish variant name ("-" = none) | FSF ini
rows=(
  "chess|6|-|chess|"
  "chess|5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|chess|"
)
[ -f bench/perft-rows.txt ] && while IFS= read -r line; do [ -n "$line" ] && [ "${line:0:1}" != "#" ] && rows+=("$line"); done < bench/perft-rows.txt

printf '%-20s %-5s %-11s %-12s %-12s %-13s %-12s %-12s %s\n' variant depth nodes missive_n/s fsf_wasm_n/s stockfish_n/s fsf_native fsf_large position
for row in "${rows[@]}"; do
  IFS='|' read -r variant depth fen fsf ini <<<"$row"
  depth=$((depth - shallower))
  fenargs=(); [ "$fen" != "-" ] && fenargs=(--fen "$fen")
  if ! "$bin" variants | cut -f1 | grep -qx "$variant"; then continue; fi
  nodes=$("$bin" perft "$variant" "$depth" "${fenargs[@]}")
  cpu=$(cpu_best_of_two "$bin" perft "$variant" "$depth" "${fenargs[@]}")
  nps=$(awk -v n="$nodes" -v c="$cpu" 'BEGIN {if (c < 0.001) c = 0.001; printf "%.0f", n / c}')
  fsfnps="-"
  if [ "$fsf" != "-" ] && [ -d bench/node_modules/fairy-stockfish-nnue.wasm ]; then
    fsfout=$(timeout 600 node --no-experimental-fetch bench/fsf_perft.js "$fsf" "$depth" "${fen/#-/}" ${ini:+"$ini"} 2>/dev/null | grep '^fsf-wasm' || true)
    fsfnodes=$(sed -E 's/.*: ([0-9]+) nodes.*/\1/' <<<"$fsfout")
    fsfnps=$(sed -E 's/.*= ([0-9]+) nodes\/s.*/\1/' <<<"$fsfout")
    [ -n "$fsfout" ] && [ "$fsfnodes" != "$nodes" ] && fsfnps="$fsfnps(nodes:$fsfnodes!)"
  fi
  sfnps="-"
  if [ "$variant" = "chess" ] && [ -x "$stockfish" ]; then
    sfnps=$(uci_nps "$stockfish" - "$depth" "$fen" "" "$nodes")
  fi
  native="-"; large="-"
  if [ "$fsf" != "-" ]; then
    [ -n "${FSF_NATIVE:-}" ] && native=$(uci_nps "$FSF_NATIVE" "$fsf" "$depth" "$fen" "$ini" "$nodes")
    [ -n "${FSF_LARGE:-}" ] && large=$(uci_nps "$FSF_LARGE" "$fsf" "$depth" "$fen" "$ini" "$nodes")
  fi
  printf '%-20s %-5s %-11s %-12s %-12s %-13s %-12s %-12s %s\n' "$variant" "$depth" "$nodes" "$nps" "${fsfnps:--}" "$sfnps" "$native" "$large" "${fen:0:40}"
done
