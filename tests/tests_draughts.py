"""tests_draughts.py — the draughts family: perft against the published tables, and the rules of
RULES.md section 3 on positions worked out by hand. Squares are PDN numbers; the comments give
the algebraic cells (a1 dark, at White's left) that the hand analysis used."""
import os

from harness import check, read_perft_table, test

QUICK_PERFT_NODES = 3_000_000  # per position: the deepest published depth under this in `make test`


@test("perft", sanitizers=False)
def perft_draughts_tables(ctx):
    full = os.environ.get("DONJON_FULL_PERFT") == "1"
    engines = {}
    checked = 0
    for variant, fen, counts in read_perft_table("perft_draughts.txt"):
        if variant not in engines:
            engines[variant] = ctx.engine(variant)
        e = engines[variant]
        e.send("position fen " + fen)
        for depth, expected in enumerate(counts, start=1):
            if not full and expected > QUICK_PERFT_NODES and depth > 1:
                break
            total, split = e.perft(depth, timeout=3600)
            check(total == expected, "%s %s perft(%d) = %d, expected %d" % (variant, fen, depth, total, expected))
            check(sum(split.values()) == total, "split does not add up")
            checked += 1
    check(checked >= 40, "only %d perft depths checked" % checked)


def moves_of(ctx, variant, fen):
    e = ctx.engine(variant)
    e.send("position fen " + fen)
    errors = e.errors_until_ready("isready") if False else []
    return sorted(e.moves()), e


@test("draughts")
def men_capture_backwards_except_in_checkers(ctx):
    # white man d4 (18), black man c3 (22) behind it, b2 (25) empty
    moves, _ = moves_of(ctx, "checkers", "W:W18:B22")
    check(moves == ["18-14", "18-15"], moves)
    for variant in ["russian", "brazilian"]:
        moves, _ = moves_of(ctx, variant, "W:W18:B22")
        check(moves == ["18x25"], "%s: %s" % (variant, moves))


@test("draughts")
def crowning_during_a_capture(ctx):
    # white man b6 (9) takes c7 (6) landing on d8 (2), the crowning row; black e7 (7) stands next
    # to d8 with f6 (11), g5 (16), h4 (20) empty behind it.
    moves, e = moves_of(ctx, "checkers", "W:W9:B6,7")
    check(moves == ["9x2"], "checkers: crowned, the move ends: %s" % moves)
    e.send("position fen W:W9:B6,7 moves 9x2")
    check(e.fen() == "B:WK2:B7", e.fen())
    moves, _ = moves_of(ctx, "russian", "W:W9:B6,7")
    check(moves == ["9x11", "9x16", "9x20"], "russian: goes on as a flying king: %s" % moves)
    moves, e = moves_of(ctx, "brazilian", "W:W9:B6,7")
    check(moves == ["9x11"], "brazilian: goes on as a man: %s" % moves)
    e.send("position fen W:W9:B6,7 moves 9x11")
    check(e.fen() == "B:W11:B", "brazilian: a man that ends off the crowning row stays a man: " + e.fen())
    # with f6 (11) gone the brazilian man ends on d8 and is crowned there
    moves, e = moves_of(ctx, "brazilian", "W:W9:B6")
    e.send("position fen W:W9:B6 moves 9x2")
    check(e.fen() == "B:WK2:B", e.fen())


@test("draughts")
def maximum_capture_rule(ctx):
    # white man c3 (22): takes d4 (18) to e5 (15) and stops, or b4 (17) to a5 (13) then b6 (9) to c7 (6)
    moves, _ = moves_of(ctx, "russian", "W:W22:B17,18,9")
    check(moves == ["22x15", "22x6"], "russian: free choice: %s" % moves)
    moves, _ = moves_of(ctx, "brazilian", "W:W22:B17,18,9")
    check(moves == ["22x6"], "brazilian: the most pieces: %s" % moves)
    moves, _ = moves_of(ctx, "checkers", "W:W22:B17,18,9")
    check(moves == ["22x15", "22x6"], "checkers: free choice: %s" % moves)


@test("draughts")
def flying_and_short_kings(ctx):
    # international king a1 (46) on the long diagonal to j10 (5), which holds a black man
    moves, _ = moves_of(ctx, "international", "W:WK46:B5")
    check(moves == sorted(["46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10"]), moves)
    # it takes e5 (28) from afar and lands on any empty square beyond
    moves, _ = moves_of(ctx, "international", "W:WK46:B28")
    check(moves == sorted(["46x23", "46x19", "46x14", "46x10", "46x5"]), moves)
    # checkers king a1 (29): one step only
    moves, _ = moves_of(ctx, "checkers", "W:WK29:B18")
    check(moves == ["29-25"], moves)


