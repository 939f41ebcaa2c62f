#!/usr/bin/env python3
"""An independent generator of Leap Chess with multiple captures
(`leap-chess-multi`), the one Leap Chess form Fairy-Stockfish cannot express
(`tools/fsf_diff.py` checks the others), and a differential test of Missive's
against it.

Written from `shared/seeds/leap-chess.txt` and the Leap Chess section of
`shared/rulings.md` only: capture chains enumerated link by link, check found
by trying every enemy capture. Shares only the FEN and the coordinate move
form (`b1c3`, `c3e5c7` for a chain, `c7c8q` for a promotion, castling `d1e1`
and `d1b1`) with Missive.

    cargo build --release
    python3 tools/leap_multi_ref.py --games 200 --binary target/release/missive
"""
import ref_driver

FILES = "abcdef"
HOLES = {(0, 0), (5, 0), (0, 7), (5, 7)}
START = "*nqkn*/rpbbpr/pppppp/6/6/PPPPPP/RPBBPR/*NQKN* w KQkq - 0 1"
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
ALFIL = [(2, 2), (2, -2), (-2, 2), (-2, -2)]
DABBABAH = [(2, 0), (-2, 0), (0, 2), (0, -2)]
# FEN letters: q Sail, r Dabbabah, b Alfil (the pieces they replace).
LEAPS = {"K": KING, "N": KNIGHT, "B": ALFIL, "R": DABBABAH, "Q": ALFIL + DABBABAH}
PROMOTIONS = "QRBN"


def square(sq):
    return 0 <= sq[0] < 6 and 0 <= sq[1] < 8 and sq not in HOLES


def name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def other(c):
    return "b" if c == "w" else "w"


class Pos:
    def __init__(self):
        self.board = {}
        self.side = "w"
        self.castling = ""
        self.ep = None
        self.halfmove = 0
        self.fullmove = 1

    def copy(self):
        p = Pos()
        p.board = dict(self.board)
        p.side, p.castling, p.ep = self.side, self.castling, self.ep
        p.halfmove, p.fullmove = self.halfmove, self.fullmove
        return p

    @staticmethod
    def parse(fen):
        p = Pos()
        f = fen.split()
        for i, row in enumerate(f[0].split("/")):
            x = 0
            for ch in row:
                if ch.isdigit():
                    x += int(ch)
                elif ch == "*":
                    x += 1
                else:
                    p.board[(x, 7 - i)] = ("w" if ch.isupper() else "b", ch.upper())
                    x += 1
        p.side = f[1]
        p.castling = "" if f[2] == "-" else f[2]
        p.ep = None if f[3] == "-" else (FILES.index(f[3][0]), int(f[3][1:]) - 1)
        p.halfmove, p.fullmove = int(f[4]), int(f[5])
        return p

    def fen(self):
        """Board, side, castling rights and clocks (the en passant field is
        compared through the moves it allows)."""
        rows = []
        for r in range(7, -1, -1):
            row, run = "", 0
            for x in range(6):
                sq = (x, r)
                if sq in HOLES or sq in self.board:
                    if run:
                        row += str(run)
                        run = 0
                    if sq in HOLES:
                        row += "*"
                    else:
                        c, k = self.board[sq]
                        row += k if c == "w" else k.lower()
                else:
                    run += 1
            rows.append(row + (str(run) if run else ""))
        return f"{'/'.join(rows)} {self.side} {self.castling or '-'} {self.halfmove} {self.fullmove}"

    def key(self):
        return (tuple(sorted(self.board.items())), self.side, self.castling, self.ep)


def their_fen(fen):
    f = fen.split()
    return " ".join(f[:3] + f[4:])


def captures_from(board, s, c, ep=None, kings=False):
    """(to, captured square) for each capture the piece on s can make; an
    enemy King is a target only when looking for check (`kings`)."""
    kind = board[s][1]
    out = []
    if kind == "P":
        fwd = 1 if c == "w" else -1
        for dx in (-1, 1):
            t = (s[0] + dx, s[1] + fwd)
            if square(t) and t in board and board[t][0] != c and (kings or board[t][1] != "K"):
                out.append((t, t))
            elif ep is not None and t == ep and board.get((t[0], s[1])) == (other(c), "P"):
                # The Pawn that double-stepped, while it stands: also
                # within a chain (Missive's reading, `multi_en_passant_*`).
                out.append((t, (t[0], s[1])))
    else:
        for v in LEAPS[kind]:
            t = add(s, v)
            if square(t) and t in board and board[t][0] != c and (kings or board[t][1] != "K"):
                out.append((t, t))
    return out


def attacked(board, sq, by):
    for s, (c, _) in board.items():
        if c == by and any(t == sq for t, _ in captures_from(board, s, by, kings=True)):
            return True
    return False


def in_check(board, c):
    kings = [s for s, p in board.items() if p == (c, "K")]
    return bool(kings) and attacked(board, kings[0], other(c))


def last_rank(c):
    return 7 if c == "w" else 0


def promote(board, t, c):
    """The boards after a Pawn on t (its last rank) promotes: (letter, board)."""
    out = []
    for x in PROMOTIONS:
        nb = dict(board)
        nb[t] = (c, x)
        out.append((x.lower(), nb))
    return out


