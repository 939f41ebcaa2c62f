#!/usr/bin/env python3
"""Reference data from Fairy-Stockfish (PyPI `pyffish==0.0.90`) for
rules/tests/fsf_variants.rs: for each variant named, its start position and
10 positions (MISSIVE_FSF_POSITIONS) reached by random play from it (seeded), each with its perft
to depth 3 and every legal move in UCI with its SAN (`pyffish.get_san`).

A position where `is_immediate_game_end` holds has no moves, as Missive's
`legal_moves` is empty once the game is over.

A variant named `name@FEN` starts from that FEN rather than its own start
position (positions the start does not soon reach: a pawn about to
promote).

A variant named `name:wxf` also gets each move in WXF notation
(`NOTATION_XIANGQI_WXF`), the xiangqi family's own; `name:janggi` in
janggi notation (`NOTATION_JANGGI`).

Output, one record a line, tab-separated:
    V <variant>
    P <fen> <depth> <perft>
    M <uci> <san> [<wxf>]
"""
import os
import random
import sys

import pyffish as sf


def moves(variant, fen, played):
    if sf.is_immediate_game_end(variant, fen, played)[0]:
        return []
    return sf.legal_moves(variant, fen, played)


def perft(variant, fen, depth, played=()):
    ms = moves(variant, fen, list(played))
    if depth == 1:
        return len(ms)
    return sum(perft(variant, fen, depth - 1, list(played) + [m]) for m in ms)


def positions(variant, rng, count=20, start=None):
    start = start or sf.start_fen(variant)
    out = [start]
    while len(out) < count + 1:
        played = []
        for _ in range(rng.randint(2, 40)):
            ms = moves(variant, start, played)
            if not ms:
                break
            played.append(rng.choice(sorted(ms)))
        fen = sf.get_fen(variant, start, played)
        if moves(variant, fen, []):
            out.append(fen)
    return out


def main():
    args = sys.argv[1:]
    depth = 3
    if args[:1] == ["--depth"]:
        depth, args = int(args[1]), args[2:]
    count = int(os.environ.get("MISSIVE_FSF_POSITIONS", "10"))
    for arg in args:
        arg, _, start = arg.partition("@")
        variant, _, notation = arg.partition(":")
        rng = random.Random(variant + start)
        print(f"V\t{variant}")
        for i, fen in enumerate(positions(variant, rng, count, start)):
            d = 3 if i == 0 else depth
            print(f"P\t{fen}\t{d}\t{perft(variant, fen, d)}")
            for m in sorted(moves(variant, fen, [])):
                extra = ""
                if notation == "wxf":
                    wxf = sf.get_san(variant, fen, m, False, sf.NOTATION_XIANGQI_WXF)
                    extra = f"\t{wxf}"
                elif notation == "janggi":
                    janggi = sf.get_san(variant, fen, m, False, sf.NOTATION_JANGGI)
                    extra = f"\t{janggi}"
                print(f"M\t{m}\t{sf.get_san(variant, fen, m)}{extra}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
