#!/usr/bin/env python3
"""An independent Maohopper Chess move generator, and a differential test of
Missive's against it.

Written from `shared/seeds/maohopper-chess.txt` and the Maohopper sections of
`shared/rulings.md` only (not from `rules/src/variants/maohopper.rs`): plain
dictionaries and brute-force path search instead of Missive's bitboards and
move tables. The two share nothing but the FEN and the coordinate move form.

Plays random games, from the start position and from random positions, and at
every ply compares what `missive position maohopper --fen START MOVES...`
prints (the board after the moves, whether the game is over, the legal moves
in coordinate form) with what this file computes for the same moves. Exits
non-zero on the first difference, printing the position and both answers.

    cargo build --release
    python3 tools/maohopper_ref.py --games 200 --binary target/release/missive
"""
import ref_driver

FILES = "abcdefghi"
SIZE = 9
TRAP = (7, 3)  # h4
START = "nrmwfwmrn/amebabema/sssssssss/9/2O1O1O2/9/SSSSSSSSS/AMEBABEMA/NRMWFWMRN w 1"

ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KING = ORTH + DIAG
# Knight steps in angular order, so neighbours in the list are a rose's
# consecutive steps (about 45 degrees apart).
KNIGHT = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]
# The eight squares round a pivot, in angular order.
RING = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]

STRAIGHT, RIGHT, LEFT = 0, 1, 2
MARK = {STRAIGHT: "^", RIGHT: ">", LEFT: "<"}
PROMOTIONS = {7: "RN", 8: "EW", 9: "BF"}  # relative rank -> piece letters


def on_board(sq):
    return 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE


def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


class Pos:
    """board: square -> (colour 'w'/'b'/'n', letter, spear direction)."""

    def __init__(self, board, side):
        self.board = board
        self.side = side

    @staticmethod
    def parse(fen):
        parts = fen.split()
        rows = parts[0].split("/")
        assert len(rows) == SIZE, fen
        board = {}
        for i, row in enumerate(rows):
            r = SIZE - 1 - i
            f = 0
            j = 0
            while j < len(row):
                ch = row[j]
                j += 1
                if ch.isdigit():
                    f += int(ch)
                    continue
                d = STRAIGHT
                if j < len(row) and row[j] in "^><":
                    d = {"^": STRAIGHT, ">": RIGHT, "<": LEFT}[row[j]]
                    j += 1
                if ch in "Oo":
                    board[(f, r)] = ("n", "O", 0)
                else:
                    board[(f, r)] = ("w" if ch.isupper() else "b", ch.upper(), d)
                f += 1
            assert f == SIZE, fen
        return Pos(board, parts[1])

    def board_text(self):
        rows = []
        for r in range(SIZE - 1, -1, -1):
            row, run = "", 0
            for f in range(SIZE):
                p = self.board.get((f, r))
                if p is None:
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                c, letter, d = p
                row += "O" if c == "n" else (letter if c == "w" else letter.lower())
                if letter == "S" and d != STRAIGHT:
                    row += MARK[d]
            if run:
                row += str(run)
            rows.append(row)
        return "/".join(rows)

    def key(self):
        return (tuple(sorted(self.board.items())), self.side)


def spear_vector(colour, d):
    fwd = 1 if colour == "w" else -1
    side = {STRAIGHT: 0, RIGHT: 1, LEFT: -1}[d] * fwd  # right from the owner's view
    return (side, fwd)


def relative_rank(colour, sq):
    return sq[1] + 1 if colour == "w" else SIZE - sq[1]


