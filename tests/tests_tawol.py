"""tests_tawol.py — tawol (RULES.md section 4): perft against the reference counts, and exact legal
move lists of positions built by hand from the rules. [lower upper] is a two-level cell."""
import os

from harness import check, read_perft_table, test


def around(cell, reach, skip=()):
    """Cells 1..reach away from `cell` in the 8 directions on an empty board (for expected lists)."""
    f, r = ord(cell[0]) - 97, int(cell[1])
    out = []
    for df, dr in [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]:
        for k in range(1, reach + 1):
            nf, nr = f + df * k, r + dr * k
            if 0 <= nf < 8 and 1 <= nr <= 8:
                out.append("%s-%s%d" % (cell, chr(97 + nf), nr))
    return [m for m in out if m[3:] not in skip]


CASES = [
    ("a one-collar pawn steps one cell, 8 directions",
     "7a/8/8/8/3A4/8/8/8 w", around("d4", 1)),
    ("a two-collar pawn goes one or two cells",
     "7a/8/8/8/3B4/8/8/8 w", around("d4", 2)),
    ("a corner two-collar pawn",
     "7a/8/8/8/8/8/8/B7 w", ["a1-a2", "a1-a3", "a1-b1", "a1-c1", "a1-b2", "a1-c3"]),
    # black a d6 two cells ahead, and a second black pawn so that one may be blocked (limit 1)
    ("an attack goes exactly the full reach onto a free enemy pawn",
     "7a/8/3a4/8/3B4/8/8/8 w", around("d4", 2, skip=["d6"]) + ["d4xd6"]),
    ("a one-collar pawn cannot attack two cells away",
     "7a/8/3a4/8/3A4/8/8/8 w", around("d4", 1)),
    ("a two-collar pawn cannot attack next to it (exactly its reach)",
     "7a/8/8/3a4/3B4/8/8/8 w", around("d4", 2, skip=["d5", "d6"])),
    ("no jumping over own pieces",
     "7a/8/8/3A4/3B4/8/8/8 w", around("d4", 2, skip=["d5", "d6"]) + around("d5", 1, skip=["d4"])),
    ("a pawn takes an untaken tower (towers need no blocking room)",
     "8/8/8/4t3/3A4/8/8/8 w", around("d4", 1, skip=["e5"]) + ["d4xe5"]),
    ("a tower steps one cell",
     "7t/8/8/8/3T4/8/8/8 w", around("d4", 1)),
    ("a tower never attacks",
     "7a/8/8/3a4/3T4/8/8/8 w", around("d4", 1, skip=["d5"])),
    # the white B on the taken tower e5 has no other untaken tower at reach: it cannot move
    ("a taken tower cannot be attacked; a pawn on a tower never steps down",
     "7t/8/8/4[tB]3/3A4/8/8/8 w", around("d4", 1, skip=["e5"])),
    ("from tower to tower",
     "8/4t1t1/8/4[tB]3/8/8/8/8 w", ["e5xe7", "e5xg7"]),
    # black a on d6 carries a white A: not attackable; the blocking A may step down anywhere
    ("a pawn carrying another is not attackable; a blocking pawn steps down",
     "7a/8/3[aA]4/8/3B4/8/8/8 w", around("d4", 2, skip=["d6"]) + around("d6", 1)),
    # black pawns a1, d6, h8 (3 available): White may block one, and already does
    ("the blocking limit refuses a second block",
     "7a/8/3a4/8/3B4/8/8/[aA]7 w", around("d4", 2, skip=["d6"]) + ["a1-a2", "a1-b1", "a1-b2"]),
    ("with four enemy pawns available two may be blocked",
     "7a/7a/3a4/8/3B4/8/8/[aA]7 w", around("d4", 2, skip=["d6"]) + ["d4xd6", "a1-a2", "a1-b1", "a1-b2"]),
    # black b stands on the white tower h1: black has 1 available pawn, White blocks 1 > 0
    ("over the limit at the start of the turn: only releases",
     "8/8/8/8/3B4/8/1t6/[aA]5T[Tb] w", ["a1-a2", "a1-b1", "a1xb2"]),
    ("over the limit with no release: no legal move",
     "8/8/8/8/3B4/8/AA6/[aA]T4T[Tb] w", []),
    # White B on black a d4 hops onto black a d6: frees one, blocks one (limit 2 of 4)
    ("a blocking pawn attacks on to another pawn",
     "7a/7a/3a4/8/3[aB]4/8/8/8 w", around("d4", 2, skip=["d6"]) + ["d4xd6"]),
    ("a blocked pawn and a taken tower do not move",
     "a6t/8/8/4[tB]3/3[aA]4/8/8/8 b", ["a8-a7", "a8-b7", "a8-b8", "h8-g7", "h8-g8", "h8-h7"]),
    ("black pawns move in every direction too",
     "8/8/8/3a4/8/8/8/7A b", around("d5", 1)),
    ("every enemy tower taken: the game is over",
     "8/8/8/4[tA]3/8/8/8/T7 b", []),
]

