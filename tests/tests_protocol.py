"""tests_protocol.py — the protocol as a GUI drives it: handshake, options, positions, every form
of `go`, stop/isready/quit during a search, perft/moves/result/d, bad input."""
import random
import time

from harness import PROMPT_LIMIT, check, test

VARIANTS = ["checkers", "russian", "brazilian", "international"]
ALL_VARIANTS = ["gounki", "ecroulement", "ecroulement-rapide"] + VARIANTS + ["tawol"]
START = {
    "gounki": "rsrsrsrs/srsrsrsr/8/8/8/8/RSRSRSRS/SRSRSRSR w",
    "ecroulement": "3BBBBB/4BBBB/5BBB/W5BB/WW5B/WWW5/WWWW4/WWWWW3 w",
    "ecroulement-rapide": "3BBBBB/4BBBB/5BBB/W5BB/WW5B/WWW5/WWWW4/WWWWW3 w",
    "tawol": "tttttttt/babababa/3ba3/8/8/3AB3/ABABABAB/TTTTTTTT w",
    "checkers": "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "russian": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "brazilian": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "international": "W:W" + ",".join(str(i) for i in range(31, 51)) + ":B" + ",".join(str(i) for i in range(1, 21)),
}


@test("protocol")
def handshake_and_options(ctx):
    e = ctx.engine()
    e.send("uci")
    lines = e.read_until(lambda l: l == "uciok")
    check(any(l.startswith("id name Donjon") for l in lines), "id name")
    check(any(l.startswith("id author") for l in lines), "id author")
    options = {}
    for l in lines:
        if l.startswith("option name "):
            name = l[len("option name "):].split(" type ")[0]
            options[name] = l
    for name in ["UCI_Variant", "Threads", "Hash", "Move Overhead", "Ponder", "MultiPV"]:
        check(name in options, "missing option " + name)
    for v in VARIANTS:
        check(" var %s" % v in options["UCI_Variant"], "variant %s not offered" % v)
    check("max 512" in options["Threads"], options["Threads"])
    hash_max = int(options["Hash"].split(" max ")[1].split()[0])
    check(hash_max >= 65536, options["Hash"])
    check("max 64" in options["MultiPV"], options["MultiPV"])
    e.sync()


@test("protocol")
def variant_switch_announces_board(ctx):
    e = ctx.engine()
    check(e.fen() == START["gounki"], "the engine starts in gounki: " + e.fen())
    for v in ALL_VARIANTS:
        line = e.set_variant(v)
        size = "10x10" if v == "international" else "8x8"
        check(line.startswith("info string variant %s board %s startpos " % (v, size)), line)
        check(e.fen() == START[v], "start FEN of %s: %s" % (v, e.fen()))
    errors = e.errors_until_ready("setoption name UCI_Variant value chess")
    check(errors, "unknown variant accepted")
    check(e.fen() == START[ALL_VARIANTS[-1]], "variant changed by a bad value")


@test("protocol")
def position_with_moves(ctx):
    e = ctx.engine("international")
    e.send("position startpos moves 32-28 19-23")
    # 32-28 then 19-23 (hand-played): white must now take 28x19 over 23
    expected = "W:W28," + ",".join(str(i) for i in range(31, 51) if i != 32) + ":B" + \
        ",".join(str(i) for i in list(range(1, 19)) + [20, 23])
    check(e.fen() == expected, e.fen())
    check(e.moves() == ["28x19"], "compulsory capture: %s" % e.moves())
    e.send("position fen " + START["international"] + " moves 31-27")
    check(e.fen().startswith("B:W27,32,"), e.fen())


