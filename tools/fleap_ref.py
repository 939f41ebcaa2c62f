#!/usr/bin/env python3
"""An independent Fleap move generator, and a differential test of Missive's
against it.

Written from `shared/seeds/fleap.txt` and the Fleap sections of
`shared/rulings.md` only (not from `rules/src/variants/fleap.rs`): plain
dictionaries and brute force over every hop vector. The two share nothing
but the FEN and the coordinate move form (`b1b4`, promotion `c5c6a`, rifle
`e1xc3`, Nuke `e1xxc4`, a returned token's placement after the move
`e3c3>b2`, waiting tokens placed before it `P@c7,b7b5`).

Plays random games, from the start position and from random positions, and at
every ply compares what `missive position fleap --fen START MOVES...` prints
(the FEN after the moves, whether the game is over, the legal moves in
coordinate form) with what this file computes. Exits non-zero on the first
difference, printing the position and both answers.

    cargo build --release
    python3 tools/fleap_ref.py --games 200 --binary target/release/missive
"""
import ref_driver

FILES = "abcdefg"
SIZE = 7
HOLES = {(0, 0), (6, 0), (0, 3), (6, 3), (0, 6), (6, 6)}
START = "*tsfat*/eeeeeee/7/*5*/7/EEEEEEE/*TSFAT*[] w 1/1 0 1"

FACE_UP = "ESATF"
BACK = "PNBRK"
FLIP = dict(zip(FACE_UP, BACK))
UNFLIP = dict(zip(BACK, FACE_UP))
PROMOTIONS = "ESATFNBRK"
HAND_ORDER = "PNBRK"

UNITS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def add(a, b, k=1):
    return (a[0] + k * b[0], a[1] + k * b[1])


def other(c):
    return "b" if c == "w" else "w"


