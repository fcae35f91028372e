"""tests_egdb.py — the draughts endgame databases (src/egdb): values against a separate solver,
values worked out by hand, the protocol (EGDBPath, eval, d, play), missing, partial and damaged
sets, a resumed build, won positions won over the board, and the match runner's adjudication.

The sets are built here, into temporary folders: up to 4 pieces for the solver comparison and the
conversions, up to 3 pieces (checkers) for the rest."""
import atexit
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import check, last_score_cp, test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLVER = os.path.join(ROOT, "build", "egdb-solver")
VARIANTS = ["checkers", "russian", "brazilian", "international"]
SAMPLES = 5000  # random positions per variant, each with its colour mirror: 10,000 checked

_folders = {}


def temporary_folder(name):
    if name not in _folders:
        _folders[name] = tempfile.mkdtemp(prefix="donjon-egdb-%s-" % name)
        atexit.register(shutil.rmtree, _folders[name], True)
    return _folders[name]


def build(binary, folder, variant, pieces, threads=1):
    run = subprocess.run([binary, "egdb", "build", "--variant", variant, "--pieces", str(pieces), "--out", folder,
                          "--threads", str(threads)], capture_output=True, text=True, timeout=900)
    check(run.returncode == 0, "egdb build %s %d: %s%s" % (variant, pieces, run.stdout[-2000:], run.stderr[-2000:]))
    return run.stdout


def probe(binary, folder, variant, fens):
    run = subprocess.run([binary, "egdb", "probe", "--variant", variant, "--path", folder], input="\n".join(fens) + "\n",
                         capture_output=True, text=True, timeout=600)
    check(run.returncode == 0, "egdb probe: %s" % run.stderr[-2000:])
    return run.stdout.splitlines()


def small_set(binary):
    """Checkers up to 3 pieces, built by the binary under test."""
    folder = temporary_folder("small-" + os.path.basename(binary))
    if not os.path.isdir(os.path.join(folder, "checkers")):
        build(binary, folder, "checkers", 3)
    return folder


def solve(variant):
    """The solver's sample lines for the variant (FEN, value, dtz), or a problem."""
    run = subprocess.run([SOLVER, "--variant", variant, "--pieces", "4", "--samples", str(SAMPLES), "--seed", "15"],
                         capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        return None, "%s: solver failed: %s" % (variant, run.stderr[-1000:])
    return [line.split() for line in run.stdout.splitlines()], None


def compare(binary, folder, variant, expected):
    """The database's answers to the solver's samples; returns problems."""
    got = probe(binary, folder, variant, [e[0] for e in expected])
    problems = []
    if len(expected) != 2 * SAMPLES or len(got) != len(expected):
        return ["%s: %d solver lines, %d database lines" % (variant, len(expected), len(got))]
    for (fen, value, dtz), answer in zip(expected, got):
        wanted = value if value == "draw" else "%s dtz %s" % (value, dtz)
        if answer != wanted and len(problems) < 10:
            problems.append("%s %s: the database says %r, the solver %r" % (variant, fen, answer, wanted))
    # a position and its colour mirror (the next line) have the same value for the side to move,
    # in both programs
    for k in range(0, len(expected), 2):
        if expected[k][1:] != expected[k + 1][1:] or got[k] != got[k + 1]:
            if len(problems) < 20:
                problems.append("%s: %s and its mirror %s differ: solver %s / %s, database %r / %r" % (
                    variant, expected[k][0], expected[k + 1][0], expected[k][1:], expected[k + 1][1:], got[k],
                    got[k + 1]))
    kinds = {e[1] for e in expected}
    if kinds != {"win", "draw", "loss"}:
        problems.append("%s: the samples hold only %s" % (variant, sorted(kinds)))
    return problems


@test("egdb", sanitizers=False)
def values_match_an_independent_solver(ctx):
    """10,000 random positions of up to 4 pieces per variant (5,000 and their colour mirrors):
    win/draw/loss and dtz equal those of tests/egdb_solver.c, which shares only the move
    generator with the databases (explicit graphs, naive numbering, no mirroring)."""
    if not os.path.exists(SOLVER):
        subprocess.run(["make", "-C", ROOT, "build/egdb-solver"], check=True, capture_output=True)
    folder = temporary_folder("four")
    # two workers: the international solver (the longest job by far) on one, every build and the
    # other solvers on the other
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        solved = {"international": pool.submit(solve, "international")}
        built = {"international": pool.submit(build, ctx.binary, folder, "international", 4)}
        for variant in VARIANTS[:-1]:
            built[variant] = pool.submit(build, ctx.binary, folder, variant, 4)
            solved[variant] = pool.submit(solve, variant)
        problems = []
        for variant in VARIANTS:
            built[variant].result()
            expected, problem = solved[variant].result()
            problems += [problem] if problem else compare(ctx.binary, folder, variant, expected)
    check(not problems, "\n    ".join(problems))


@test("egdb", sanitizers=False)
def won_positions_are_won_over_the_board(ctx):
    """Random won positions of 4 pieces, each variant, played out by two engines with the databases:
    every one is won before a move counter draws it (scripts/egdb_conversion; 20 positions a
    variant with 4-5 pieces are its benchmark run)."""
    folder = temporary_folder("four")
    for variant in VARIANTS:
        if not os.path.exists(os.path.join(folder, variant, "2K1M-1K0M.wdl")):
            build(ctx.binary, folder, variant, 4, threads=2)
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "egdb_conversion"), "--engine", ctx.binary,
                          "--egdb", folder, "--positions", "5", "--pieces", "4", "--depth", "3", "--seed", "3"],
                         capture_output=True, text=True, timeout=600)
    summaries = [l for l in run.stdout.splitlines() if "won over the board" in l]
    check(run.returncode == 0 and len(summaries) == 4, run.stdout[-3000:] + run.stderr[-2000:])
    check(all(re.search(r": 5 of 5 won", l) for l in summaries), "\n".join(summaries))


