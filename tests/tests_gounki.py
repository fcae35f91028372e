"""tests_gounki.py — gounki (RULES.md section 1): perft against the reference counts, and the exact
legal move list of positions built by hand from the rules. White moves up (towards row 8)."""
from harness import check, read_perft_table, test


def moves_in(ctx, fen, handicap=None):
    e = ctx.engine("gounki")
    if handicap:
        e.send("setoption name Handicap value " + handicap)
    errors = e.errors_until_ready("position fen " + fen)
    check(not errors, "%s: %s" % (fen, errors))
    return sorted(e.moves()), e


# (why, FEN, exact legal moves) — each list derived by hand from RULES.md section 1
CASES = [
    ("a single round steps diagonally forward",
     "r7/8/8/8/3R4/8/8/8 w", ["d4-c5", "d4-e5"]),
    ("a single square steps forward or sideways",
     "r7/8/8/8/3S4/8/8/8 w", ["d4-c4", "d4-d5", "d4-e4"]),
    ("a first step never leaves through a side edge (round on a4)",
     "r7/8/8/8/R7/8/8/8 w", ["a4-b5"]),
    ("a first step never leaves through a side edge (square on h4)",
     "r7/8/8/8/7S/8/8/8 w", ["h4-g4", "h4-h5"]),
    # seed: a double round on g2 going up-right passes h3 and bounces onto g4, capturing there;
    # the same direction cannot deploy (g4 is an enemy cell)
    ("double round on g2 captures g4 through h3 (bounce)",
     "8/8/8/8/6s1/8/6(RR)1/8 w", ["g2*f3,e4", "g2-e4", "g2-f3", "g2-h3", "g2xg4"]),
    # (SSS) b4: left a4, bounce back over the empty origin b4, on to c4 = b4-c4 again (one move);
    # the deployment may place a piece back on its origin
    ("squares bounce sideways past their origin; duplicates count once",
     "7r/8/8/8/1(SSS)6/8/8/8 w",
     ["b4*a4,b4,c4", "b4*b5,b6,b7", "b4*c4,d4,e4", "b4-a4", "b4-b5", "b4-b6", "b4-b7", "b4-c4", "b4-d4",
      "b4-e4"]),
    # RULES.md examples: (SS) g4 may deploy g4*h4,g4; no displacement ends on g4 itself
    ("(SS) on g4 deploys g4*h4,g4",
     "r7/8/8/8/6(SS)1/8/8/8 w",
     ["g4*f4,e4", "g4*g5,g6", "g4*h4,g4", "g4-e4", "g4-f4", "g4-g5", "g4-g6", "g4-h4"]),
    ("(SSS) on f4 deploys f4*g4,h4,g4",
     "r7/8/8/8/5(SSS)2/8/8/8 w",
     ["f4*e4,d4,c4", "f4*f5,f6,f7", "f4*g4,h4,g4", "f4-c4", "f4-d4", "f4-e4", "f4-f5", "f4-f6", "f4-f7", "f4-g4",
      "f4-h4"]),
    ("a double round on h2 cannot start up-right",
     "r7/8/8/8/8/8/7(RR)/8 w", ["h2*g3,f4", "h2-f4", "h2-g3"]),
    ("a round on c8 exits on either side",
     "2R5/8/8/8/8/8/8/r7 w", ["c8-b9", "c8-d9"]),
    ("a square on c8 exits straight ahead",
     "2S5/8/8/8/8/8/8/r7 w", ["c8-b8", "c8-c9", "c8-d8"]),
    ("corner: a round on h8 cannot step up-right (side and far edge at once)",
     "7R/8/8/8/8/8/8/r7 w", ["h8-g9"]),
    # (RR) g7 up-right: h8, then i9 bounces: the exit file is g (g9)
    ("exit file after a bounce",
     "8/6(RR)1/8/8/8/8/8/r7 w", ["g7*f8,e9", "g7*h8,g9", "g7-e9", "g7-f8", "g7-g9", "g7-h8"]),
    # seed example a6*a7,b8,c9: (RRS) on a6; squares-first via b6 bounces a7 -> b8
    ("(RRS) on a6: every displacement and deployment, a6*a7,b8,c9 wins",
     "8/8/(RRS)7/8/8/8/8/7s w",
     ["a6*a7,b8,c9", "a6*b6,a7,b8", "a6*b6,c7,d8", "a6*b7,c8,b8", "a6*b7,c8,c9", "a6*b7,c8,d8", "a6-a7", "a6-b6",
      "a6-b7", "a6-c8"]),
    # (SS) d8: forward exits at once: that is the displacement d8-d9 only, never a deployment
    ("a deployment's first step never exits",
     "3(SS)4/8/8/8/8/8/8/r7 w", ["d8*c8,b8", "d8*e8,f8", "d8-b8", "d8-c8", "d8-d9", "d8-e8", "d8-f8"]),
    # (SS) d4 next to own (RR) e4: moving onto it would make 4; deploying one square makes 3
    ("stacking limit: displacement refused, deployment allowed",
     "r7/8/8/8/3(SS)(RR)3/8/8/8 w",
     ["d4*c4,b4", "d4*d5,d6", "d4*e4,f4", "d4-b4", "d4-c4", "d4-d5", "d4-d6", "e4*d5,c6", "e4*f5,g6", "e4-c6",
      "e4-d5", "e4-f5", "e4-g6"]),
    # (SSS) f4 deploying right puts a 3rd piece on g4, then h4, then would put a 4th on g4
    ("stacking limit holds at every placement of a deployment",
     "r7/8/8/8/5(SSS)(RR)1/8/8/8 w",
     ["f4*e4,d4,c4", "f4*f5,f6,f7", "f4-c4", "f4-d4", "f4-e4", "f4-f5", "f4-f6", "f4-f7", "g4*f5,e6", "g4*h5,g6",
      "g4-e6", "g4-f5", "g4-g6", "g4-h5"]),
    ("a whole enemy stack is captured",
     "s7/8/8/4(rrs)3/3R4/8/8/8 w", ["d4-c5", "d4xe5"]),
    # (RR) c3 merges onto its own S d4 (3 pieces) and cannot pass it; S d4 moves too
    ("merging onto own pieces stops a displacement",
     "r7/8/8/8/3S4/2(RR)5/8/8 w",
     ["c3*b4,a5", "c3*d4,e5", "c3-a5", "c3-b4", "c3-d4", "d4-c4", "d4-d5", "d4-e4"]),
    ("an enemy piece is captured, never passed, never deployed onto",
     "8/8/8/8/3s4/2(RR)5/8/8 w", ["c3*b4,a5", "c3-a5", "c3-b4", "c3xd4"]),
    ("a double square captures at its second step",
     "8/8/8/8/3r4/8/3(SS)4/8 w",
     ["d2*c2,b2", "d2*e2,f2", "d2-b2", "d2-c2", "d2-d3", "d2-e2", "d2-f2", "d2xd4"]),
    ("(RR) cannot merge onto (SS): it would hold 4",
     "r7/8/8/8/3(SS)4/2(RR)5/8/8 w",
     ["c3*b4,a5", "c3*d4,e5", "c3-a5", "c3-b4", "d4*c4,b4", "d4*d5,d6", "d4*e4,f4", "d4-b4", "d4-c4", "d4-d5",
      "d4-d6", "d4-e4", "d4-f4"]),
    # (RS) d4: rounds-first (c5 or e5, then a square) and squares-first (c4, d5 or e4, then a round)
    ("a mixed pair deploys in either order, one direction per group",
     "r7/8/8/8/3(RS)4/8/8/8 w",
     ["d4*c4,b5", "d4*c4,d5", "d4*c5,b5", "d4*c5,c6", "d4*c5,d5", "d4*d5,c6", "d4*d5,e6", "d4*e4,d5", "d4*e4,f5",
      "d4*e5,d5", "d4*e5,e6", "d4*e5,f5", "d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"]),
    ("deployments avoid enemy cells; the displacement captures",
     "r7/8/8/3s4/3(RS)4/8/8/8 w",
     ["d4*c4,b5", "d4*c5,b5", "d4*c5,c6", "d4*e4,f5", "d4*e5,e6", "d4*e5,f5", "d4-c4", "d4-c5", "d4-e4", "d4-e5",
      "d4xd5"]),
    ("black rounds step down the board",
     "8/8/8/3r4/8/8/8/7R b", ["d5-c4", "d5-e4"]),
    ("a black square exits through row 0",
     "7R/8/8/8/8/8/8/4s3 b", ["e1-d1", "e1-e0", "e1-f1"]),
    # (rr) b2 down-left: a1, then bounces and exits at b0; down-right: c1, then exits at d0
    ("black double round exits after a bounce",
     "7R/8/8/8/8/8/1(rr)6/8 b", ["b2*a1,b0", "b2*c1,d0", "b2-a1", "b2-b0", "b2-c1", "b2-d0"]),
    # (RS) c8: rounds-first would exit on the deployment's first step (that is the displacement);
    # squares-first puts the square on b8 or d8, and the round group's first step may exit
    ("the second group's first step may exit",
     "2(RS)5/8/8/8/8/8/8/r7 w",
     ["c8*b8,a9", "c8*b8,c9", "c8*d8,c9", "c8*d8,e9", "c8-b8", "c8-b9", "c8-c9", "c8-d8", "c8-d9"]),
    ("the side to move has no pieces: the game is over",
     "8/8/8/8/3R4/8/8/8 b", []),
    ("the opponent has no pieces: the game is over",
     "8/8/8/8/3R4/8/8/8 w", []),
]


