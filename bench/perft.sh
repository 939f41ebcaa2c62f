#!/usr/bin/env bash
# Perft speed of every variant (start position and a middlegame position),
# next to Fairy-Stockfish's own perft where it knows the variant.
# Fairy-Stockfish runs as its WebAssembly build (npm package
# fairy-stockfish-nnue.wasm, installed here on first use); a native build is
# faster than that, so read those figures as a lower bound for it.
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

# variant | depth | FEN ("-" = start) | Fairy-Stockfish variant name ("-" = none) | FSF ini
rows=(
  "chess|6|-|chess|"
  "chess|5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|chess|"
)
[ -f bench/perft-rows.txt ] && while IFS= read -r line; do [ -n "$line" ] && [ "${line:0:1}" != "#" ] && rows+=("$line"); done < bench/perft-rows.txt

printf '%-22s %-6s %-14s %-14s %-16s %s\n' variant depth nodes missive_n/s fsf_wasm_n/s position
for row in "${rows[@]}"; do
  IFS='|' read -r variant depth fen fsf ini <<<"$row"
  depth=$((depth - shallower))
  fenargs=(); [ "$fen" != "-" ] && fenargs=(--fen "$fen")
  if ! "$bin" variants | cut -f1 | grep -qx "$variant"; then continue; fi
  out=$("$bin" perft "$variant" "$depth" "${fenargs[@]}" --bench 2>&1 >/dev/null)
  nodes=$(sed -E 's/.*: ([0-9]+) nodes.*/\1/' <<<"$out")
  nps=$(sed -E 's/.*= ([0-9]+) nodes\/s.*/\1/' <<<"$out")
  fsfnps="-"
  if [ "$fsf" != "-" ] && [ -d bench/node_modules/fairy-stockfish-nnue.wasm ]; then
    fsfout=$(timeout 600 node --no-experimental-fetch bench/fsf_perft.js "$fsf" "$depth" "${fen/#-/}" ${ini:+"$ini"} 2>/dev/null | grep '^fsf-wasm' || true)
    fsfnodes=$(sed -E 's/.*: ([0-9]+) nodes.*/\1/' <<<"$fsfout")
    fsfnps=$(sed -E 's/.*= ([0-9]+) nodes\/s.*/\1/' <<<"$fsfout")
    [ -n "$fsfout" ] && [ "$fsfnodes" != "$nodes" ] && fsfnps="$fsfnps(nodes:$fsfnodes!)"
  fi
  printf '%-22s %-6s %-14s %-14s %-16s %s\n' "$variant" "$depth" "$nodes" "$nps" "${fsfnps:--}" "${fen:0:40}"
done