def egdb_line(e):
    e.send("eval")
    lines = e.sync()
    found = [l for l in lines if l.startswith("info string egdb ") and not l.startswith("info string egdb:")]
    return found[0][len("info string egdb "):] if found else None


@test("egdb")
def protocol_eval_d_and_play(ctx):
    folder = small_set(ctx.binary)
    e = ctx.engine("checkers")
    e.send("uci")
    check(any(l.startswith("option name EGDBPath type string") for l in e.read_until(lambda l: l == "uciok")),
          "uci lists EGDBPath")
    e.send("setoption name EGDBPath value " + folder)
    lines = e.sync()
    check(any(l.startswith("info string egdb: checkers up to 3 pieces") for l in lines), lines)
    # two kings against one win in checkers (the lone king cannot hold a double corner)
    e.send("position fen B:WK14,K19:BK32")
    check(egdb_line(e).startswith("loss dtz "), "2 kings v 1, the lone king to move")
    e.send("position fen W:WK14,K19:BK32")
    check(egdb_line(e).startswith("win dtz "), "2 kings v 1, the kings to move")
    # a lone king against a lone king, far apart: a draw
    e.send("position fen W:WK1:BK32")
    check(egdb_line(e) == "draw", "1 king v 1 king")
    # white's man on 29 (a1) is blocked by 25 (b2), whose landing square 22 (c3) is taken: no move
    e.send("position fen W:W29:B25,22")
    check(egdb_line(e) == "loss dtz 0", "no legal move")
    # the king on 18 (d4) takes the last piece, 15 (e5), landing on 11 (f6)
    e.send("position fen W:WK18:B15")
    check(egdb_line(e) == "win dtz 0", "the last piece taken")
    e.send("d")
    shown = e.read_until(lambda l: l.startswith("Key: "))
    check("Egdb: win dtz 0" in shown, shown)
    # more pieces than the set holds: no value, and d says so
    e.send("position fen W:WK18,K1,K2:B15,K32")
    check(egdb_line(e) is None, "5 pieces are not covered by a 3-piece set")
    e.send("d")
    shown = e.read_until(lambda l: l.startswith("Key: "))
    check(any(l.startswith("Egdb: not covered") for l in shown), shown)
    # the search: a database win scores from 20000 and keeps the win
    e.send("position fen W:WK14,K19:BK32")
    lines = e.go("depth 4")
    check(last_score_cp(lines) >= 20000, lines[-3:])
    move = lines[-1].split()[1]
    e.send("position fen W:WK14,K19:BK32 moves " + move)
    check(egdb_line(e).startswith("loss"), "%s keeps the win" % move)


