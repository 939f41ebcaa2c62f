#!/usr/bin/env python3
"""An independent Lionized Chess move generator, and a differential test of
Missive's against it.

Written from `shared/seeds/lionized-chess.txt` and the Lionized sections of
`shared/rulings.md` only (not from `rules/src/variants/lionized.rs`): every
turn is built leg by leg from the powers as the rules word them, moves are
told apart by their footnote-15 text, and check is found by generating every
enemy turn on the board after the move. The two share nothing but the FEN and
the footnote-15 move form.

Plays random games, from the start position and from random positions, and at
every ply compares what `missive position lionized-chess --fen START MOVES...`
prints (the FEN after the moves, whether the game is over, the legal moves)
with what this file computes. Exits non-zero on the first difference.

    cargo build --release
    python3 tools/lionized_ref.py --games 200 --binary target/release/missive
"""
import ref_driver

FILES = "abcdefgh"
START = "lcmzkfhl/pppppppp/8/8/8/8/PPPPPPPP/LHMZKFCL[] w - - 0 1"
REGULAR = "LHCMF"
KING_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DIAG = KING_STEPS[4:]
ORTH = KING_STEPS[:4]
# The Horses' second step, 45 degrees right (Hot) or left (Cold) of the first,
# board-absolute.
RIGHT45 = {(0, 1): (1, 1), (1, 0): (1, -1), (0, -1): (-1, -1), (-1, 0): (-1, 1)}
LEFT45 = {(0, 1): (-1, 1), (-1, 0): (-1, -1), (0, -1): (1, -1), (1, 0): (1, 1)}


def on(sq):
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def add(a, b, k=1):
    return (a[0] + k * b[0], a[1] + k * b[1])


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def other(c):
    return "b" if c == "w" else "w"


def last_rank(c):
    return 7 if c == "w" else 0