@test("protocol")
def bad_fen_keeps_position(ctx):
    e = ctx.engine("international")
    e.send("position startpos moves 32-28")
    before = e.fen()
    for bad in ["X:W1:B2", "W:W51:B1", "W:W30,30:B1", "W:W30:B30", "W:W3:B40", "W:W21-45:B1-5",
                "W:W31,:B1", "W:W31:B1 junk", "W:W0:B1", "W:Wx:B1", "", "W:W31-:B1"]:
        errors = e.errors_until_ready("position fen " + bad)
        check(errors, "bad FEN accepted: %r" % bad)
        check(e.fen() == before, "position lost after bad FEN %r" % bad)


@test("protocol")
def illegal_move_keeps_position(ctx):
    e = ctx.engine("international")
    e.send("position startpos moves 32-28")
    before = e.fen()
    for bad in ["position startpos moves 31-27 10-5", "position startpos moves 31-22",
                "position startpos moves 99-100", "position startpos moves 31", "position startpos moves c3-d4",
                "position startpos moves 31-27-", "position startpos moves -"]:
        errors = e.errors_until_ready(bad)
        check(errors, "illegal move accepted: " + bad)
        check(e.fen() == before, "position lost after: " + bad)
    errors = e.errors_until_ready("position startpos moves 31-27")
    check(not errors, errors)


def last_info(lines):
    infos = [l for l in lines if l.startswith("info depth")]
    check(infos, "no info line")
    return infos[-1]


def info_field(line, name):
    parts = line.split()
    return parts[parts.index(name) + 1]


@test("protocol")
def go_depth(ctx):
    e = ctx.engine("international")
    lines = e.go("depth 6", timeout=60)
    depths = [int(info_field(l, "depth")) for l in lines if l.startswith("info depth")]
    check(depths and depths[-1] == 6 and depths[0] == 1, depths)
    best = lines[-1].split()[1]
    check(best in e.moves(), "bestmove %s not legal" % best)
    for field in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"]:
        check(field in last_info(lines).split(), "info lacks " + field)


@test("protocol")
def go_nodes(ctx):
    e = ctx.engine("international")
    lines = e.go("nodes 20000", timeout=30)
    nodes = int(info_field(last_info(lines), "nodes"))
    check(nodes <= 20000 + 4096, "searched %d nodes for go nodes 20000" % nodes)
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("protocol")
def go_movetime(ctx):
    e = ctx.engine("checkers")
    start = time.monotonic()
    lines = e.go("movetime 300", timeout=10)
    elapsed = time.monotonic() - start
    check(0.25 <= elapsed <= 0.3 + PROMPT_LIMIT * ctx.slow, "movetime 300 took %.3fs" % elapsed)
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("protocol")
def go_clock(ctx):
    e = ctx.engine("russian")
    start = time.monotonic()
    lines = e.go("wtime 2000 btime 2000 winc 10 binc 10", timeout=10)
    elapsed = time.monotonic() - start
    check(elapsed < 0.5 + PROMPT_LIMIT * ctx.slow, "used %.3fs of a 2 s clock" % elapsed)
    check(lines[-1].split()[1] in e.moves(), lines[-1])
    start = time.monotonic()
    e.go("wtime 50 btime 50", timeout=10)
    check(time.monotonic() - start < PROMPT_LIMIT * ctx.slow, "50 ms left: too slow")
    e.go("wtime -100 btime -100 winc -5", timeout=10)  # negative clocks: move at once, no crash


@test("protocol")
def go_infinite_then_stop(ctx):
    e = ctx.engine("international")
    e.send("go infinite")
    time.sleep(0.5)
    early = [l for l in list(e.lines.queue) if l[1] and l[1].startswith("bestmove")]
    check(not early, "go infinite ended by itself")
    sent = time.monotonic()
    e.send("stop")
    e.read_until(lambda l: l.startswith("bestmove"), timeout=5)
    latency = e.last_stamp - sent
    check(latency < PROMPT_LIMIT * ctx.slow, "bestmove %.0f ms after stop" % (latency * 1000))