@test("gounki")
def hand_built_move_lists(ctx):
    e = ctx.engine("gounki")
    for why, fen, expected in CASES:
        errors = e.errors_until_ready("position fen " + fen)
        check(not errors, "%s: %s" % (fen, errors))
        got = sorted(e.moves())
        check(got == sorted(expected), "%s\n      %s\n      got      %s\n      expected %s" % (
            why, fen, got, sorted(expected)))
        total, _ = e.perft(1)
        check(total == len(expected), "%s: perft(1) %d" % (why, total))
    check(len(CASES) >= 30, "only %d positions" % len(CASES))


@test("gounki")
def handicap_center(ctx):
    # Black may exit only through files c-f: b0 is refused, d0 stays
    moves, e = moves_in(ctx, "7R/8/8/8/8/8/1(rr)6/8 b", handicap="center")
    check(moves == ["b2*c1,d0", "b2-a1", "b2-c1", "b2-d0"], moves)
    moves, e = moves_in(ctx, "7R/8/8/8/8/8/8/s7 b", handicap="center")
    check(moves == ["a1-b1"], moves)
    moves, e = moves_in(ctx, "7R/8/8/8/8/8/8/s7 b")
    check(moves == ["a1-a0", "a1-b1"], moves)


@test("gounki")
def handicap_double_and_triple(ctx):
    e = ctx.engine("gounki")
    # w2: White moves, then White again, then Black
    e.send("position fen r7/8/8/8/3R4/8/8/8 w2 moves d4-c5")
    check(e.fen() == "r7/8/8/2R5/8/8/8/8 w", e.fen())
    e.send("position fen r7/8/8/8/3R4/8/8/8 w2 moves d4-c5 c5-b6")
    check(e.fen() == "r7/8/1R6/8/8/8/8/8 b", e.fen())
    e.send("position fen r7/8/8/8/3R4/8/8/8 w2")
    total, _ = e.perft(2)
    check(total == 4, "w2 perft(2): c5 or e5, then two more white moves: %d" % total)
    e.send("position fen r7/8/8/8/3R4/8/8/8 w")
    total, _ = e.perft(2)
    check(total == 2, "w perft(2): then a8-b7 only: %d" % total)
    for value, side in [("double", "w2"), ("triple", "w3"), ("none", "w")]:
        e.send("setoption name Handicap value " + value)
        e.send("position startpos")
        check(e.fen().endswith(" " + side), "%s: %s" % (value, e.fen()))
    errors = e.errors_until_ready("setoption name Handicap value quadruple")
    check(errors, "bad handicap accepted")


