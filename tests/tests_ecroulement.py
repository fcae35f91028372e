"""tests_ecroulement.py — ecroulement and ecroulement-rapide (RULES.md section 2): perft against the
reference counts, and exact legal move lists of positions built by hand from the rules."""
import os

from harness import check, read_perft_table, test

# (why, FEN, moves in ecroulement, moves in ecroulement-rapide) — each derived by hand
CASES = [
    ("two singles side by side build either way",
     "7B/8/8/8/8/8/8/WW6 w", ["a1-b1", "b1-a1"], None),
    ("a run of three: every part, either direction",
     "7B/8/8/8/8/8/8/WWW5 w", ["a1-b1", "a1-c1", "b1-a1", "b1-c1", "c1-a1", "c1-b1"], None),
    ("a diagonal run",
     "7B/8/8/8/8/2W5/1W6/W7 w", ["a1-b2", "a1-c3", "b2-a1", "b2-c3", "c3-a1", "c3-b2"], None),
    ("a vertical run of four: all twelve ordered pairs",
     "7B/8/8/8/W7/W7/W7/W7 w",
     ["a1-a2", "a1-a3", "a1-a4", "a2-a1", "a2-a3", "a2-a4", "a3-a1", "a3-a2", "a3-a4", "a4-a1", "a4-a2", "a4-a3"],
     None),
    ("a lone single cannot move: no legal move",
     "7B/8/8/8/3W4/8/8/8 w", [], None),
    ("a build never jumps an empty cell",
     "7B/8/8/8/8/8/8/W1W5 w", [], None),
    ("a build never jumps an enemy pawn",
     "7B/8/8/8/8/8/8/WBW5 w", [], None),
    # a1 W, b1 W(2), c1 W: the muret splits the run; it collapses onto a1, c1 (own singles) or up
    ("a build is blocked by a stack; a muret collapses onto own singles",
     "7B/8/8/8/8/8/8/WW(2)W5 w", ["b1-a1", "b1-a2", "b1-b2", "b1-c1", "b1-c2"], None),
    ("a collapse must stay on the board",
     "7B/8/8/8/8/8/8/1W(3)6 w", ["b1-b3", "b1-d1", "b1-d3"], None),
    ("a collapse never lands on an own stack",
     "7B/8/8/8/3W(2)W(2)3/8/8/8 w",
     ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5", "e4-d3", "e4-d5", "e4-e3", "e4-e5", "e4-f3",
      "e4-f4", "e4-f5"], None),
    ("onto an enemy pawn: illegal in the plain game, a capture in rapide",
     "7B/8/8/8/3W(2)B3/8/8/8 w",
     ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5"],
     ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5", "d4xe4"]),
    ("the top pawn just beyond the last pawn placed (plain only)",
     "8/8/8/8/3W(2)1B(3)2/8/8/8 w",
     ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5", "d4xe4"],
     ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e5", "d4-e4"]),
    ("rapide takes every enemy stack the collapse covers",
     "7B/8/8/8/8/8/8/W(4)BB(2)B4 w", ["a1-a4", "a1-d4"], ["a1-a4", "a1-d4", "a1xd1"]),
    ("a tower collapses over own singles, making murets",
     "7B/8/8/4W3/3W4/2W(3)5/8/8 w",
     ["c3-a1", "c3-a3", "c3-a5", "c3-c1", "c3-c5", "c3-e1", "c3-e3", "c3-e5", "d4-e5", "e5-d4"], None),
    ("black builds too",
     "6BB/8/8/8/8/8/8/W7 b", ["g8-h8", "h8-g8"], None),
    ("a side without pawns has no move",
     "8/8/8/8/8/8/8/W7 b", [], None),
    ("beyond captures one pawn from a tall stack or a single",
     "8/8/8/8/B7/8/8/W(3)2B(5)4 w", ["a1-c3", "a1xa3", "a1xc1"], ["a1-a3", "a1-c1", "a1-c3"]),
    ("rapide replaces a whole tower by the pawn placed",
     "7B/8/8/8/8/8/8/W(2)B(7)6 w", ["a1-a2", "a1-b2"], ["a1-a2", "a1-b2", "a1xb1"]),
    ("a corner muret has three directions",
     "7W(2)/8/8/8/8/8/8/B7 w", ["h8-g7", "h8-g8", "h8-h7"], None),
    ("a black tower collapses down the board",
     "8/8/8/3B(3)4/8/8/8/W7 b",
     ["d5-b3", "d5-b5", "d5-b7", "d5-d3", "d5-d7", "d5-f3", "d5-f5", "d5-f7"], None),
    # W(2) a1 to b1 with a black single on c1 beyond: plain captures it; rapide does not
    ("a capture that empties the cell beyond",
     "7B/8/8/8/8/8/8/W(2)1B5 w", ["a1-a2", "a1-b2", "a1xb1"], ["a1-a2", "a1-b1", "a1-b2"]),
]

# (variant, FEN, move, FEN after) — the make of captures and collapses, by hand
AFTER = [
    ("ecroulement", "8/8/8/8/3W(2)1B(3)2/8/8/8 w", "d4xe4", "8/8/8/8/3WWB(2)2/8/8/8 b"),
    ("ecroulement-rapide", "8/8/8/8/3W(2)1B(3)2/8/8/8 w", "d4-e4", "8/8/8/8/3WWB(3)2/8/8/8 b"),
    ("ecroulement-rapide", "7B/8/8/8/8/8/8/W(4)BB(2)B4 w", "a1xd1", "7B/8/8/8/8/8/8/WWWW4 b"),
    ("ecroulement", "8/8/8/8/B7/8/8/W(3)2B(5)4 w", "a1xc1", "8/8/8/8/B7/8/8/WWWB(4)4 b"),
    ("ecroulement", "8/8/8/8/B7/8/8/W(3)2B(5)4 w", "a1xa3", "8/8/8/8/8/W7/W7/W2B(5)4 b"),
    ("ecroulement", "7B/8/8/4W3/3W4/2W(3)5/8/8 w", "c3-e5", "7B/8/8/4W(2)3/3W(2)4/2W5/8/8 b"),
    ("ecroulement", "7B/8/8/8/W7/W7/W7/W7 w", "a1-a3", "7B/8/8/8/W7/W(3)7/8/8 b"),
    ("ecroulement-rapide", "7B/8/8/8/8/8/8/W(2)B(7)6 w", "a1-b1", "7B/8/8/8/8/8/8/WW6 b"),  # '-' accepted
]


@test("ecroulement")
def hand_built_move_lists(ctx):
    for variant in ["ecroulement", "ecroulement-rapide"]:
        e = ctx.engine(variant)
        for why, fen, plain, rapid in CASES:
            expected = sorted(rapid if (variant == "ecroulement-rapide" and rapid is not None) else plain)
            errors = e.errors_until_ready("position fen " + fen)
            check(not errors, "%s: %s" % (fen, errors))
            got = sorted(e.moves())
            check(got == expected, "%s: %s\n      %s\n      got      %s\n      expected %s" % (
                variant, why, fen, got, expected))
    check(len(CASES) >= 20, "only %d positions" % len(CASES))


@test("ecroulement")
def moves_change_the_board_as_the_rules_say(ctx):
    engines = {}
    for variant, fen, move, after in AFTER:
        e = engines.setdefault(variant, ctx.engine(variant))
        errors = e.errors_until_ready("position fen %s moves %s" % (fen, move))
        check(not errors, "%s %s: %s" % (fen, move, errors))
        check(e.fen() == after, "%s %s %s: %s, expected %s" % (variant, fen, move, e.fen(), after))


@test("ecroulement")
def no_legal_move_loses(ctx):
    for variant in ["ecroulement", "ecroulement-rapide"]:
        e = ctx.engine(variant)
        e.send("position fen 7B/8/8/8/3W4/8/8/8 w")
        check(e.result() == "black no legal move", e.result())
        lines = e.go("depth 4")
        check(lines[-1] == "bestmove (none)", lines[-1])
        e.send("position fen 8/8/8/8/8/8/8/W7 b")
        check(e.result() == "white no pawns left", e.result())
        e.send("position fen 7B/8/8/8/8/8/8/W(4)BB(2)B4 w moves a1-a4")
        check(e.result() == "none", e.result())


@test("ecroulement")
def search_sees_the_last_pawn_taken(ctx):
    # White's muret on a1 collapses east onto b1 and takes Black's last pawn: beyond it on c1
    # (ecroulement), or on b1 itself (rapide); Black is then left without pawns and has lost, which
    # a depth-1 search sees only if quiescence does not stand pat in the finished game
    for variant, fen in [("ecroulement", "8/8/8/8/8/8/8/W(2)1B5 w"), ("ecroulement-rapide", "8/8/8/8/8/8/8/W(2)B6 w")]:
        e = ctx.engine(variant)
        e.send("position fen " + fen)
        lines = e.go("depth 1")
        check(lines[-1] == "bestmove a1xb1", "%s: %s" % (variant, lines[-1]))
        check(any(" score mate 1 " in line for line in lines), "%s: %s" % (variant, lines))


@test("ecroulement")
def fen_forms(ctx):
    e = ctx.engine("ecroulement")
    for bad in ["8/8/8/8/8/8/8/8", "9/8/8/8/8/8/8/8 w", "8/8/8/8/8/8/8/W(16)7 w", "8/8/8/8/8/8/8/W(0)7 w",
                "8/8/8/8/8/8/8/X7 w", "8/8/8/8/8/8/8/W(3 w", "W(8)7/W(8)7/8/8/8/8/8/8 w", "8/8/8/8/8/8/8/8 x",
                "8/8/8/8/8/8/8/W(2)W(2)W(2)W(2)W(2)W(2)W(2)W(2)W w"]:
        errors = e.errors_until_ready("position fen " + bad)
        check(errors, "bad FEN accepted: " + bad)
    e.send("position fen 8/8/8/8/8/8/8/W(1)7 w")
    check(e.fen() == "8/8/8/8/8/8/8/W7 w", e.fen())


@test("perft", sanitizers=False)
def perft_ecroulement_start(ctx):
    full = os.environ.get("DONJON_FULL_PERFT") == "1"
    for variant, fen, counts in read_perft_table("perft_games.txt"):
        if not variant.startswith("ecroulement"):
            continue
        e = ctx.engine(variant)
        e.send("position fen " + fen)
        for depth, expected in enumerate(counts, start=1):
            if depth > 3 and not full:
                break
            total, split = e.perft(depth, timeout=600)
            check(total == expected, "%s perft(%d) = %d, expected %d" % (variant, depth, total, expected))
