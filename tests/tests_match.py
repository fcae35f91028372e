"""tests_match.py — the match runner (scripts/match) and the terminal board (scripts/play):
statistics against values worked out by hand, self-play in every variant, broken engines."""
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

from harness import check, test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import match_stats as stats  # noqa: E402

VARIANTS = ["gounki", "ecroulement", "ecroulement-rapide", "checkers", "russian", "brazilian", "international",
            "tawol"]


def close(a, b, tolerance):
    return abs(a - b) <= tolerance


@test("match", sanitizers=False)
def statistics_against_hand_computed_values(ctx):
    # W60 D20 L20: score 0.70, Elo = -400 log10(1/0.7 - 1) = 147.19
    mean, var = stats.trinomial(60, 20, 20)
    check(close(mean, 0.70, 1e-12), mean)
    # per-game variance: (60*0.3^2 + 20*0.2^2 + 20*0.7^2) / 100 = 0.16
    check(close(var, 0.16, 1e-12), var)
    elo, low, high = stats.elo_interval(mean, var, 100)
    check(close(elo, 147.19, 0.01), elo)
    # p +/- 1.96*0.04: [0.6216, 0.7784] -> Elo [86.2, 218.3]
    check(close(low, 86.2, 0.2) and close(high, 218.3, 0.2), (low, high))
    check(stats.elo_from_score(0.5) == 0.0 and stats.elo_from_score(1.0) == math.inf, "score ends")
    # LOS for W30 L25: 0.5 (1 + erf(5 / sqrt(110))) = 0.5 (1 + erf(0.47673)); by the series
    # erf(x) = 2/sqrt(pi) (x - x^3/3 + x^5/10 - x^7/42 + x^9/216) = 0.49982, so LOS = 0.74991
    check(close(stats.los(30, 25), 0.74991, 1e-4), stats.los(30, 25))
    check(stats.los(10, 10) == 0.5, "equal wins and losses")
    # pentanomial [1,2,4,2,1]: mean 0.5, variance (0.25 + 2*0.0625 + 2*0.0625 + 0.25)/10 = 0.075
    mean, var = stats.pentanomial([1, 2, 4, 2, 1])
    check(close(mean, 0.5, 1e-12) and close(var, 0.075, 1e-12), (mean, var))
    # SPRT(0, 10, 0.05, 0.05): bounds -/+ ln(19) = 2.944
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    check(close(lower, -2.944, 1e-3) and close(upper, 2.944, 1e-3), (lower, upper))
    # pairs [0,0,100,300,600]: mean 0.875, variance 0.028125, s0 0.5, s1 0.514387:
    # LLR = 1000 * 0.014387 * (1.75 - 1.014387) / (2 * 0.028125) = 188.1 -> H1
    decision, llr = stats.sprt_decision([0, 0, 100, 300, 600], 0, 10, 0.05, 0.05)
    check(decision == "H1" and close(llr, 188.1, 0.5), (decision, llr))
    decision, llr = stats.sprt_decision([600, 300, 100, 0, 0], 0, 10, 0.05, 0.05)
    check(decision == "H0", (decision, llr))
    decision, llr = stats.sprt_decision([1, 2, 4, 2, 1], 0, 10, 0.05, 0.05)
    check(decision is None, "10 balanced pairs decide nothing: %s" % llr)


def run_match(args, timeout=600):
    out = tempfile.mkdtemp()
    pdn, summary = os.path.join(out, "games.pdn"), os.path.join(out, "summary.json")
    command = [sys.executable, os.path.join(ROOT, "scripts", "match"), "--pdn", pdn, "--json", summary,
               "--referee", os.path.join(ROOT, "donjon")] + args
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    check(done.returncode == 0, "match failed: %s %s" % (done.stdout[-2000:], done.stderr[-2000:]))
    with open(summary) as f:
        report = json.load(f)
    with open(pdn) as f:
        records = f.read()
    return report, records, done.stdout