@test("gounki")
def exits_and_captures_end_the_game(ctx):
    e = ctx.engine("gounki")
    e.send("position fen 8/8/(RRS)7/8/8/8/8/7s w moves a6*a7,b8,out")  # the book's `out`
    check(e.result() == "white exit", e.result())
    check(e.moves() == [], "moves after the game ended")
    lines = e.go("depth 3")
    check(lines[-1] == "bestmove (none)", lines[-1])
    e.send("position fen 8/8/8/4(rrs)3/3R4/8/8/8 w moves d4xe5")
    check(e.result() == "white no pieces left", e.result())
    e.send("position fen 7R/8/8/8/8/8/8/4s3 b moves e1-e0")
    check(e.result() == "black exit", e.result())
    # `out` must name exactly one move: (SS) d8 has a single exit
    e.send("position fen 3(SS)4/8/8/8/8/8/8/r7 w moves d8-out")
    check(e.result() == "white exit", e.result())
    errors = e.errors_until_ready("position fen 8/8/(RRS)7/8/8/8/8/7s w moves a6*out,b8,c9")
    check(errors, "'out' accepted before the last cell")


@test("gounki")
def notation_input_forms(ctx):
    e = ctx.engine("gounki")
    for text in ["c3xd4", "c3-d4"]:  # either separator for a capture
        errors = e.errors_until_ready("position fen 8/8/8/8/3s4/2(RR)5/8/8 w moves " + text)
        check(not errors, "%s: %s" % (text, errors))
        check(e.fen() == "8/8/8/8/3(RR)4/8/8/8 b", e.fen())
    for bad in ["c3", "c3-", "c3-z9", "c3*d4", "c3*b4,a5,", "c3*b4", "i3-d4", "c3xd4x", "c3-d4-e5"]:
        errors = e.errors_until_ready("position fen 8/8/8/8/3s4/2(RR)5/8/8 w moves " + bad)
        check(errors, "accepted " + bad)


