#!/usr/bin/env bash
# Fuzz with cargo fuzz (libFuzzer): every variant's move parser, FEN parser,
# parse-then-play from random positions, the record reader; and the server's
# readers of untrusted bodies: Xfcc calls (xfcc_reader) and replies by mail
# (mail_in_reader).
#   bash bench/fuzz.sh            # 60 s per target
#   bash bench/fuzz.sh 300        # 300 s per target
#   TARGETS="fen_parser" bash bench/fuzz.sh 30
# Corpora grow in fuzz/corpus/<target>/ (not in git; fuzz/seeds/ is), crashes
# land in fuzz/artifacts/<target>/. Keep a crash as a regression test by
# copying it to rules/tests/fuzz-regressions/<target>/ (see docs/testing.md).
# Exits 1 when a target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
case "$secs" in ''|*[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2;; esac

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz from crates.io..."
  cargo install cargo-fuzz --locked --quiet
fi
# libFuzzer's instrumentation needs nightly flags; the stable compiler takes
# them with RUSTC_BOOTSTRAP=1 (no nightly toolchain is needed).
export RUSTC_BOOTSTRAP=1

# The rules crate has no unsafe code, so AddressSanitizer finds nothing there
# and halves the speed; SANITIZER=address turns it back on.
san=${SANITIZER:-none}
flags=(--release --debug-assertions --sanitizer "$san")

targets=${TARGETS:-$(cd fuzz && cargo fuzz list)}
echo "building fuzz targets..."
for t in $targets; do
  (cd fuzz && cargo fuzz build "${flags[@]}" "$t" 2>&1 | grep -E '^(error|warning)' || true)
done

found=0
printf '%-18s %-8s %-10s %-8s %-8s %s\n' target seconds runs exec/s cov findings
for t in $targets; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t" "fuzz/seeds/$t"
  before=$(ls "fuzz/artifacts/$t" | wc -l)
  log="fuzz/artifacts/$t.log"
  status=0
  # -fork is not used: on a shared 2-core machine one process per target
  # keeps the run bounded and its figures comparable.
  (cd fuzz && cargo fuzz run "${flags[@]}" "$t" "corpus/$t" "seeds/$t" -- \
      -max_total_time="$secs" -dict=notation.dict -max_len=512 -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1) >"$log" 2>&1 || status=$?
  runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  eps=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+')
  after=$(ls "fuzz/artifacts/$t" | wc -l)
  findings=$((after - before))
  printf '%-18s %-8s %-10s %-8s %-8s %s\n' "$t" "$secs" "${runs:-?}" "${eps:-?}" "${cov:-?}" "$findings"
  if [ "$status" -ne 0 ] || [ "$findings" -gt 0 ]; then
    found=1
    echo "  $t stopped with status $status; log: $log"
    grep -E '^(thread .* panicked|==[0-9]+==ERROR|SUMMARY|.*panicked at)' "$log" | head -5 | sed 's/^/  /'
    grep -A3 -E 'panicked at' "$log" | head -6 | sed 's/^/  /'
    ls -t "fuzz/artifacts/$t" | head -5 | sed "s|^|  fuzz/artifacts/$t/|"
  fi
done
if [ "$found" -eq 0 ]; then
  echo "fuzz: nothing found in ${secs}s per target"
else
  echo "fuzz: findings above; reproduce with: (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer $san TARGET artifacts/TARGET/FILE)"
fi
exit "$found"