def pseudo_moves(pos):
    """(text, after-board) for every move of the side to move, before the
    repetition rule. Moves reaching the same result by several paths are one."""
    me = pos.side
    b = pos.board
    out = {}

    def enemy(sq):
        p = b.get(sq)
        return p is not None and p[0] not in (me, "n")

    def landable(sq):
        return on_board(sq) and (sq not in b or enemy(sq))

    def finish(frm, to, piece, extra=None):
        nb = dict(b)
        del nb[frm]
        nb[to] = piece
        if extra:
            extra(nb)
        if to == TRAP and piece[0] != "n":
            del nb[to]
        return nb

    def plain(frm, to, text_suffix=""):
        out[name(frm) + name(to) + text_suffix] = finish(frm, to, b[frm])

    for s, (c, letter, d) in list(b.items()):
        if c != me:
            continue
        if letter == "M":
            for dv in ORTH:
                mid = add(s, dv)
                if not on_board(mid) or mid not in b:
                    continue
                for p in ((dv[1], dv[0]), (-dv[1], -dv[0])):
                    to = add(mid, add(dv, p))
                    if landable(to):
                        plain(s, to)
        elif letter == "B":
            occupied = lambda sq: sq in b and sq != s  # its own square is no hurdle
            seen = {s}
            frontier = [s]
            while frontier:
                x = frontier.pop()
                for dv in ORTH:
                    mid = add(x, dv)
                    if not on_board(mid) or not occupied(mid):
                        continue
                    for p in ((dv[1], dv[0]), (-dv[1], -dv[0])):
                        to = add(mid, add(dv, p))
                        if not on_board(to) or to in seen:
                            continue
                        if to not in b:
                            seen.add(to)
                            frontier.append(to)
                            plain(s, to)
                        elif enemy(to):
                            plain(s, to)
        elif letter == "R":
            for i0 in range(8):
                for sense in (1, -1):
                    p = s
                    for j in range(8):
                        p = add(p, KNIGHT[(i0 + sense * j) % 8])
                        if not on_board(p) or p == s:
                            break
                        if p in b:
                            if j + 1 < 8:
                                q = add(p, KNIGHT[(i0 + sense * (j + 1)) % 8])
                                if q != s and landable(q):
                                    plain(s, q)
                            break
        elif letter == "N":
            for k in KNIGHT:
                p = add(s, k)
                while on_board(p) and p not in b:
                    p = add(p, k)
                if on_board(p):
                    q = add(p, k)
                    if landable(q):
                        plain(s, q)
        elif letter == "E":
            reached = set()

            def walk(x, dv, visited, tried):
                if (x, dv) in tried:
                    return
                tried = tried | {(x, dv)}
                nxt = add(x, dv)
                if on_board(nxt) and (nxt not in b or nxt == s):
                    if nxt in visited:
                        return  # counts as empty, so no reflection; cannot re-enter
                    reached.add(nxt)
                    walk(nxt, dv, visited | {nxt}, tried)
                    return
                if on_board(nxt) and enemy(nxt):
                    reached.add(nxt)
                for turned in ((dv[1], -dv[0]), (-dv[1], dv[0])):
                    walk(x, turned, visited, tried)

            for dv in DIAG:
                walk(s, dv, {s}, frozenset())
            for to in reached:
                plain(s, to)
        elif letter == "S":
            to = add(s, spear_vector(c, d))
            if landable(to):
                if to == TRAP:
                    plain(s, to)
                else:
                    for nd in (STRAIGHT, RIGHT, LEFT):
                        out[name(s) + name(to) + ("" if nd == d else MARK[nd])] = finish(
                            s, to, (c, "S", nd)
                        )
                    for promo in PROMOTIONS.get(relative_rank(c, to), ""):

                        def drop_old_flag(nb, promo=promo, to=to):
                            if promo == "F":
                                for sq, p in list(nb.items()):
                                    if p == (c, "F", 0) and sq != to:
                                        del nb[sq]

                        out[name(s) + name(to) + promo.lower()] = finish(
                            s, to, (c, promo, 0), drop_old_flag
                        )
            for nd in (STRAIGHT, RIGHT, LEFT):
                if nd != d:
                    nb = dict(b)
                    nb[s] = (c, "S", nd)
                    out[name(s) + name(s) + MARK[nd]] = nb
        elif letter == "A":
            for dv in KING:
                to = add(s, dv)
                if not on_board(to):
                    continue
                if to not in b:
                    plain(s, to)
                elif b[to][0] == "n":
                    stones = []
                    q = to
                    while on_board(q) and q in b and b[q][0] == "n":
                        stones.append(q)
                        q = add(q, dv)
                    if on_board(q) and q not in b:

                        def push(nb, stones=stones, dv=dv):
                            for st in stones:
                                del nb[st]
                            for st in stones:
                                nb[add(st, dv)] = ("n", "O", 0)

                        # The Mason lands where the first Stone was.
                        nb = dict(b)
                        push(nb)
                        del nb[s]
                        nb[to] = b[s]
                        if to == TRAP:
                            del nb[to]
                        out[name(s) + name(to)] = nb
        elif letter == "W":
            for pv_off in KING:
                pv = add(s, pv_off)
                if not on_board(pv) or pv not in b:
                    continue
                ring = [add(pv, o) for o in RING]
                i = ring.index(s)
                for sense in (1, -1):
                    for j in range(1, 8):
                        q = ring[(i + sense * j) % 8]
                        if not on_board(q):
                            break
                        if q not in b:
                            plain(s, q)
                            continue
                        if enemy(q):
                            plain(s, q)
                        break
        # F (Flag) never moves.
    return out


def flags(board, colour):
    return [sq for sq, p in board.items() if p[:2] == (colour, "F")]


def legal(pos, history):
    """Legal moves: text -> Pos after; the repetition rule applied."""
    other = "b" if pos.side == "w" else "w"
    res = {}
    for text, nb in pseudo_moves(pos).items():
        np = Pos(nb, other)
        if np.key() in history:
            continue
        res[text] = np
    return res


def over(pos, history):
    """None, or 'flag' (the side to move's Flag is gone) / 'stalemate'."""
    if not flags(pos.board, pos.side):
        return "flag"
    if not legal(pos, history):
        return "stalemate"
    return None


def random_fen(rng):
    board = {}
    # No piece may stand on the trap (Stones may).
    squares = [(f, r) for f in range(SIZE) for r in range(SIZE) if (f, r) != TRAP]
    rng.shuffle(squares)
    it = iter(squares)
    for c in "wb":
        board[next(it)] = (c, "F", 0)
        for _ in range(rng.randint(3, 12)):
            letter = rng.choice("MBRNESAWSAS")
            sq = next(it)
            d = rng.choice((STRAIGHT, RIGHT, LEFT)) if letter == "S" else 0
            board[sq] = (c, letter, d)
    for _ in range(rng.randint(0, 6)):
        board[next(it)] = ("n", "O", 0)
    if rng.random() < 0.3:
        board[TRAP] = ("n", "O", 0)
    return Pos(board, rng.choice("wb")).board_text() + " " + rng.choice("wb") + " 1"


def start(fen):
    pos = Pos.parse(fen)
    return pos, frozenset([pos.key()])


def moves(state):
    pos, history = state
    return {t: (np, history | {np.key()}) for t, np in legal(pos, history).items()}


REFERENCE = ref_driver.Reference(
    start=start,
    fen=lambda state: state[0].board_text(),
    moves=moves,
    over=lambda state, _moves: over(*state),
    their_fen=lambda fen: fen.split()[0],
)

if __name__ == "__main__":
    ref_driver.main("maohopper", REFERENCE, START, random_fen)