@test("gounki")
def fen_forms(ctx):
    e = ctx.engine("gounki")
    e.send("position fen 8/8/8/8/3(SR)4/8/8/8 w")
    check(e.fen() == "8/8/8/8/3(RS)4/8/8/8 w", "composites print rounds first: " + e.fen())
    for bad in ["8/8/8/8/8/8/8/8", "9/8/8/8/8/8/8/8 w", "8/8/8/8/8/8/8 w", "8/8/8/8/3(Rs)4/8/8/8 w",
                "8/8/8/8/3(RRRS)4/8/8/8 w", "8/8/8/8/3(R)4/8/8/8 w", "8/8/8/8/3X4/8/8/8 w", "8/8/8/8/3(RS4/8/8/8 w",
                "RRRRRRRR/RRRRRRRR/R7/8/8/8/8/8 w", "8/8/8/8/8/8/8/8 b2", "8/8/8/8/8/8/8/8 w4", "7/8/8/8/8/8/8/8 w"]:
        errors = e.errors_until_ready("position fen " + bad)
        check(errors, "bad FEN accepted: " + bad)


@test("gounki")
def search_finds_forced_wins(ctx):
    # (FEN, N, why): N = the winner's moves; each worked out by hand
    cases = [
        ("2R5/8/8/8/8/8/8/r7 w", 1, "c8 exits at once"),
        ("7R/8/8/8/8/8/3(ss)4/8 b", 1, "black (ss) d2 exits through d0 in one move"),
        ("r7/3S4/8/8/8/8/8/8 w", 2, "d7-d8, then d8-d9; black's round on a8 cannot interfere"),
        ("8/4s3/8/3(RR)4/8/8/8/8 w", 2, "d5 to b7 threatens b9 (via a8) and d9 (via c8): one black square cannot stop both"),
        ("r7/8/8/8/8/4(RR)3/8/8 w", 3, "from row 3 a double round needs three moves; black is too far to block"),
    ]
    for fen, n, why in cases:
        e = ctx.engine("gounki")
        e.send("position fen " + fen)
        lines = e.go("depth 8", timeout=60)
        infos = [l for l in lines if l.startswith("info depth")]
        check(infos and " score mate %d " % n in infos[-1], "%s: %s" % (why, infos[-1] if infos else lines))
        best = lines[-1].split()[1]
        if n == 1:
            e.send("position fen %s moves %s" % (fen, best))
            winner = "black" if fen.endswith(" b") else "white"
            check(e.result() == winner + " exit", "%s: %s then %s" % (why, best, e.result()))


@test("perft", sanitizers=False)
def perft_gounki_start(ctx):
    e = ctx.engine("gounki")
    for variant, fen, counts in read_perft_table("perft_games.txt"):
        if variant != "gounki":
            continue
        e.send("position fen " + fen)
        for depth, expected in enumerate(counts, start=1):
            total, split = e.perft(depth, timeout=600)
            check(total == expected, "gounki perft(%d) = %d, expected %d" % (depth, total, expected))


@test("gounki", sanitizers=False)
def perft_split_agrees_with_each_child(ctx):
    # the per-move split of midgame positions must equal perft(d-1) after playing each move
    e = ctx.engine("gounki")
    for fen in ["r1rsrsrs/s(rr)1rsr2/4s3/8/3(RRS)4/8/R1RS1SRS/S(RS)1R1SR1 w",
                "1s1(rrs)2s1/s2r1r1r/8/2s2(RR)2/1(SS)6/4R3/R2S1S1S/SR1S1SR1 b",
                "8/2r5/8/3R4/8/8/1s6/8 w"]:
        errors = e.errors_until_ready("position fen " + fen)
        check(not errors, errors)
        total, split = e.perft(3)
        check(sum(split.values()) == total and split, fen)
        for move, count in sorted(split.items())[:12]:
            errors = e.errors_until_ready("position fen %s moves %s" % (fen, move))
            check(not errors, errors)
            child, _ = e.perft(2)
            check(child == count, "%s %s: split %d, child perft %d" % (fen, move, count, child))