@test("draughts")
def flying_king_must_land_where_the_capture_goes_on(ctx):
    # russian king a1 (29) takes d4 (18); of the landings e5 (15), f6 (11), g7 (8), h8 (4) only f6
    # lets it take e7 (7) on to d8 (2): so that is the only move (free choice would allow others)
    moves, _ = moves_of(ctx, "russian", "W:WK29:B18,7")
    check(moves == ["29x2"], moves)


@test("draughts")
def capture_loop_back_to_the_origin(ctx):
    # international man c3 (37) around the diamond d4 (32), d6 (22), b6 (21), b4 (31): both ways
    # take all four and end on c3 itself (the origin is empty); one move, counted once
    moves, e = moves_of(ctx, "international", "W:W37:B32,22,31,21")
    check(moves == ["37x37"], moves)
    total, _ = e.perft(1)
    check(total == 1, total)
    e.send("position fen W:W37:B32,22,31,21 moves 37x37")
    check(e.result() == "white no pieces left", e.result())
    # the full route in either direction names the same move
    for route in ["37x28x17x26x37", "37x26x17x28x37"]:
        errors = e.errors_until_ready("position fen W:W37:B32,22,31,21 moves " + route)
        check(not errors, "%s: %s" % (route, errors))
    errors = e.errors_until_ready("position fen W:W37:B32,22,31,21 moves 37x28x37")
    check(errors, "a wrong route accepted")


@test("draughts")
def jumped_pieces_block_until_the_move_ends(ctx):
    # international king a1 (46) takes c3 (37); beyond it d4 (32), e5 (28) empty, f6 (23) black,
    # g7 (19) empty: it must go on over f6. Black on b4... the jumped c3 stays: the king cannot
    # come back through it. Only routes over both pieces exist, landing on g7 (19), h8 (14),
    # i9 (10) or j10 (5) — unless one of those allows a third capture.
    moves, _ = moves_of(ctx, "international", "W:WK46:B37,23")
    check(moves == sorted(["46x19", "46x14", "46x10", "46x5"]), moves)


@test("draughts")
def quiet_crowning_and_fen_forms(ctx):
    moves, e = moves_of(ctx, "international", "W:W6:B45")
    check(moves == ["6-1"], moves)  # a9 (6) to b10 (1); a9 has no other forward square
    e.send("position fen W:W6:B45 moves 6-1")
    check(e.fen() == "B:WK1:B45", e.fen())
    # ranges, K before a square, lists in either order, trailing PDN fields
    e.send("position fen W:B1-3:WK31,32:H0:F1")
    check(e.fen() == "W:WK31,32:B1,2,3", e.fen())


@test("draughts")
def algebraic_input_in_russian_and_brazilian(ctx):
    for variant in ["russian", "brazilian"]:
        e = ctx.engine(variant)
        e.send("position startpos moves 22-18")
        by_number = e.fen()
        e.send("position startpos moves c3-d4")  # c3 = 22, d4 = 18 by RULES.md's formula
        check(e.fen() == by_number, "%s: c3-d4 gave %s" % (variant, e.fen()))
        check(e.moves()[0][0].isdigit(), "moves are printed with numbers")
    e = ctx.engine("international")
    errors = e.errors_until_ready("position startpos moves c3-d4")
    check(errors, "international accepted algebraic squares")


@test("draughts")
def full_route_when_from_and_to_are_shared(ctx):
    # russian king c7 (6); black b6 (9), c3 (22), e5 (15), f6 (11), g5 (16), a3 (21).
    # c7xb6 lands a5, takes c3 landing d2 (the only landing that goes on), takes g5 to h6 (12);
    # c7xe5 lands f4 (the only landing that goes on), takes g5 to h6 (12): same from and to,
    # different captured sets, so both are written with their full routes.
    fen = "W:WK6:B15,16,11,21,9,22"
    moves, e = moves_of(ctx, "russian", fen)
    check(moves == ["6x13x26x12", "6x19x12"], moves)
    errors = e.errors_until_ready("position fen %s moves 6x12" % fen)
    check(errors and "ambiguous" in errors[0], errors)
    e.send("position fen %s moves 6x19x12" % fen)
    check(e.fen() == "B:WK12:B9,11,21,22", e.fen())
    e.send("position fen %s moves c7:f4:h6" % fen)  # the same route written algebraically
    check(e.fen() == "B:WK12:B9,11,21,22", e.fen())
    # brazilian: only the larger capture is legal, and it is written short
    moves, e = moves_of(ctx, "brazilian", fen)
    check(moves == ["6x12"], moves)
    e.send("position fen %s moves 6x12" % fen)
    check(e.fen() == "B:WK12:B11,15,21", e.fen())


@test("draughts")
def checkers_black_moves_first(ctx):
    e = ctx.engine("checkers")
    check(sorted(e.moves()) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"], e.moves())