@test("protocol")
def isready_during_search(ctx):
    e = ctx.engine("international")
    e.send("go infinite")
    time.sleep(0.2)
    sent = time.monotonic()
    lines = e.sync()
    check(e.last_stamp - sent < PROMPT_LIMIT * ctx.slow, "readyok late")
    check(not any(l.startswith("bestmove") for l in lines), "search ended on isready")
    e.send("stop")
    e.read_until(lambda l: l.startswith("bestmove"))


@test("protocol")
def ponder_and_ponderhit(ctx):
    e = ctx.engine("checkers")
    e.send("go ponder movetime 200")
    time.sleep(0.4)
    check(not any(l[1] and l[1].startswith("bestmove") for l in list(e.lines.queue)), "ponder ended by itself")
    e.send("ponderhit")
    e.read_until(lambda l: l.startswith("bestmove"), timeout=3)


@test("protocol")
def multipv_and_searchmoves(ctx):
    e = ctx.engine("international")
    e.send("setoption name MultiPV value 3")
    lines = e.go("depth 4")
    at_four = [l for l in lines if l.startswith("info depth 4 ")]
    check(sorted(int(info_field(l, "multipv")) for l in at_four) == [1, 2, 3], at_four)
    e.send("setoption name MultiPV value 1")
    lines = e.go("depth 4 searchmoves 31-26 35-30")
    check(lines[-1].split()[1] in ("31-26", "35-30"), lines[-1])


@test("protocol")
def perft_and_moves_output(ctx):
    e = ctx.engine("international")
    moves = e.moves()
    check(sorted(moves) == sorted(["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30",
                                   "35-30"]), moves)
    total, split = e.perft(3)
    check(total == 658 and sum(split.values()) == 658, (total, split))
    check(sorted(split) == sorted(moves), split)
    e.send("perft 2")
    lines = e.read_until(lambda l: l.startswith("Nodes searched"))
    check(lines[-2] == "" and lines[-1] == "Nodes searched: 81", lines[-3:])


@test("protocol")
def display_shows_fen_and_key(ctx):
    e = ctx.engine("checkers")
    e.send("d")
    lines = e.read_until(lambda l: l.startswith("Key: "))
    check(any(l.startswith("Fen: B:W21,") for l in lines), lines)
    check(len(lines[-1].split()[1]) == 16, lines[-1])


@test("protocol")
def result_win_and_no_pieces(ctx):
    e = ctx.engine("checkers")
    # black man on 28 (h2) can only go to 32 (g1), which holds a white man: black is blocked
    e.send("position fen B:W32:B28")
    check(e.result() == "white no legal move", e.result())
    lines = e.go("depth 3")
    check(lines[-1] == "bestmove (none)", lines[-1])
    e.send("position fen B:W32:B")
    check(e.result() == "white no pieces left", e.result())
    e.send("position fen W:W32:B28")
    check(e.result() == "none", e.result())


@test("protocol")
def result_repetition(ctx):
    e = ctx.engine("international")
    # kings on a1 (46) and b10 (1) shuffle to b2 (41) and a9 (6): no capture is ever possible
    base = "position fen W:WK46:BK1 moves 46-41 1-6 41-46 6-1 46-41 1-6 41-46"
    e.send(base)
    check(e.result() == "none", "drawn before the third occurrence: " + e.result())
    e.send(base + " 6-1")
    check(e.result() == "draw repetition", e.result())
    lines = e.go("depth 3")
    check(lines[-1] == "bestmove (none)", lines[-1])


