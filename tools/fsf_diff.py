#!/usr/bin/env python3
"""Differential test of Missive's move generator against Fairy-Stockfish.

Plays random games; at every position compares the set of legal moves that
`missive perft VARIANT 1 --divide --fen FEN` prints with the set that
Fairy-Stockfish (the `pyffish` package from PyPI) gives for the same FEN.
Exits non-zero on the first difference, printing the FEN and both lists.

    pip install pyffish
    cargo build --release
    python3 tools/fsf_diff.py chess --games 200
    python3 tools/fsf_diff.py leaperhouse --games 200
"""
import argparse
import os
import random
import subprocess
import sys

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))

# Fairy-Stockfish definitions for variants it does not know by name: the
# inventor's own definitions from the seed pages.
CONFIGS = {
    "leaperhouse": os.path.join(HERE, "fsf", "leaperhouse.ini"),
    "leap-chess": os.path.join(HERE, "fsf", "leap-chess.ini"),
    "leap-chess-optional": os.path.join(HERE, "fsf", "leap-chess.ini"),
    "leap-chess-64": os.path.join(HERE, "fsf", "leap-chess.ini"),
}

# Fairy-Stockfish does not know Leap Chess's bare-king rule: games stop there.
BARE_KING_RULE = {"leap-chess", "leap-chess-optional", "leap-chess-64"}


def bare_king(fen):
    board = fen.split()[0].split("[")[0]
    white = [c for c in board if c.isalpha() and c.isupper()]
    black = [c for c in board if c.isalpha() and c.islower()]
    return white == ["K"] or black == ["k"]


def ours(binary, variant, fen):
    out = subprocess.run([binary, "perft", variant, "1", "--divide", "--fen", fen], capture_output=True, text=True, check=True).stdout
    lines = out.strip().splitlines()
    return sorted(line.split()[0] for line in lines[:-1])


def theirs(variant, fen):
    if sf.is_immediate_game_end(variant, fen, [])[0]:
        return []
    return sorted(sf.legal_moves(variant, fen, []))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default=os.path.join(HERE, "..", "target", "release", "missive"))
    args = ap.parse_args()
    if args.variant in CONFIGS:
        with open(CONFIGS[args.variant]) as f:
            sf.load_variant_config(f.read())
    rng = random.Random(args.seed)
    positions = 0
    for game in range(args.games):
        fen = sf.start_fen(args.variant)
        for _ in range(args.plies):
            if args.variant in BARE_KING_RULE and bare_king(fen):
                break
            a, b = ours(args.binary, args.variant, fen), theirs(args.variant, fen)
            positions += 1
            if a != b:
                print(f"DIFFERENCE in game {game} at {fen}")
                print("  only Missive:", sorted(set(a) - set(b)))
                print("  only Fairy-Stockfish:", sorted(set(b) - set(a)))
                return 1
            if not b:
                break
            move = rng.choice(b)
            fen = sf.get_fen(args.variant, fen, [move])
    print(f"{args.variant}: {positions} positions in {args.games} random games agree with Fairy-Stockfish {'.'.join(map(str, sf.version()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