def line_unit(v):
    """(unit, k) when v lies on a rank, file or diagonal, else None."""
    dx, dy = v
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        k = max(abs(dx), abs(dy))
        return (dx // k, dy // k), k
    return None


def home_squares(colour, letter):
    """Home squares of a token type (by either face) in the standard array."""
    first = 0 if colour == "w" else 6
    pawns = 1 if colour == "w" else 5
    face = UNFLIP.get(letter, letter)
    return {
        "E": [(f, pawns) for f in range(SIZE)],
        "S": [(2, first)],
        "A": [(4, first)],
        "T": [(1, first), (5, first)],
        "F": [(3, first)],
    }[face]


class Pos:
    def __init__(self):
        self.board = {}  # square -> (colour, letter, promoted)
        self.void = set(HOLES)  # holes and craters
        self.hand = {"w": [], "b": []}  # back letters
        self.side = "w"
        self.nukes = {"w": 1, "b": 1}
        self.halfmove = 0
        self.fullmove = 1
        self.result = None

    def copy(self):
        p = Pos()
        p.board = dict(self.board)
        p.void = set(self.void)
        p.hand = {"w": list(self.hand["w"]), "b": list(self.hand["b"])}
        p.side = self.side
        p.nukes = dict(self.nukes)
        p.halfmove = self.halfmove
        p.fullmove = self.fullmove
        p.result = self.result
        return p

    @staticmethod
    def parse(fen):
        p = Pos()
        p.void = set()
        fields = fen.split()
        board = fields[0]
        hand = ""
        if "[" in board:
            board, hand = board.split("[")
            hand = hand.rstrip("]")
        for i, row in enumerate(board.split("/")):
            r = SIZE - 1 - i
            f = 0
            promoted = False
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                elif ch == "*":
                    p.void.add((f, r))
                    f += 1
                elif ch == "+":
                    promoted = True
                else:
                    p.board[(f, r)] = ("w" if ch.isupper() else "b", ch.upper(), promoted)
                    promoted = False
                    f += 1
        for ch in hand:
            p.hand["w" if ch.isupper() else "b"].append(ch.upper())
        p.side = fields[1]
        w, b = fields[2].split("/")
        p.nukes = {"w": int(w), "b": int(b)}
        p.halfmove = int(fields[3])
        p.fullmove = int(fields[4])
        p.result = fields[5] if len(fields) > 5 else None
        return p

    def fen(self):
        rows = []
        for r in range(SIZE - 1, -1, -1):
            row, run = "", 0
            for f in range(SIZE):
                sq = (f, r)
                if sq in self.void or sq in self.board:
                    if run:
                        row += str(run)
                        run = 0
                    if sq in self.void:
                        row += "*"
                    else:
                        c, letter, promoted = self.board[sq]
                        row += ("+" if promoted else "") + (letter if c == "w" else letter.lower())
                else:
                    run += 1
            if run:
                row += str(run)
            rows.append(row)
        hand = "".join(sorted(self.hand["w"], key=HAND_ORDER.index)) + "".join(
            x.lower() for x in sorted(self.hand["b"], key=HAND_ORDER.index)
        )
        text = (
            f"{'/'.join(rows)}[{hand}] {self.side} {self.nukes['w']}/{self.nukes['b']} "
            f"{self.halfmove} {self.fullmove}"
        )
        return text + (" " + self.result if self.result else "")

    def key(self):
        return (
            tuple(sorted(self.board.items())),
            tuple(sorted(self.void)),
            tuple(sorted(self.hand["w"])),
            tuple(sorted(self.hand["b"])),
            self.side,
            self.nukes["w"],
            self.nukes["b"],
        )

    # ---------------------------------------------------------------- squares

    def square(self, sq):
        return 0 <= sq[0] < SIZE and 0 <= sq[1] < SIZE and sq not in self.void

    def empty(self, sq):
        return self.square(sq) and sq not in self.board

    def enemy_of(self, sq, c):
        return sq in self.board and self.board[sq][0] != c

    def landable(self, sq, c):
        return self.square(sq) and (sq not in self.board or self.board[sq][0] != c)

    def clear(self, frm, unit, js):
        """The squares frm + j*unit for j in js are all empty squares."""
        return all(self.empty(add(frm, unit, j)) for j in js)

    # ------------------------------------------------------------ movement

    def equihop_targets(self, s, line_rule=True):
        """Landing squares of Equihopper hops from s (any occupant)."""
        out = []
        for vx in range(-3, 4):
            for vy in range(-3, 4):
                if (vx, vy) == (0, 0):
                    continue
                v = (vx, vy)
                mid, to = add(s, v), add(s, v, 2)
                if not self.square(to) or mid not in self.board:
                    continue
                lu = line_unit(v) if line_rule else None
                if lu:
                    u, k = lu
                    if not self.clear(s, u, [j for j in range(1, 2 * k) if j != k]):
                        continue
                out.append((v, to))
        return out

    def destinations(self, s):
        """Where the piece on s may move or capture by moving (not rifle/Nuke)."""
        c, letter, _ = self.board[s]
        out = set()
        if letter in "ESTF":
            for v, to in self.equihop_targets(s, line_rule=(letter != "S")):
                if not self.landable(to, c):
                    continue
                out.add(to)
                if letter == "T" and to not in self.board:
                    on = add(s, v, 3)
                    lu = line_unit(v)
                    if lu and lu[1] > 1:
                        u, k = lu
                        if not self.clear(s, u, range(2 * k + 1, 3 * k)):
                            continue
                    if self.landable(on, c):
                        out.add(on)
            if letter == "F":
                for p in list(self.board):
                    if p == s:
                        continue
                    v = (p[0] - s[0], p[1] - s[1])
                    to = add(s, v, -1)
                    if not self.landable(to, c):
                        continue
                    lu = line_unit(v)
                    if lu and lu[1] > 1:
                        u, k = lu
                        if not self.clear(s, u, [j for j in range(-(k - 1), k) if j != 0]):
                            continue
                    out.add(to)
        elif letter == "A":
            for u in UNITS:
                for j in (1, 2):
                    to = add(s, u, j)
                    if not self.empty(to):
                        break
                    out.add(to)
        elif letter == "P":
            fwd = 1 if c == "w" else -1
            to = (s[0], s[1] + fwd)
            if self.empty(to):
                out.add(to)
            for dx in (-1, 1):
                to = (s[0] + dx, s[1] + fwd)
                if self.square(to) and self.enemy_of(to, c):
                    out.add(to)
        elif letter == "N":
            for k in KNIGHT:
                to = add(s, k)
                if self.landable(to, c):
                    out.add(to)
        elif letter in "BRK":
            units = {"B": UNITS[4:], "R": UNITS[:4], "K": UNITS}[letter]
            for u in units:
                j = 1
                while True:
                    to = add(s, u, j)
                    if not self.square(to):
                        break
                    if to in self.board:
                        if self.board[to][0] != c:
                            out.add(to)
                        break
                    out.add(to)
                    if letter == "K":
                        break
                    j += 1
        return out

    def placements(self, colour, letter):
        """Where a returned (back-face) token of this type may be placed."""
        homes = [sq for sq in home_squares(colour, letter) if self.empty(sq)]
        if homes:
            return homes
        rows = (0, 1) if colour == "w" else (6, 5)
        return [(f, r) for r in rows for f in range(SIZE) if self.empty((f, r))]


def take(pos, sq, captor):
    """Remove the piece on sq, captured by `captor`: returns the back-face
    letter of a token that must be placed (or None). Nukes and Kings follow."""
    c, letter, promoted = pos.board.pop(sq)
    if letter == "A" and pos.nukes[c] > 0:
        pos.nukes[c] -= 1
        pos.nukes[captor] += 1
    if letter == "K":
        pos.result = "1-0" if captor == "w" else "0-1"
    if letter in FACE_UP and not promoted:
        return FLIP[letter]
    return None


def with_return(pos, owner, token, text, out):
    """Branch on where a captured token is placed (or it waits in hand)."""
    if token is None:
        out[text] = pos
        return
    options = pos.placements(owner, token)
    if not options:
        pos.hand[owner].append(token)
        out[text] = pos
        return
    for sq in options:
        q = pos.copy()
        q.board[sq] = (owner, token, False)
        out[text + ">" + name(sq)] = q


def turn_over(q, mover, reset):
    q.halfmove = 0 if reset else q.halfmove + 1
    if mover == "b":
        q.fullmove += 1
    q.side = other(mover)


def moves_after_placement(pos, prefix, out):
    me = pos.side
    them = other(me)
    for s, (c, letter, promoted) in list(pos.board.items()):
        if c != me:
            continue
        for to in sorted(pos.destinations(s)):
            q = pos.copy()
            piece = q.board.pop(s)
            token = take(q, to, me) if to in q.board else None
            captured = token is not None or to in pos.board
            q.board[to] = piece
            texts = [(prefix + name(s) + name(to), piece)]
            rank = to[1] if me == "w" else SIZE - 1 - to[1]
            if letter == "P" and rank == 5:
                texts = [(prefix + name(s) + name(to) + x.lower(), (me, x, True)) for x in PROMOTIONS]
            for text, placed in texts:
                r = q.copy()
                r.board[to] = placed
                if placed[2] and placed[1] == "A" and letter == "P":
                    r.nukes[me] += 1
                turn_over(r, me, captured or letter == "P")
                with_return(r, them, token, text, out)
        if letter == "A":
            targets = pos.equihop_targets(s)
            for v, t in targets:
                if pos.enemy_of(t, me):
                    q = pos.copy()
                    token = take(q, t, me)
                    turn_over(q, me, True)
                    with_return(q, them, token, prefix + name(s) + "x" + name(t), out)
            if pos.nukes[me] > 0:
                for v, t in targets:
                    q = pos.copy()
                    q.nukes[me] -= 1
                    destroyed = False
                    kings = set()
                    for dx in (-1, 0, 1):
                        for dy in (-1, 0, 1):
                            sq = (t[0] + dx, t[1] + dy)
                            if sq in q.board:
                                pc = q.board.pop(sq)
                                destroyed = True
                                if pc[1] == "K":
                                    kings.add(pc[0])
                    q.void.add(t)
                    if them in kings:
                        q.result = "1-0" if me == "w" else "0-1"
                    elif me in kings:
                        q.result = "0-1" if me == "w" else "1-0"
                    turn_over(q, me, destroyed)
                    out[prefix + name(s) + "xx" + name(t)] = q


def normal(text):
    """A move text with its placements in one order (tokens of one kind may
    be placed in either order: one choice, one move)."""
    parts = text.split(",")
    placed = sorted(parts[:-1], key=lambda x: (HAND_ORDER.index(x[0]), x[2:]))
    return ",".join(placed + parts[-1:])


def pseudo_moves(pos):
    """normalised text -> position after, for every move of the side to move."""
    if pos.result:
        return {}
    me = pos.side
    starts = [(pos.copy(), "")]
    for letter in HAND_ORDER:
        for _ in range(pos.hand[me].count(letter)):
            nxt = []
            for p, prefix in starts:
                options = p.placements(me, letter)
                if not options:
                    nxt.append((p, prefix))
                    continue
                for sq in options:
                    q = p.copy()
                    q.hand[me].remove(letter)
                    q.board[sq] = (me, letter, False)
                    nxt.append((q, prefix + letter + "@" + name(sq) + ","))
            starts = nxt
    out = {}
    for p, prefix in starts:
        moves_after_placement(p, prefix, out)
    return {normal(t): q for t, q in out.items()}


def over(pos, history_counts):
    if pos.result:
        return "king"
    if history_counts.get(pos.key(), 0) >= 3:
        return "repetition"
    if pos.halfmove >= 100:
        return "fifty"
    if not pseudo_moves(pos):
        return "no moves"
    return None


def random_fen(rng):
    p = Pos()
    squares = [(f, r) for f in range(SIZE) for r in range(SIZE) if (f, r) not in HOLES]
    rng.shuffle(squares)
    it = iter(squares)
    for c in "wb":
        p.board[next(it)] = (c, "K", False)
        for _ in range(rng.randint(3, 10)):
            letter = rng.choice("EEESATFPPNBRK")
            sq = next(it)
            rank = sq[1] if c == "w" else SIZE - 1 - sq[1]
            if letter == "P" and rank >= 5:
                continue
            p.board[sq] = (c, letter, rng.random() < 0.15 and letter != "P")
        p.nukes[c] = rng.choice((0, 1, 1, 2))
        for _ in range(rng.choice((0, 0, 0, 1, 2))):
            p.hand[c].append(rng.choice(HAND_ORDER))
    for _ in range(rng.choice((0, 0, 1, 2))):
        p.void.add(next(it))
    p.side = rng.choice("wb")
    return p.fen()


start, moves = ref_driver.counting(Pos.parse, pseudo_moves, Pos.key)

REFERENCE = ref_driver.Reference(
    start=start,
    fen=lambda state: state[0].fen(),
    moves=moves,
    over=lambda state, _moves: over(*state),
    normal=normal,
)

if __name__ == "__main__":
    ref_driver.main("fleap", REFERENCE, START, random_fen)