# A four-ply cycle of reversible moves per game, worked out by hand from RULES.md; the first side
# has more material, so its score is not 0 unless the repetition makes it so. Gounki: a sideways
# deployment and a sideways merge undo each other; ecroulement: a build and the collapse that
# spreads it back; draughts: king moves; tawol: tower steps.
REPETITION_CYCLES = [
    ("gounki", "8/6s1/8/8/8/8/1(SS)6/8 w", "b2*a2,b2 g7-h7 a2-b2 h7-g7"),
    ("gounki", "8/6s1/8/8/8/8/SS6/8 w", "a2-b2 g7-h7 b2*a2,b2 h7-g7"),
    ("ecroulement", "6BB/8/8/8/8/8/8/WW4W1 w", "a1-b1 h8-g8 b1-a1 g8-h8"),
    ("ecroulement-rapide", "6BB/8/8/8/8/8/8/WW4W1 w", "a1-b1 h8-g8 b1-a1 g8-h8"),
    ("checkers", "B:WK30,K32:BK1", "1-5 32-28 5-1 28-32"),
    ("russian", "W:WK30,K32:BK1", "32-28 1-5 28-32 5-1"),
    ("brazilian", "W:WK30,K32:BK1", "32-28 1-5 28-32 5-1"),
    ("international", "W:WK46,K48:BK1", "46-41 1-6 41-46 6-1"),
    ("tawol", "t7/8/8/8/3A4/8/8/T7 w", "a1-b1 a8-b8 b1-a1 b8-a8"),
]


@test("protocol")
def repetition_through_reversible_cycles_in_every_game(ctx):
    for variant, fen, cycle in REPETITION_CYCLES:
        e = ctx.engine(variant)
        e.send("position fen %s moves %s" % (fen, cycle))
        check(e.result() == "none", "%s: drawn at the second occurrence: %s" % (variant, e.result()))
        e.send("position fen %s moves %s %s" % (fen, cycle, cycle))
        check(e.result() == "draw repetition", "%s %s: third occurrence missed: %s" % (variant, fen, e.result()))
        # in the search, the cycle's first move now returns to a position of the game: a draw
        first = cycle.split()[0]
        e.send("position fen %s moves %s" % (fen, cycle))
        repeated = last_info(e.go("depth 4 searchmoves " + first)).split(" score ")[1].split(" nodes")[0]
        e.send("position fen " + fen)
        fresh = last_info(e.go("depth 4 searchmoves " + first)).split(" score ")[1].split(" nodes")[0]
        check(fresh != "cp 0", "%s: the test position scores 0 by itself" % variant)
        check(repeated == "cp 0", "%s: %s repeats a position but scores %s" % (variant, first, repeated))


def walk_without_repetition(e, fen, plies):
    """A deterministic walk of quiet moves that never repeats a position and never lets a capture
    arise, so only the move counters can end it (depth-first, backing up when it runs dry)."""
    played, seen = [], {fen}
    options = []  # per ply: the candidate moves not tried yet
    steps = 0
    while len(played) < plies:
        steps += 1
        check(steps < 5000, "walk found no path of %d plies" % plies)
        if len(options) == len(played):
            e.send("position fen %s moves %s" % (fen, " ".join(played)))
            options.append([m for m in e.moves() if "x" not in m])
        if not options[-1]:
            options.pop()
            check(played, "walk stuck at the start")
            played.pop()
            continue
        move = options[-1].pop(0)
        e.send("position fen %s moves %s" % (fen, " ".join(played + [move])))
        child = e.fen()
        if child in seen or any("x" in m for m in e.moves()):
            continue
        seen.add(child)
        played.append(move)
    return played


def check_counter_draw(e, variant, fen, limit):
    played = walk_without_repetition(e, fen, limit)
    e.send("position fen %s moves %s" % (fen, " ".join(played[:-1])))
    check(e.result() == "none", "%s: drawn after %d plies: %s" % (variant, limit - 1, e.result()))
    e.send("position fen %s moves %s" % (fen, " ".join(played)))
    result = e.result()
    check(result.startswith("draw move counter"), "%s after %d plies: %s" % (variant, limit, result))
    return result


