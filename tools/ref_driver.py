"""The differential driver the independent generators in this folder share
(`maohopper_ref.py`, `fleap_ref.py`, `lionized_ref.py`).

Plays random games, half from the variant's start and half from random
positions, and at every ply compares what `missive position VARIANT --fen
START MOVES...` prints (the FEN after the moves, whether the game is over,
the legal moves in coordinate form) with what the reference computes. Exits
non-zero on the first difference, printing the position and both answers.
"""
import argparse
import random
import subprocess
import sys


class Reference:
    """A variant as a reference generator knows it.

    start(fen) -> state; fen(state) -> the text to compare with Missive's
    FEN after `their_fen`; moves(state) -> {move text (after `normal`): the
    state after it}; over(state, moves) -> None, or why the game is over.
    """

    def __init__(self, start, fen, moves, over, their_fen=lambda f: f, normal=lambda t: t):
        self.start, self.fen, self.moves, self.over = start, fen, moves, over
        self.their_fen, self.normal = their_fen, normal


def counting(parse, legal, key):
    """`start` and `moves` for a variant with a repetition rule: the state is
    the position and how often each position (by `key`) has occurred."""

    def start(fen):
        pos = parse(fen)
        return pos, {key(pos): 1}

    def moves(state):
        pos, counts = state
        out = {}
        for text, after in legal(pos).items():
            seen = dict(counts)
            seen[key(after)] = seen.get(key(after), 0) + 1
            out[text] = (after, seen)
        return out

    return start, moves


def theirs(binary, variant, fen, moves):
    """Missive's FEN, outcome (None while the game goes on) and legal moves
    in coordinate form after `moves` from `fen`; or the error it gave."""
    out = subprocess.run(
        [binary, "position", variant, "--fen", fen, *moves], capture_output=True, text=True
    )
    if out.returncode != 0:
        return None, None, None, (out.stderr.strip().splitlines() or ["(no message)"])[0]
    got, outcome, listed = None, None, []
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts[0] == "fen":
            got = " ".join(parts[1:])
        elif parts[0] == "outcome":
            outcome = " ".join(parts[1:])
        elif parts[0] == "move":
            listed.append(parts[-1])
    return got, outcome, listed, None


def fail(fen, moves, what):
    print(f"DIFFERENCE from --fen '{fen}' after {' '.join(moves) or '(no moves)'}:\n  {what}")
    sys.exit(1)


def play(binary, variant, ref, fen, plies, rng):
    """One random game; returns the number of positions compared."""
    state = ref.start(fen)
    moves = []
    checked = 0
    for _ in range(plies + 1):
        got, outcome, listed, err = theirs(binary, variant, fen, moves)
        if err is not None:
            if not moves:
                return 0  # a random position Missive refuses
            return fail(fen, moves, "missive refused: " + err)
        if ref.their_fen(got) != ref.fen(state):
            return fail(fen, moves, f"FEN: missive {got}\n  reference     {ref.fen(state)}")
        mine = ref.moves(state)
        end = ref.over(state, mine)
        if (outcome is None) != (end is None):
            return fail(fen, moves, f"game end: missive {outcome!r}, reference {end!r}")
        checked += 1
        if end is not None:
            return checked
        named = [ref.normal(t) for t in listed]
        if len(set(named)) != len(named) or sorted(named) != sorted(mine):
            return fail(
                fen,
                moves,
                f"moves ({len(listed)} listed by missive): "
                f"only missive {sorted(set(named) - set(mine))}, "
                f"only reference {sorted(set(mine) - set(named))}",
            )
        text = rng.choice(listed)
        moves.append(text)
        state = mine[ref.normal(text)]
    return checked


def main(variant, ref, start, random_fen):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default="target/release/missive")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    positions = 0
    for g in range(a.games):
        fen = start if g % 2 == 0 else random_fen(rng)
        positions += play(a.binary, variant, ref, fen, a.plies, rng)
    print(f"{variant}: {a.games} games, {positions} positions, every legal-move list alike")
