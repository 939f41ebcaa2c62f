#!/usr/bin/env python3
"""Make the Dutch-system fixtures of tests/it/swiss_oracle.rs (issue 63).

Random tournaments (9 to 100 players, 5 to 11 rounds, draws, forfeits,
half-point byes, one-round absences and withdrawals), every round paired by
an endorsed FIDE Dutch engine, bbpPairings (built from its public source;
give its path with --bbp): the script writes the TRF of the rounds so far
plus the absences known for the next one (`XXR` total rounds, `XXC`
initial colour), runs `bbpPairings --dutch FILE -p OUT`, plays the round
with random results and goes on. A tournament ends early when the engine
finds no legal pairing. The finished tournaments' TRFs are written one
after the other into one gzip'd file, each after a line `### N`
(tests/fixtures/swiss_dutch.trf.gz).

    tools/swiss_fixtures.py --bbp /path/to/bbpPairings.exe --count 5000 --seed 63 \
        --out tests/fixtures/swiss_dutch.trf.gz

The committed file (5,000 tournaments) was made in two batches run side by
side and concatenated (`cat a.gz b.gz`; a gzip file may hold several
members): `--count 2500 --seed 63` and `--count 2500 --seed 64
--number-from 2501`.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import subprocess
import sys
import tempfile

POINTS = {"1": 2, "+": 2, "=": 1, "0": 0, "-": 0, "U": 2, "H": 1, "F": 2, "Z": 0}


def trf_text(players, results, total, colour, upto):
    """TRF16 (+XXR/XXC) with the rounds before `upto` and the entries already known for `upto`."""
    lines = ["012 Missive fixture", f"XXR {total}", f"XXC {colour}1"]
    for p in players:
        sn = p["number"]
        res = results[sn]
        pts = sum(POINTS[res[r][2]] for r in res if r < upto)
        row = (f"001 {sn:4d}  {'':3s} {p['name']:<33s} {p['rating']:4d} {'':3s} {'':11s} {'':10s} "
               f"{pts / 2:4.1f} {sn:4d}")
        for r in range(1, upto + 1):
            if r not in res:
                if r == upto:
                    break
                row += "          "
                continue
            opp, col, result = res[r]
            row += f"  {opp:4d} {col} {result}" if opp else f"  0000 - {result}"
        lines.append(row.rstrip())
    return "\n".join(lines) + "\n"


def bbp_round(bbp, text):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "t.trf"), os.path.join(d, "p.txt")
        with open(src, "w") as f:
            f.write(text)
        run = subprocess.run([bbp, "--dutch", src, "-p", out], capture_output=True, text=True)
        if run.returncode == 1:
            return None  # no legal pairing
        if run.returncode != 0:
            raise RuntimeError(f"bbpPairings failed ({run.returncode}): {run.stderr}\n{text}")
        lines = open(out).read().split()
    count = int(lines[0])
    nums = list(map(int, lines[1:1 + 2 * count]))
    return [(nums[2 * i], nums[2 * i + 1]) for i in range(count)]


def simulate(rng, white, black):
    if rng.random() < 0.03:
        return ("+", "-") if rng.random() < 0.5 else ("-", "+")
    if rng.random() < 0.3:
        return ("=", "=")
    p = 1 / (1 + 10 ** ((black["rating"] - white["rating"]) / 400))
    return ("1", "0") if rng.random() < p else ("0", "1")


def tournament(rng, bbp):
    n = rng.randint(9, 100)
    total = rng.randint(5, 11)
    ratings = sorted((rng.randint(1400, 2700) for _ in range(n)), reverse=True)
    players = [{"number": i + 1, "name": f"Player {i + 1}", "rating": r} for i, r in enumerate(ratings)]
    by = {p["number"]: p for p in players}
    colour = rng.choice(["white", "black"])
    results = {p["number"]: {} for p in players}
    withdrawn = set()
    for rnd in range(1, total + 1):
        for p in players:
            sn = p["number"]
            if sn in withdrawn or rnd == 1:
                continue
            x = rng.random()
            if x < 0.02:
                withdrawn.add(sn)
            elif x < 0.04:
                results[sn][rnd] = (0, "-", "H")
            elif x < 0.05:
                results[sn][rnd] = (0, "-", "Z")
        for sn in withdrawn:
            results[sn][rnd] = (0, "-", "Z")
        if sum(1 for p in players if rnd not in results[p["number"]]) < 2:
            break
        pairs = bbp_round(bbp, trf_text(players, results, total, colour, rnd))
        if pairs is None:
            # Nobody can be paired legally: the tournament ends before this round.
            for p in players:
                results[p["number"]].pop(rnd, None)
            break
        for w, b in pairs:
            if b == 0:
                results[w][rnd] = (0, "-", "U")
                continue
            rw, rb = simulate(rng, by[w], by[b])
            results[w][rnd] = (b, "w", rw)
            results[b][rnd] = (w, "b", rb)
    last = max((r for res in results.values() for r, e in res.items() if e[0] or e[2] == "U"), default=0)
    return trf_text(players, results, total, colour, last + 1 if last < total else total)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bbp", required=True, help="path to a bbpPairings executable")
    ap.add_argument("--count", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=63)
    ap.add_argument("--out", default="tests/fixtures/swiss_dutch.trf.gz")
    ap.add_argument("--number-from", type=int, default=1,
                    help="number of the first tournament (to append a batch: gzip files concatenate)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with gzip.GzipFile(a.out, "wb", mtime=0) as out:
        for i in range(a.count):
            out.write(f"### {a.number_from + i}\n".encode())
            out.write(tournament(rng, a.bbp).encode())
            if (i + 1) % 500 == 0:
                print(f"{i + 1} tournaments", file=sys.stderr)


if __name__ == "__main__":
    main()