AFTER = [
    ("8/4t1t1/8/4[tB]3/8/8/8/8 w", "e5xe7", "8/4[tB]1t1/8/4t3/8/8/8/8 b"),
    ("8/8/8/8/3B4/8/1t6/[aA]5T[Tb] w", "a1-a2", "8/8/8/8/3B4/8/At6/a5T[Tb] b"),
    ("7a/7a/3a4/8/3[aB]4/8/8/8 w", "d4xd6", "7a/7a/3[aB]4/8/3a4/8/8/8 b"),
    ("7a/8/3a4/8/3B4/8/8/8 w", "d4-d6", "7a/8/3[aB]4/8/8/8/8/8 b"),  # '-' accepted for an attack
]


@test("tawol")
def hand_built_move_lists(ctx):
    e = ctx.engine("tawol")
    for why, fen, expected in CASES:
        errors = e.errors_until_ready("position fen " + fen)
        check(not errors, "%s: %s" % (fen, errors))
        got = sorted(e.moves())
        check(got == sorted(expected), "%s\n      %s\n      got      %s\n      expected %s" % (
            why, fen, got, sorted(expected)))
    check(len(CASES) >= 20, "only %d positions" % len(CASES))


@test("tawol")
def moves_change_the_board_as_the_rules_say(ctx):
    e = ctx.engine("tawol")
    for fen, move, after in AFTER:
        errors = e.errors_until_ready("position fen %s moves %s" % (fen, move))
        check(not errors, errors)
        check(e.fen() == after, "%s %s: %s, expected %s" % (fen, move, e.fen(), after))


@test("tawol")
def game_ends(ctx):
    e = ctx.engine("tawol")
    e.send("position fen 8/8/8/4t3/3A4/8/8/T7 w moves d4xe5")
    check(e.result() == "white all towers taken", e.result())
    e.send("position fen 8/8/8/8/3B4/8/AA6/[aA]T4T[Tb] w")
    check(e.result() == "black no legal move", e.result())
    lines = e.go("depth 3")
    check(lines[-1] == "bestmove (none)", lines[-1])


@test("tawol")
def fen_forms(ctx):
    e = ctx.engine("tawol")
    for bad in ["8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/[TA]7 w", "8/8/8/8/8/8/8/[At]7 w", "8/8/8/8/8/8/8/[A]7 w",
                "8/8/8/8/8/8/8/X7 w", "TTTTTTTT/T7/8/8/8/8/8/8 w", "AAAAAA2/8/8/8/8/8/8/8 w",
                "8/8/8/8/8/8/8/[Ab 7 w", "9/8/8/8/8/8/8/8 w", "8/8/8/8/8/8/8/8 q"]:
        errors = e.errors_until_ready("position fen " + bad)
        check(errors, "bad FEN accepted: " + bad)


@test("perft", sanitizers=False)
def perft_tawol_start(ctx):
    full = os.environ.get("DONJON_FULL_PERFT") == "1"
    e = ctx.engine("tawol")
    for variant, fen, counts in read_perft_table("perft_games.txt"):
        if variant != "tawol":
            continue
        e.send("position fen " + fen)
        for depth, expected in enumerate(counts, start=1):
            if depth > 3 and not full:
                break
            total, split = e.perft(depth, timeout=600)
            check(total == expected, "tawol perft(%d) = %d, expected %d" % (depth, total, expected))


@test("tawol")
def shallow_search_ends_among_chains_of_attacks(ctx):
    # a middlegame where attacks (which take nothing) can chain without end: quiescence must stop
    e = ctx.engine("tawol")
    moves = ("e3-e4 d6-d5 d3-d4 e6-f5 e4-d3 f5-e6 d4xd5 e6-f6 h2-f4 f6-g6 f2-h4 c7-c6 c2-b3 c6-e6 d3-b5 e6-f6 h4-h5 "
             "e7-e5 h5xh7 f6xf4 b5xd7 e5-e4 e2-f3 e4-d3 d2-b4 d3xb1 b4-b5 b7-a6 b5-c5 f4-e5 c5-c6 g6-g5")
    e.send("position startpos moves " + moves)
    for depth in (1, 3):
        lines = e.go("depth %d" % depth, timeout=20 * ctx.slow)
        check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("tawol")
def quiescence_sees_the_last_tower_taken(ctx):
    # seven White towers taken, h1 untaken; Black's one-collar pawn on g2 attacks it exactly one
    # cell away (g2xh1) and wins at once: a depth-1 search must score the win, which only holds
    # if quiescence, at the child, does not stand pat in a finished game
    e = ctx.engine("tawol")
    e.send("position fen tttttttt/b1b5/8/8/A1B5/ABABABAB/6a1/[Ta][Ta][Ta][Ta][Tb][Tb][Tb]T b")
    lines = e.go("depth 1")
    check(lines[-1] == "bestmove g2xh1", lines[-1])
    check(any(" score mate 1 " in line for line in lines), lines)
