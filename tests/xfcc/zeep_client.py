"""An independent Xfcc client for tests/it/xfcc.rs: zeep (PyPI, pinned in
.ci/run) reads the server's WSDL and plays through it as a correspondence
program would. Arguments: the WSDL address, then White's and Black's
username and app password, and the game's id. Prints what it was answered,
as JSON, for the Rust test to check."""

import json
import sys

import zeep
from zeep.helpers import serialize_object

wsdl, white, white_pw, black, black_pw, game = sys.argv[1:7]
game = int(game)
client = zeep.Client(wsdl)
service = client.service


def move(op, user, pw, text, count, message="", **flags):
    args = dict(
        username=user,
        password=pw,
        gameId=game,
        resign=False,
        acceptDraw=False,
        movecount=count,
        myMove=text,
        offerDraw=False,
        claimDraw=False,
        myMessage=message,
    )
    args.update(flags)
    return getattr(service, op)(**args)


def games(user, pw):
    found = serialize_object(service.GetMyGames(username=user, password=pw))
    if found is None:
        return []
    # zeep flattens the one-field array type to a list.
    if isinstance(found, dict):
        found = found["XfccGame"]
    return [dict(g) for g in found]


out = {}
out["games_before"] = games(white, white_pw)
out["first_move"] = move("MakeAMove", white, white_pw, "e4", 1)
out["again"] = move("MakeAMove", white, white_pw, "d4", 2)
out["black_games"] = games(black, black_pw)
out["answer"] = move("MakeAMove2", black, black_pw, "e5", 1, message="well met")
out["illegal"] = move("MakeAMove", white, white_pw, "Ke3", 2)
out["wrong_number"] = move("MakeAMove", white, white_pw, "Nf3", 5)
out["bad_password"] = move("MakeAMove", white, "not-the-app-password", "Nf3", 2)
out["not_a_game"] = move("MakeAMove", white, white_pw, "Nf3", 2, gameId=999999)
out["account_password"] = None
try:
    service.GetMyGames(username=white, password="correct horse battery")
except zeep.exceptions.Fault as fault:
    out["account_password"] = fault.message
out["second_move"] = move("MakeAMove2", white, white_pw, "Nf3", 2, offerDraw=True)
out["games_after"] = games(white, white_pw)
print(json.dumps(out, default=str))