@test("egdb")
def missing_partial_and_damaged_sets(ctx):
    small = small_set(ctx.binary)
    work = temporary_folder("broken-" + os.path.basename(ctx.binary))

    def opened(path):
        e = ctx.engine("checkers")
        e.send("setoption name EGDBPath value " + path)
        lines = e.sync()
        message = [l for l in lines if l.startswith("info string egdb:")]
        check(len(message) == 1, lines)
        # play goes on
        e.send("position fen W:WK14,K19:BK32")
        check(e.go("depth 3")[-1].startswith("bestmove "), "a search after the message")
        return message[0], e

    message, _ = opened(os.path.join(work, "nothing-here"))
    check("no usable database for checkers" in message and "playing without it" in message, message)

    def copy(name):
        target = os.path.join(work, name)
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(small, target)
        return target

    partial = copy("partial")
    os.remove(os.path.join(partial, "checkers", "1K1M-1K0M.wdl"))
    message, e = opened(partial)
    check("up to 2 pieces" in message and "3-piece set is incomplete" in message and "1K1M-1K0M" in message, message)
    e.send("position fen W:WK18:B15")
    check(egdb_line(e) == "win dtz 0", "2 pieces still covered")
    e.send("position fen W:WK14,K19:BK32")
    check(egdb_line(e) is None, "3 pieces no longer covered")

    damaged = copy("damaged")
    path = os.path.join(damaged, "checkers", "2K0M-1K0M.wdl")
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x40
    open(path, "wb").write(bytes(data))
    message, _ = opened(damaged)
    check("up to 2 pieces" in message and "damaged" in message, message)

    truncated = copy("truncated")
    path = os.path.join(truncated, "checkers", "1K0M-2K0M.wdl")
    data = open(path, "rb").read()
    open(path, "wb").write(data[:len(data) - 7])
    message, _ = opened(truncated)
    check("up to 2 pieces" in message and "partial file" in message, message)

    no_dtz = copy("nodtz")
    os.remove(os.path.join(no_dtz, "checkers", "1K0M-1K0M.dtz"))
    message, e = opened(no_dtz)
    check("up to 3 pieces" in message and "win/draw/loss only" in message, message)
    e.send("position fen W:WK14,K19:BK32")
    check(egdb_line(e) == "win", "a value without a distance")


@test("egdb")
def a_stopped_build_resumes(ctx):
    small = small_set(ctx.binary)
    resumed = os.path.join(temporary_folder("resume-" + os.path.basename(ctx.binary)), "set")
    shutil.rmtree(resumed, ignore_errors=True)
    shutil.copytree(small, resumed)
    checkers = os.path.join(resumed, "checkers")
    for name in ["0K1M-1K1M.wdl", "1K1M-0K1M.dtz", "0K2M-0K1M.wdl"]:
        os.remove(os.path.join(checkers, name))
    # a file cut short by a stop is not taken for a finished one
    open(os.path.join(checkers, "1K0M-0K2M.wdl"), "wb").write(b"DONJONDB")
    out = build(ctx.binary, resumed, "checkers", 3)
    rebuilt = [l for l in out.splitlines() if " positions in " in l]
    check(len(rebuilt) == 3 and all(re.search(r"0K1M-1K1M|0K1M-0K2M|1K0M-0K2M", l) for l in rebuilt), out)
    for name in sorted(os.listdir(os.path.join(small, "checkers"))):
        same = open(os.path.join(small, "checkers", name), "rb").read() == open(os.path.join(checkers, name), "rb").read()
        check(same, "%s differs after the resumed build" % name)


@test("egdb", sanitizers=False)
def match_adjudicates_by_the_databases(ctx):
    small = small_set(ctx.binary)
    out = tempfile.mkdtemp()
    try:
        openings = os.path.join(out, "openings.txt")
        with open(openings, "w") as f:
            f.write("W:WK14,K19:BK32\n")  # won for white: two kings against one
        run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "match"), "--depth", "2", "--engine", ctx.binary,
                              "--engine", ctx.binary, "--referee", ctx.binary, "--variant", "checkers",
                              "--games", "2", "--openings", openings, "--adjudicate-egdb", "--egdb-path", small,
                              "--pdn", os.path.join(out, "games.pdn"), "--json", os.path.join(out, "r.json")],
                             capture_output=True, text=True, timeout=300)
        check(run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:])
        games = [l for l in run.stdout.splitlines() if l.startswith("Game ")]
        check(len(games) == 2 and all("1-0 {adjudication: endgame database win for white" in g for g in games),
              "\n".join(games))
        run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "match"), "--depth", "2", "--engine", ctx.binary,
                              "--engine", ctx.binary, "--referee", ctx.binary, "--variant", "checkers",
                              "--games", "2", "--openings", openings, "--adjudicate-egdb", "--egdb-path",
                              os.path.join(out, "none"), "--pdn", os.path.join(out, "games.pdn")],
                             capture_output=True, text=True, timeout=300)
        said = run.stderr + run.stdout
        # refused, with the way to get databases, and not the engine's "playing without it"
        check(run.returncode != 0 and "referee has none" in said and "make egdb" in said
              and "playing without" not in said, run.stderr[-1000:])
    finally:
        shutil.rmtree(out, ignore_errors=True)