@test("protocol", sanitizers=False)
def result_move_counter_draws(ctx):
    # RULES.md: no man move and no capture for 40 / 15 / 15 / 25 moves each (80 / 30 / 30 / 50 plies)
    for variant, fen, limit in [("checkers", "W:WK29,K32:BK1,K4", 80), ("russian", "W:WK29,K32:BK1,K4", 30),
                                ("brazilian", "W:WK29,K32:BK1,K4", 30),
                                ("international", "W:WK46,K50:BK1,K5", 50)]:
        e = ctx.engine(variant)
        check_counter_draw(e, variant, fen, limit)
    # three kings against a lone king: 16 moves each (32 plies) in international, before the 50-ply rule
    e = ctx.engine("international")
    result = check_counter_draw(e, "international 3v1", "W:WK46,K47,K48:BK1", 32)
    check("three kings" in result, result)
    e = ctx.engine("russian")
    check_counter_draw(e, "russian 3v1", "W:WK30,K31,K32:BK1", 30)


@test("protocol")
def quit_during_search(ctx):
    e = ctx.engine("international")
    e.send("go infinite")
    time.sleep(0.2)
    start = time.monotonic()
    status = e.quit(timeout=5)
    check(status == 0 and time.monotonic() - start < PROMPT_LIMIT * ctx.slow, "quit: status %s" % status)


@test("protocol")
def eof_during_search(ctx):
    e = ctx.engine("international")
    e.send("go infinite")
    time.sleep(0.2)
    e.proc.stdin.close()
    status = e.proc.wait(timeout=5)
    check(status == 0, "exit status %s at end of input" % status)
    lines = e.lines_until_exit()
    check(any(l.startswith("bestmove") for l in lines), "no bestmove at end of input")


@test("protocol")
def bad_commands_are_reported(ctx):
    e = ctx.engine("international")
    for bad in ["foo", "go depth x", "go depth", "setoption name Threads value 0", "setoption name Hash value -1",
                "setoption name Nonsense value 1", "setoption", "position", "position fen", "perft", "perft -1",
                "go wtime abc", "setoption name MultiPV value 65", "bench x"]:
        errors = e.errors_until_ready(bad)
        check(errors, "no error for %r" % bad)
    e.send(b"\x00\xff\xfe garbage \x80\r\n")
    e.send("isready\r")
    e.read_until(lambda l: l == "readyok")
    e.send("x" * (1 << 20))
    e.sync()
    lines = e.go("depth 3")
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("protocol")
def threads_and_hash_changes(ctx):
    e = ctx.engine("international")
    for threads, hash_mb in [(3, 32), (1, 1), (2, 8)]:
        e.send("setoption name Threads value %d" % threads)
        e.send("setoption name Hash value %d" % hash_mb)
        lines = e.go("depth 5")
        check(lines[-1].split()[1] in e.moves(), lines[-1])
    errors = e.errors_until_ready("setoption name Hash value 1048576")  # a terabyte: refused cleanly
    check(errors and "keeping" in errors[0], errors)
    e.send("ucinewgame")
    lines = e.go("depth 4")
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("protocol")
def fen_round_trip_and_keys_in_random_games(ctx):
    rng = random.Random(7)
    for variant in ALL_VARIANTS:
        e = ctx.engine(variant)
        for game in range(3):
            played = []
            for _ in range(60):
                e.send("position startpos moves " + " ".join(played))
                moves = e.moves()
                if not moves:
                    break
                played.append(rng.choice(moves))
                e.send("position startpos moves " + " ".join(played))
                if e.result() != "none":
                    break  # a finished game (a gounki exit) is more than its FEN can say
                fen, key = e.fen(), e.key()
                e.send("position fen " + fen)
                check(e.fen() == fen, "%s: FEN round trip %s -> %s" % (variant, fen, e.fen()))
                check(e.key() == key, "%s: incremental key differs from recomputed after %s" % (variant, played))


@test("protocol")
def bench_is_deterministic(ctx):
    e = ctx.engine()
    counts = []
    for _ in range(2):
        e.send("bench 4")
        lines = e.read_until(lambda l: l.startswith("Nodes/second"), timeout=120)
        counts.append([l for l in lines if l.startswith("Nodes searched")][0])
    check(counts[0] == counts[1], counts)