class Pos:
    def __init__(self):
        self.board = {}  # square -> (colour, letter)
        self.pool = {"w": [], "b": []}  # captured Regular pieces
        self.side = "w"
        self.ep = None  # square a Pawn skipped over on the last move
        self.halfmove = 0
        self.fullmove = 1

    def copy(self):
        p = Pos()
        p.board = dict(self.board)
        p.pool = {"w": list(self.pool["w"]), "b": list(self.pool["b"])}
        p.side, p.ep, p.halfmove, p.fullmove = self.side, self.ep, self.halfmove, self.fullmove
        return p

    @staticmethod
    def parse(fen):
        p = Pos()
        fields = fen.split()
        board, pool = fields[0].split("[")
        for i, row in enumerate(board.split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    p.board[(f, 7 - i)] = ("w" if ch.isupper() else "b", ch.upper())
                    f += 1
        for ch in pool.rstrip("]"):
            p.pool["w" if ch.isupper() else "b"].append(ch.upper())
        p.side = fields[1]
        p.ep = None if fields[3] == "-" else (FILES.index(fields[3][0]), int(fields[3][1]) - 1)
        p.halfmove, p.fullmove = int(fields[4]), int(fields[5])
        return p

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, run = "", 0
            for f in range(8):
                pc = self.board.get((f, r))
                if pc is None:
                    run += 1
                    continue
                if run:
                    row += str(run)
                    run = 0
                row += pc[1] if pc[0] == "w" else pc[1].lower()
            rows.append(row + (str(run) if run else ""))
        pool = "".join(sorted(self.pool["w"])) + "".join(sorted(x.lower() for x in self.pool["b"]))
        ep = name(self.ep) if self.ep and self.ep_live() else "-"
        return f"{'/'.join(rows)}[{pool}] {self.side} - {ep} {self.halfmove} {self.fullmove}"

    def ep_live(self):
        """An en passant capture is legal (only then is the square written)."""
        fwd = 1 if self.side == "w" else -1
        victim = name((self.ep[0], self.ep[1] - fwd))
        pawns = {name(s) for s, pc in self.board.items() if pc == (self.side, "P")}
        return any(
            len(t) == 6 and t[:2] in pawns and t[2:4] == victim and t[4:] == name(self.ep)
            for t in legal(self)
        )


def normal_fen(fen):
    """Missive's FEN with its pool written in the reference's order."""
    board, rest = fen.split("[", 1)
    pool, rest = rest.split("]", 1)
    ups = "".join(sorted(c for c in pool if c.isupper()))
    lows = "".join(sorted(c for c in pool if c.islower()))
    return f"{board}[{ups}{lows}]{rest}"


def lionized(board, c):
    """Squares of c's Regular pieces that are Lionized."""
    out = set()
    for s, (pc, letter) in board.items():
        if pc != c:
            continue
        if letter == "Z":
            for u in KING_STEPS:
                t = add(s, u)
                while on(t) and t not in board:
                    t = add(t, u)
                if on(t) and board[t] == (c, board[t][1]) and board[t][1] in REGULAR:
                    out.add(t)
        elif letter == "P" and s[1] == last_rank(c):
            for r in range(8):
                t = (s[0], r)
                if t in board and board[t][0] == c and board[t][1] in REGULAR:
                    out.add(t)
    return out


def power(board, letter, c, frm, regardless=False):
    """Squares the Regular power `letter` takes a piece of colour c to from
    frm on this board (the mover is not on it). Normally a square must be
    empty or hold an enemy; `regardless`: whatever stands there."""
    out = []

    def ok(t):
        return t not in board or regardless or board[t][0] != c

    if letter == "L":
        u = (0, 1) if c == "w" else (0, -1)
        t = add(frm, u)
        while on(t):
            if t not in board:
                out.append(t)
            else:
                if ok(t):
                    out.append(t)
                break
            t = add(t, u)
    elif letter == "M":
        for u in DIAG:
            t = add(frm, u, 2)
            if on(t) and add(frm, u) not in board and ok(t):
                out.append(t)
    elif letter == "F":
        for u in DIAG:
            t = add(frm, u)
            if on(t) and ok(t):
                out.append(t)
    elif letter in "HC":
        turn = RIGHT45 if letter == "H" else LEFT45
        for u in ORTH:
            step = add(frm, u)
            t = add(step, turn[u])
            if on(step) and step not in board and on(t) and ok(t):
                out.append(t)
    return out


def turns(pos, c):
    """(text, board after, captured pieces) for every turn of side c, before
    the check rule; kings may be taken (that is how check is found)."""
    b = pos.board
    lion = lionized(b, c)
    out = {}

    def record(text, nb, caps):
        out.setdefault(text, (nb, caps))

    for s, (pc, letter) in list(b.items()):
        if pc != c:
            continue
        base = dict(b)
        del base[s]
        if letter in REGULAR:
            partners = {b[q][1] for q in lion if q != s}
            if s in lion and not partners:
                continue  # Lionized with no partner: frozen
            for t in power(base, letter, c, s):
                nb = dict(base)
                caps = [nb.pop(t)] if t in nb else []
                nb[t] = b[s]
                record(name(s) + name(t), nb, caps)
            if s not in lion:
                continue
            for q in partners:
                # Q's power for one leg, then optionally its own.
                for mid in power(base, q, c, s):
                    b1 = dict(base)
                    cap1 = [b1.pop(mid)] if mid in b1 else []
                    nb = dict(b1)
                    nb[mid] = b[s]
                    record(name(s) + name(mid), nb, cap1)
                    for t in power(b1, letter, c, mid):
                        if t == s and not cap1:
                            continue  # the board would be unchanged
                        nb = dict(b1)
                        cap2 = [nb.pop(t)] if t in nb else []
                        nb[t] = b[s]
                        record(name(s) + (name(mid) if cap1 else "") + name(t), nb, cap1 + cap2)
                # To where Q's power reaches whatever stands there, passing
                # over it, then on with its own power.
                for mid in power(base, q, c, s, regardless=True):
                    if mid not in base:
                        continue  # an empty square: the borrowed move above
                    for t in power(base, letter, c, mid):
                        if t == s:
                            continue
                        nb = dict(base)
                        cap = [nb.pop(t)] if t in nb else []
                        nb[t] = b[s]
                        record(name(s) + name(t), nb, cap)
        elif letter == "Z":
            for f in range(8):
                for r in range(8):
                    if (f, r) not in b:
                        nb = dict(base)
                        nb[(f, r)] = b[s]
                        record(name(s) + name((f, r)), nb, [])
        elif letter == "K":
            for u in KING_STEPS:
                t = add(s, u)
                if on(t) and (t not in b or b[t][0] != c):
                    nb = dict(base)
                    caps = [nb.pop(t)] if t in nb else []
                    nb[t] = b[s]
                    record(name(s) + name(t), nb, caps)
        elif letter == "P":
            fwd = 1 if c == "w" else -1
            steps = []
            t = add(s, (0, fwd))
            if on(t) and t not in b:
                steps.append((t, None))
                t2 = add(t, (0, fwd))
                if s[1] == (1 if c == "w" else 6) and t2 not in b:
                    steps.append((t2, None))
            for dx in (-1, 1):
                t = add(s, (dx, fwd))
                if on(t) and t in b and b[t][0] != c:
                    steps.append((t, None))
                elif on(t) and pos.ep == t and c == pos.side:
                    steps.append((t, (t[0], s[1])))
            for t, ep_victim in steps:
                nb = dict(base)
                if ep_victim:
                    caps = [nb.pop(ep_victim)]
                    text = name(s) + name(ep_victim) + name(t)
                else:
                    caps = [nb.pop(t)] if t in nb else []
                    text = name(s) + name(t)
                nb[t] = b[s]
                record(text, nb, caps)
                if t[1] == last_rank(c):
                    for x in sorted(set(pos.pool[c])):
                        nb2 = dict(nb)
                        nb2[t] = (c, x)
                        record(text + x, nb2, caps)
    return out


def king_attacked(board, c):
    king = [s for s, pc in board.items() if pc == (c, "K")]
    if not king:
        return False
    p = Pos()
    p.board = board
    for nb, caps in turns(p, other(c)).values():
        if (c, "K") in caps:
            return True
    return False


def legal(pos):
    me = pos.side
    res = {}
    for text, (nb, caps) in turns(pos, me).items():
        if king_attacked(nb, me):
            continue
        q = pos.copy()
        q.board = nb
        for col, letter in caps:
            if letter in REGULAR:
                q.pool[col].append(letter)
        # A Pawn swapped with a pooled piece takes it out of the pool.
        if text[-1] in REGULAR:
            q.pool[me].remove(text[-1])
        core = text[:-1] if text[-1] in REGULAR else text
        frm = (FILES.index(core[0]), int(core[1]) - 1)
        to = (FILES.index(core[-2]), int(core[-1]) - 1)
        mover = pos.board[frm]
        q.ep = None
        if mover[1] == "P" and abs(to[1] - frm[1]) == 2:
            q.ep = (frm[0], (frm[1] + to[1]) // 2)
        q.halfmove = 0 if caps else pos.halfmove + 1
        if me == "b":
            q.fullmove += 1
        q.side = other(me)
        res[text] = q
    return res


def over(pos, mine):
    if pos.halfmove >= 100:
        return "fifty"
    if not mine:
        return "mate" if king_attacked(pos.board, pos.side) else "stalemate"
    return None


def random_fen(rng):
    while True:
        p = Pos()
        squares = [(f, r) for f in range(8) for r in range(8)]
        rng.shuffle(squares)
        it = iter(squares)
        for c in "wb":
            p.board[next(it)] = (c, "K")
            for _ in range(rng.randint(2, 2)):
                p.board[next(it)] = (c, "Z") if rng.random() < 0.7 else None
            for _ in range(rng.randint(2, 9)):
                sq = next(it)
                letter = rng.choice("LHCMFPPP")
                if letter == "P" and sq[1] in (0, 7) and rng.random() < 0.7:
                    continue
                p.board[sq] = (c, letter)
            for _ in range(rng.randint(0, 2)):
                p.pool[c].append(rng.choice(REGULAR))
        p.board = {s: pc for s, pc in p.board.items() if pc}
        p.side = rng.choice("wb")
        p.halfmove = rng.choice((0, 10, 60))
        if not king_attacked(p.board, other(p.side)):
            return p.fen()


REFERENCE = ref_driver.Reference(
    start=Pos.parse,
    fen=lambda pos: pos.fen(),
    moves=legal,
    over=over,
    their_fen=normal_fen,
)

if __name__ == "__main__":
    ref_driver.main("lionized-chess", REFERENCE, START, random_fen)
