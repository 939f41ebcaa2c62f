#!/usr/bin/env python3
"""Reference games for makruk's and ASEAN chess's counting rules from
Fairy-Stockfish (PyPI `pyffish==0.0.90`), for rules/tests/fsf_variants.rs.

From each start position given (pawnless or nearly so, where a count
starts), plays seeded random games and prints every ply with the FEN
Fairy-Stockfish writes after it (the count in place of the en passant
square and the halfmove clock). A game stops when it is over for
Fairy-Stockfish (no legal move, or an immediate end) or its count has run
out (the plies counted exceed the limit: an optional end, a draw), or
after 120 plies.

Arguments: GAMES then VARIANT:FEN pairs. Output, tab-separated:
    G <variant> <fen>        a game starts
    F <uci> <fen after> <0|1>  a ply; 1 where Fairy-Stockfish may end the
                               game after it (is_optional_game_end)
"""
import random
import sys

import pyffish as sf


def counted_out(fen):
    f = fen.split()
    # Board, side, castling, then the count (limit, plies) or "- clock".
    return f[3].isdigit() and int(f[4]) > int(f[3])


def main():
    games, pairs = int(sys.argv[1]), sys.argv[2:]
    for pair in pairs:
        variant, _, start = pair.partition(":")
        rng = random.Random(pair)
        for _ in range(games):
            print(f"G\t{variant}\t{start}")
            played = []
            for _ in range(120):
                fen = sf.get_fen(variant, start, played)
                if counted_out(fen):
                    break
                if sf.is_immediate_game_end(variant, start, played)[0]:
                    break
                ms = sf.legal_moves(variant, start, played)
                if not ms:
                    break
                m = rng.choice(sorted(ms))
                played.append(m)
                optional = sf.is_optional_game_end(variant, start, played)[0]
                print(f"F\t{m}\t{sf.get_fen(variant, start, played)}\t{int(optional)}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
