#!/usr/bin/env python3
"""Read a TRF file on standard input with the caissify-pairings parser (the
oracle's) and print what it understood as JSON: per player the starting
number, name, points and round results [opponent or 0, colour, result]."""

import json
import sys

from caissify_pairings.trf import TRFParser

parsed = TRFParser(sys.stdin.read()).parse()
print(json.dumps({
    "name": parsed["tournament"].get("name"),
    "rounds": parsed["tournament"].get("total_rounds"),
    "players": [
        {
            "number": p["starting_number"],
            "name": p["name"],
            "score": p["score"],
            "results": {
                str(r): [e["opponent"] or 0, e["color"] or "-", e["result"]]
                for r, e in sorted(p["results"].items())
            },
        }
        for p in parsed["players"]
    ],
}))