def parse_pdn(text):
    """Games as dicts of tags plus 'moves' (the movetext words)."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        words = [w for w in body.split() if not re.match(r"^\d+\.(\.\.)?$", w)]
        tags["numbers"] = [w for w in body.split() if re.match(r"^\d+\.(\.\.)?$", w)]
        check(words and words[-1] == tags.get("Result"), "movetext must end with the result: %r" % block[-200:])
        tags["moves"] = words[:-1]
        games.append(tags)
    return games


def pdn_game(round_number, white, black, result, moves="1. 32-28 19-23"):
    return ('[Event "A vs B"]\n[Round "%d"]\n[White "%s"]\n[Black "%s"]\n[Result "%s"]\n\n%s %s\n\n'
            % (round_number, white, black, result, moves, result))


@test("match", sanitizers=False)
def pooled_records_pair_games_by_round(ctx):
    pool = [sys.executable, os.path.join(ROOT, "scripts", "match_pool")]
    out = tempfile.mkdtemp()
    first, second = os.path.join(out, "first.pdn"), os.path.join(out, "second.pdn")
    # the first run's games in the order two workers finished them: rounds 1-2 (A wins with
    # White, draws with Black: a WD pair), 3-4 (A loses both: LL) and 5 alone (a win, no pair);
    # read in file order, 3 and 5 would make a WL pair instead
    with open(first, "w") as f:
        f.write(pdn_game(2, "B", "A", "1/2-1/2") + pdn_game(1, "A", "B", "1-0") + pdn_game(3, "A", "B", "0-1") +
                pdn_game(5, "A", "B", "1-0", "1. 32-28\n19-23 2. 37-32") + pdn_game(4, "B", "A", "1-0"))
    # the second run numbers from 1 again: its rounds 1-2 are a pair of their own (draw, win: WD);
    # a game without A and an unfinished one are left out
    with open(second, "w") as f:
        f.write(pdn_game(1, "A", "B", "1/2-1/2") + pdn_game(2, "B", "A", "0-1") + pdn_game(3, "C", "D", "1-0") +
                pdn_game(4, "A", "B", "*"))
    done = subprocess.run(pool + [first, second, "--sprt", "0", "10"], capture_output=True, text=True, timeout=60)
    check(done.returncode == 0, done.stdout + done.stderr)
    # A: wins 1, 5, 2'; draws 2, 1'; losses 3, 4 -> 7 games +3 =2 -2; pairs WD, LL, WD
    check("A vs B: 7 games, +3 =2 -2" in done.stdout, done.stdout)
    check("Pentanomial [LL, LD, DD/WL, WD, WW]: [1, 0, 0, 2, 0] (3 pairs)" in done.stdout, done.stdout)
    check("1 game without A left out" in done.stdout and "1 game without a result left out" in done.stdout,
          done.stdout)
    # pair scores 0.75, 0, 0.75: mean 0.5, Elo 0.0; its LLR is near 0, far from either bound
    check("Elo difference: 0.0 [" in done.stdout and "undecided" in done.stdout, done.stdout)
    # the other side's view, by name: rounds 1-2 a loss and a draw (LD), 3-4 two wins (WW)
    done = subprocess.run(pool + [first, "--engine", "B"], capture_output=True, text=True, timeout=60)
    check("B vs A: 5 games, +2 =1 -2" in done.stdout and "[0, 1, 0, 0, 1] (2 pairs)" in done.stdout, done.stdout)
    # clear refusals: a missing file, a game without its round, an SPRT over two opponents
    done = subprocess.run(pool + [os.path.join(out, "none.pdn")], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "none.pdn" in done.stderr and "Traceback" not in done.stderr, done.stderr)
    broken = os.path.join(out, "broken.pdn")
    with open(broken, "w") as f:
        f.write(pdn_game(1, "A", "B", "1-0") + pdn_game(2, "B", "A", "1-0").replace('[Round "2"]\n', ""))
    done = subprocess.run(pool + [broken], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "broken.pdn:9: the game has no Round tag" in done.stderr, done.stderr)
    # a record cut off in its tags is a game of its own, not the first tags of the next one
    with open(broken, "w") as f:
        f.write(pdn_game(1, "A", "B", "1-0") + '[Event "A vs B"]\n[Round "2"]\n' + pdn_game(3, "A", "B", "1-0"))
    done = subprocess.run(pool + [broken], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "broken.pdn:9: the game has no White tag" in done.stderr, done.stderr)
    with open(broken, "w") as f:
        f.write("1. 32-28 19-23\n\n" + pdn_game(1, "A", "B", "1-0"))
    done = subprocess.run(pool + [broken], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "broken.pdn:1: movetext before any game's tags" in done.stderr, done.stderr)
    third = os.path.join(out, "third.pdn")
    with open(third, "w") as f:
        f.write(pdn_game(1, "A", "C", "1-0"))
    done = subprocess.run(pool + [first, third, "--sprt", "0", "10"], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "one opponent" in done.stderr and "A vs C: 1 games" in done.stdout,
          done.stdout + done.stderr)


@test("match", sanitizers=False)
def self_play_in_every_variant(ctx):
    donjon = os.path.join(ROOT, "donjon")
    for variant in VARIANTS:
        report, records, _ = run_match(["--engine", donjon, "--depth", "2", "--name", "deep", "--engine", donjon,
                                        "--depth", "1", "--name", "shallow", "--variant", variant, "--games", "2",
                                        "--max-plies", "160", "--quiet"])
        games = parse_pdn(records)
        check(len(games) == 2 and report["games"] == 2, "%s: %d records" % (variant, len(games)))
        s = report["pairings"][0]
        check(s["wins"] + s["draws"] + s["losses"] == 2, s)
        check(sum(s["pentanomial"]) == 1, s)
        points = 0.0
        for g in games:
            check(g["Result"] in ("1-0", "0-1", "1/2-1/2"), g)
            check(("GameType" in g) == (variant in ("checkers", "russian", "brazilian", "international")), g)
            if "GameType" not in g:
                check(g.get("Variant") == variant and "FEN" in g, g)
            check(g["moves"], "%s: a game without moves" % variant)
            white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["Result"]]
            points += white_points if g["White"] == "deep" else 1 - white_points
        check(close(points, s["wins"] + 0.5 * s["draws"], 1e-9), "%s: records and summary disagree" % variant)


@test("match", sanitizers=False)
def replayed_records_are_legal(ctx):
    # every move of a self-play record is accepted by a fresh engine, and the end matches
    donjon = os.path.join(ROOT, "donjon")
    _, records, _ = run_match(["--engine", donjon, "--depth", "3", "--engine", donjon, "--depth", "2",
                               "--variant", "international", "--games", "2", "--quiet"])
    e = ctx.engine("international")
    for g in parse_pdn(records):
        errors = replay(e, g)
        check(not errors, errors)
        result = e.result()
        if g["Result"] != "1/2-1/2" and not g["Termination"].startswith("adjudication"):
            winner = "white" if g["Result"] == "1-0" else "black"
            check(result.startswith(winner), "%s vs %s" % (result, g["Result"]))


def replay(e, game):
    """Sets the record's game up in engine e; the engine's errors (none expected)."""
    start = "position fen " + game["FEN"] if "FEN" in game else "position startpos"
    return e.errors_until_ready(start + " moves " + " ".join(game["moves"]))


@test("match", sanitizers=False)
def records_with_openings_replay_and_number_from_the_first_mover(ctx):
    donjon = os.path.join(ROOT, "donjon")
    openings = os.path.join(tempfile.mkdtemp(), "openings.txt")
    with open(openings, "w") as f:
        f.write("# three plies from the start, then a FEN with Black to move\n"
                "startpos | 32-28 19-23 28x19  # a comment after an opening\n"
                "B:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48:B1-20 | 20-24\n")
    _, records, _ = run_match(["--engine", donjon, "--depth", "2", "--engine", donjon, "--depth", "1",
                               "--variant", "international", "--games", "4", "--openings", openings,
                               "--max-plies", "30", "--quiet"])
    e = ctx.engine("international")
    games = parse_pdn(records)
    check(len(games) == 4, len(games))
    for g in games:
        check(not replay(e, g), "record does not replay: %s" % g)
        black_first = g.get("FEN", "W").startswith("B")
        check(g["numbers"][0] == ("1..." if black_first else "1."), (g.get("FEN"), g["numbers"][:2]))
        check(g["moves"][0] in ("32-28", "20-24"), "the opening's moves are in the record: %s" % g["moves"][:3])
    # a bad opening stops the match before any game, naming the line (not a silent empty match)
    with open(openings, "a") as f:
        f.write("startpos | 32-28 32-28\n")
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "match"), "--referee", donjon, "--engine",
                           donjon, "--depth", "1", "--engine", donjon, "--depth", "1", "--variant", "international",
                           "--games", "2", "--openings", openings, "--quiet"], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "opening 3" in done.stderr and "32-28" in done.stderr, done.stderr[-500:])
    # the other games' records carry their first position: random openings replay from it
    for variant in ["gounki", "tawol"]:
        _, records, _ = run_match(["--engine", donjon, "--depth", "1", "--engine", donjon, "--depth", "1",
                                   "--variant", variant, "--games", "2", "--random-plies", "3", "--max-plies", "20",
                                   "--quiet"])
        e = ctx.engine(variant)
        for g in parse_pdn(records):
            check(g.get("Variant") == variant and "FEN" in g, g)
            check(not replay(e, g), "%s record does not replay: %s" % (variant, g))
            check(len(g["moves"]) >= 3, g["moves"])


def draughts_pieces(fen):
    """Pieces on a draughts FEN board, counted here (squares, K prefixes and ranges such as 1-4)."""
    count = 0
    for field in fen.split(":")[1:]:
        for item in filter(None, (x.strip().lstrip("K") for x in field[1:].split(","))):
            low, _, high = item.partition("-")
            count += int(high) - int(low) + 1 if high else 1
    return count


@test("match", sanitizers=False)
def opening_sets_from_the_start_and_endgame_sets(ctx):
    make_openings = os.path.join(ROOT, "scripts", "make_openings")
    check(draughts_pieces("W:WK3,6,11-13:B2,4") == 7, "the test's own counter")
    done = subprocess.run([sys.executable, make_openings, "--variant", "gounki", "--count", "3", "--plies", "4",
                           "--depth", "2"], capture_output=True, text=True, timeout=300)
    lines = [l for l in done.stdout.splitlines() if not l.startswith("#")]
    check(done.returncode == 0 and len(lines) == 3, done.stdout + done.stderr)
    e = ctx.engine("gounki")
    for line in lines:
        check(line.startswith("startpos | ") and len(line.split()) == 6, line)
        check(not e.errors_until_ready("position startpos moves " + line.split("|")[1]), line)
    # endgames: at most 8 pieces, nobody to move in a capture, distinct, loadable
    done = subprocess.run([sys.executable, make_openings, "--variant", "checkers", "--count", "3", "--plies", "6",
                           "--pieces", "8", "--depth", "2", "--play-depth", "2", "--balance", "300"],
                          capture_output=True, text=True, timeout=300)
    fens = [l for l in done.stdout.splitlines() if not l.startswith("#")]
    check(done.returncode == 0 and len(fens) == 3 and len(set(fens)) == 3, done.stdout + done.stderr)
    e = ctx.engine("checkers")
    for fen in fens:
        check(2 <= draughts_pieces(fen) <= 8, fen)
        check(not e.errors_until_ready("position fen " + fen), fen)
        legal = e.moves()
        check(legal and not any("x" in m for m in legal), "%s: %s" % (fen, legal))


@test("match", sanitizers=False)
def the_runner_explains_itself(ctx):
    match = [sys.executable, os.path.join(ROOT, "scripts", "match")]
    done = subprocess.run(match + ["--help"], capture_output=True, text=True, timeout=60)
    for flag in ["--engine", "--depth", "--tc", "--name", "--option", "--movetime", "--nodes"]:
        check(flag in done.stdout, "--help does not list " + flag)
    check("read_openings" not in done.stdout, "--help names a code function")
    done = subprocess.run(match + ["--engine", "/nonexistent/donjon", "--engine", "/nonexistent/donjon",
                                   "--variant", "checkers"], capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "not found" in done.stderr and "Traceback" not in done.stderr, done.stderr)
    donjon = os.path.join(ROOT, "donjon")
    report, _, out = run_match(["--engine", donjon, "--depth", "1", "--engine", donjon, "--depth", "1",
                                "--variant", "checkers", "--games", "2", "--max-plies", "20", "--quiet"])
    check("-0.0" not in out and "+inf [" not in out, out)
    # every game won: a bound, not an infinite estimate
    report, _, out = run_match(["--engine", donjon, "--depth", "3", "--name", "strong", "--engine",
                                "%s %s --mode illegal" % (sys.executable, os.path.join(ROOT, "tests", "broken_engine.py")), "--depth", "3",
                                "--variant", "checkers", "--games", "6", "--random-plies", "2"])
    # six wins: the score is at least 6 / (6 + 1.96^2) = 0.6097 (Wilson), so Elo > -400 log10(1/0.6097 - 1) = +77.5
    check("Elo difference: > +77.5" in out, out)
    # the progress lines bound it too: after the first win, Elo > -400 log10(1.96^2) = -233.8
    check("inf" not in out and "Elo >-233.8" in out, out)
    done = subprocess.run(match + ["--engine", donjon, "--depth", "1", "--engine", donjon, "--depth", "1",
                                   "--variant", "checkers", "--games", "2", "--max-plies", "10", "--quiet",
                                   "--pdn", os.path.join(tempfile.mkdtemp(), "g.pdn")],
                          capture_output=True, text=True, timeout=120)
    check("warning: no --openings" in done.stderr, done.stderr)
    # a limit given to every engine, and one engine's own: its own replaces it
    done = subprocess.run(match + ["--movetime", "30", "--engine", donjon, "--name", "timed", "--engine", donjon,
                                   "--depth", "1", "--name", "shallow", "--variant", "checkers", "--games", "2",
                                   "--max-plies", "6", "--quiet", "--random-plies", "2",
                                   "--pdn", os.path.join(tempfile.mkdtemp(), "g.pdn")],
                          capture_output=True, text=True, timeout=120)
    check("timed: %s, movetime 30 ms" % donjon in done.stderr and "shallow: %s, depth 1\n" % donjon in done.stderr,
          done.stderr)
    # a limit after the last engine is that engine's alone: the other would search the default
    # depth, so the match is refused rather than played unequal by mistake
    done = subprocess.run(match + ["--variant", "checkers", "--games", "2", "--engine", donjon, "--name", "new",
                                   "--engine", donjon, "--name", "old", "--movetime", "100"],
                          capture_output=True, text=True, timeout=60)
    check(done.returncode == 2 and "new has no limit of its own but old has one" in done.stderr, done.stderr)


@test("match", sanitizers=False)
def broken_engines_lose_and_the_match_completes(ctx):
    donjon = os.path.join(ROOT, "donjon")
    broken = os.path.join(ROOT, "tests", "broken_engine.py")
    for mode, reason in [("illegal", "illegal move"), ("hang", "hang"), ("exit", "crashed")]:
        start = time.monotonic()
        report, records, out = run_match(["--engine", donjon, "--depth", "2", "--name", "donjon", "--engine",
                                          "%s %s --mode %s" % (sys.executable, broken, mode), "--name", "broken", "--depth", "2",
                                          "--variant", "checkers", "--games", "4", "--timeout", "2", "--quiet"])
        s = report["pairings"][0]
        check(s["wins"] == 4 and s["losses"] == 0, "%s: %s" % (mode, s))
        games = parse_pdn(records)
        check(len(games) == 4, "%s: %d records" % (mode, len(games)))
        check(any(reason in g["Termination"] for g in games), "%s: %s" % (mode, [g["Termination"] for g in games]))
        check(time.monotonic() - start < 60, "%s: the match took too long" % mode)
    # with --recover an engine that exits is restarted for each game instead of forfeiting
    report, records, _ = run_match(["--engine", donjon, "--depth", "1", "--engine",
                                    "%s %s --mode exit" % (sys.executable, broken), "--depth", "1", "--variant", "gounki", "--games",
                                    "2", "--recover", "--quiet"])
    games = parse_pdn(records)
    check(all("crashed" in g["Termination"] for g in games), [g["Termination"] for g in games])


@test("match", sanitizers=False)
def clock_games_and_sprt_stop(ctx):
    donjon = os.path.join(ROOT, "donjon")
    report, records, out = run_match(["--engine", donjon, "--tc", "1+0.05", "--engine", donjon, "--tc", "1+0.05",
                                      "--variant", "russian", "--games", "2", "--random-plies", "4",
                                      "--max-plies", "60"])
    games = parse_pdn(records)
    check(len(games) == 2 and not any("time" in g["Termination"] for g in games), [g["Termination"] for g in games])
    check("Game 2/2" in out, "progress lines: %s" % out[-500:])
    report, _, out = run_match(["--engine", donjon, "--depth", "3", "--engine", donjon, "--depth", "1",
                                "--variant", "checkers", "--games", "40", "--random-plies", "6",
                                "--sprt", "0", "400", "0.2", "0.2", "--quiet"])
    check("sprt" in report and report["sprt"]["decision"] in ("H0", "H1"), report.get("sprt"))
    check(report["games"] < 40, "the SPRT stopped the match early: %d games" % report["games"])


@test("match", sanitizers=False)
def a_stopped_match_resumes_from_its_records(ctx):
    donjon = os.path.join(ROOT, "donjon")
    out = tempfile.mkdtemp()
    pdn = os.path.join(out, "games.pdn")
    match = [sys.executable, os.path.join(ROOT, "scripts", "match"), "--referee", donjon, "--depth", "1",
             "--engine", donjon, "--name", "A", "--engine", donjon, "--name", "B", "--variant", "checkers",
             "--openings", os.path.join(ROOT, "scripts", "openings", "checkers.txt"), "--pdn", pdn]
    done = subprocess.run(match + ["--games", "4", "--quiet"], capture_output=True, text=True, timeout=300)
    check(done.returncode == 0, done.stdout + done.stderr)
    # a stop while the last game was being written: its record loses its movetext's end
    with open(pdn) as f:
        text = f.read()
    with open(pdn, "w") as f:
        f.write(text[:len(text) - 30])
    done = subprocess.run(match + ["--games", "6", "--resume", "--json", os.path.join(out, "summary.json")],
                          capture_output=True, text=True, timeout=300)
    check(done.returncode == 0, done.stdout + done.stderr)
    check("resumed 3 games from %s, 1 unfinished record left out" % pdn in done.stderr, done.stderr)
    check("Game 4/6" in done.stdout and "Game 3/6" not in done.stdout, done.stdout)
    games = parse_pdn(open(pdn).read())
    check(sorted(int(g["Round"]) for g in games) == [1, 2, 3, 4, 5, 6], [g["Round"] for g in games])
    with open(os.path.join(out, "summary.json")) as f:
        report = json.load(f)
    check(report["games"] == 6 and report["pairings"][0]["games"] == 6, report)
    check(sum(report["pairings"][0]["pentanomial"]) == 3, "three whole pairs: %s" % report["pairings"][0])
    # the records of another match are refused, and left as they were
    done = subprocess.run(match[:-6] + ["--name", "C", "--variant", "checkers", "--pdn", pdn, "--games", "8",
                                        "--resume"], capture_output=True, text=True, timeout=300)
    check(done.returncode != 0 and "round 1 is A against B, this match's is A against C" in done.stderr,
          done.stdout + done.stderr)
    check(len(parse_pdn(open(pdn).read())) == 6, "the records stay")
    # a name the records cannot write as it is (PDN has no escape for its double quote) still matches
    quoted = os.path.join(out, "quoted.pdn")
    named = [w if w != "A" else 'A"1' for w in match[:-1]] + [quoted]
    for games in ("2", "4"):
        done = subprocess.run(named + ["--games", games, "--resume", "--quiet"], capture_output=True, text=True,
                              timeout=300)
        check(done.returncode == 0, done.stdout + done.stderr)
    check("resumed 2 games from %s" % quoted in done.stderr and 'A"1 vs B: 4 games' in done.stdout
          and len(parse_pdn(open(quoted).read())) == 4, done.stdout + done.stderr)
    # an SPRT the resumed games decide already plays no more: A won 20 pairs, drew one
    decided = os.path.join(out, "decided.pdn")
    with open(decided, "w") as f:
        for k in range(21):
            first, second = ("1/2-1/2", "1/2-1/2") if k == 0 else ("1-0", "0-1")
            f.write(pdn_game(2 * k + 1, "A", "B", first) + pdn_game(2 * k + 2, "B", "A", second))
    check(stats.sprt_decision([0, 0, 1, 0, 20], 0, 10, 0.05, 0.05)[0] == "H1", "the crafted pairs decide")
    done = subprocess.run(match[:-2] + ["--pdn", decided, "--games", "100", "--sprt", "0", "10", "0.05", "0.05",
                                        "--resume"], capture_output=True, text=True, timeout=300)
    check(done.returncode == 0 and "Game " not in done.stdout and "A vs B: 42 games, +40 =2 -0" in done.stdout
          and "H1 accepted" in done.stdout, done.stdout + done.stderr)


@test("match", sanitizers=False)
def play_a_short_game_in_the_terminal(ctx):
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts", "play"), "--variant", "checkers",
                             "--side", "black", "--movetime", "50", "--engine", os.path.join(ROOT, "donjon")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Black (the player) moves first in checkers: 11-15 is legal from the start; 9-9 is not
    out, err = proc.communicate("9-9\n11-15\nhint\nfen\nundo\nquit\n", timeout=60)
    check(proc.returncode == 0, err)
    check("Illegal" in out and "Legal moves:" in out, out[-800:])
    check("Last move: 11-15" in out and "Donjon plays" in out, out[-800:])
    check(out.count(" a b c d e f g h") >= 3, "the board is drawn after every move")
    # 11-15 ends on 15 = e5: its cell is marked in the diagram drawn after the move
    check(re.search(r"^\s*5 .*\[b\]", out, re.M), "the last move is not marked: %s" % out[-800:])
    check("Hint:" in out and "B:W" in out, out[-500:])


@test("match", sanitizers=False)
def play_from_a_fen_switch_redo_and_save(ctx):
    play = [sys.executable, os.path.join(ROOT, "scripts", "play"), "--engine", os.path.join(ROOT, "donjon")]
    saved = os.path.join(tempfile.mkdtemp(), "game.pdn")
    # international from a FEN, the player White: move, undo, redo, then switch sides and save
    fen = "W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48:B1-20"
    done = subprocess.run(play + ["--variant", "international", "--fen", fen, "--side", "white", "--movetime", "30"],
                          input="z9-z9\n33-29\nundo\nredo\nswitch\nsave %s\nquit\n" % saved, capture_output=True,
                          text=True, timeout=120)
    out = done.stdout
    check(done.returncode == 0, done.stderr)
    check("Illegal: " in out and "move 1 '" not in out, out[-600:])
    check("You now play black" in out and "Saved" in out, out[-400:])
    with open(saved) as f:
        game = parse_pdn(f.read())[0]
    check(game["FEN"].startswith("W:W27,28,") and game["numbers"][0] == "1.", game)
    # 33-29 and the reply (redone), then the engine's move for White after the switch
    check(game["moves"][0] == "33-29" and len(game["moves"]) == 3, game["moves"])
    e = ctx.engine("international")
    check(not replay(e, game), "the saved game does not replay")
    # a missing engine binary: a sentence, not a traceback
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "play"), "--engine", "/nonexistent/donjon"],
                          capture_output=True, text=True, timeout=60)
    check(done.returncode != 0 and "not found" in done.stderr and "Traceback" not in done.stderr, done.stderr)