def chains(board, s, c, ep):
    """Every capture turn of the piece on s: (squares visited, board after,
    captured). A piece that has captured goes on capturing while it can."""
    out = []

    def go(b, at, path, first):
        more = captures_from(b, at, c, ep)
        if not more and not first:
            out.append((path, b))
            return
        for t, victim in more:
            nb = dict(b)
            piece = nb.pop(at)
            del nb[victim]
            nb[t] = piece
            if piece[1] == "P" and t[1] == last_rank(c):
                # Promotion ends the Pawn's chain: it is a new piece now.
                for letter, pb in promote(nb, t, c):
                    out.append((path + [t], pb, letter))
                continue
            go(nb, t, path + [t], False)

    go(board, s, [s], True)
    return [(p[0], p[1], p[2] if len(p) > 2 else "") for p in out]


def pseudo(pos):
    """(text, board after, captured something, pawn moved, castling lost)."""
    me = pos.side
    b = pos.board
    caps, quiet = [], []
    for s, (c, kind) in list(b.items()):
        if c != me:
            continue
        for path, nb, letter in chains(b, s, me, pos.ep):
            caps.append(("".join(name(q) for q in path) + letter, nb, kind == "P", s))
        if kind == "P":
            fwd = 1 if me == "w" else -1
            t = (s[0], s[1] + fwd)
            if square(t) and t not in b:
                nb = dict(b)
                nb[t] = nb.pop(s)
                if t[1] == last_rank(me):
                    for letter, pb in promote(nb, t, me):
                        quiet.append((name(s) + name(t) + letter, pb, True, s))
                else:
                    quiet.append((name(s) + name(t), nb, True, s))
                t2 = (s[0], s[1] + 2 * fwd)
                if s[1] == (1 if me == "w" else 6) and square(t2) and t2 not in b:
                    nb = dict(b)
                    nb[t2] = nb.pop(s)
                    quiet.append((name(s) + name(t2), nb, True, s))
        else:
            for v in LEAPS[kind]:
                t = add(s, v)
                if square(t) and t not in b:
                    nb = dict(b)
                    nb[t] = nb.pop(s)
                    quiet.append((name(s) + name(t), nb, False, s))
    # Castling with the Knights (never a capture).
    r = 0 if me == "w" else 7
    king, rights = (3, r), ("K", "Q") if me == "w" else ("k", "q")
    if b.get(king) == (me, "K") and not in_check(b, me):
        if rights[0] in pos.castling and b.get((4, r)) == (me, "N"):
            nb = dict(b)
            nb[(4, r)], nb[king] = (me, "K"), (me, "N")
            quiet.append((name(king) + name((4, r)), nb, False, king))
        if rights[1] in pos.castling and b.get((1, r)) == (me, "N") and (2, r) not in b:
            nb = dict(b)
            del nb[(1, r)]
            nb[(2, r)], nb[king] = (me, "K"), (me, "N")
            quiet.append((name(king) + name((1, r)), nb, False, king))
    return caps, quiet


def legal(pos):
    """text -> Pos after. Captures are compulsory: only legal ones count."""
    me = pos.side
    caps, quiet = pseudo(pos)
    caps = [m for m in caps if not in_check(m[1], me)]
    chosen = caps if caps else [m for m in quiet if not in_check(m[1], me)]
    out = {}
    for text, nb, pawn, frm in chosen:
        q = pos.copy()
        q.board = nb
        captured = len(nb) < len(pos.board)
        q.halfmove = 0 if captured or pawn else pos.halfmove + 1
        if me == "b":
            q.fullmove += 1
        q.side = other(me)
        q.ep = None
        if pawn and not captured and abs(int(text[3:4]) - int(text[1:2])) == 2:
            q.ep = (frm[0], frm[1] + (1 if me == "w" else -1))
        # Rights go with a King or Knight leaving (or being taken from) its square.
        for right, sq in (("K", (4, 0)), ("Q", (1, 0)), ("k", (4, 7)), ("q", (1, 7))):
            home = "w" if right.isupper() else "b"
            if nb.get(sq) != (home, "N") or nb.get((3, sq[1])) != (home, "K"):
                q.castling = q.castling.replace(right, "")
        out[text] = q
    return out


def bare(board, c):
    return all(k == "K" for (cc, k) in board.values() if cc == c)


start, moves = ref_driver.counting(Pos.parse, legal, Pos.key)


def over(state, mine):
    pos, counts = state
    if bare(pos.board, "w") or bare(pos.board, "b"):
        return "bare king"
    if counts.get(pos.key(), 0) >= 3:
        return "repetition"
    if pos.halfmove >= 100:
        return "fifty"
    if not mine:
        return "no moves (mated or stalemated: a loss)"
    return None


def random_fen(rng):
    while True:
        p = Pos()
        squares = [(x, y) for x in range(6) for y in range(8) if (x, y) not in HOLES]
        rng.shuffle(squares)
        it = iter(squares)
        for c in "wb":
            p.board[next(it)] = (c, "K")
            for _ in range(rng.randint(2, 8)):
                sq = next(it)
                kind = rng.choice("PPPNBRQ")
                if kind == "P" and sq[1] in (0, 7):
                    continue
                p.board[sq] = (c, kind)
        p.side = rng.choice("wb")
        if not in_check(p.board, other(p.side)):
            return f"{p.fen().split()[0]} {p.side} - - 0 1"


REFERENCE = ref_driver.Reference(
    start=start,
    fen=lambda state: state[0].fen(),
    moves=moves,
    over=over,
    their_fen=their_fen,
)

if __name__ == "__main__":
    ref_driver.main("leap-chess-multi", REFERENCE, START, random_fen)
