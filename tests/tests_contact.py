"""tests_contact.py — what a new user meets first: malformed `go` that starts nothing, perft and
bench that stay interruptible, one rule for trailing words, help and the command line, the
Skill Level option, ponderhit under the clock, and the last info line before bestmove."""
import os
import subprocess
import time

from harness import PROMPT_LIMIT, check, test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def quiet_for(e, seconds):
    """The lines that arrive within `seconds` (none expected from an engine doing nothing)."""
    deadline = time.monotonic() + seconds
    lines = []
    while time.monotonic() < deadline:
        try:
            lines.append(e.read_line(timeout=max(0.01, deadline - time.monotonic())))
        except Exception:
            break
    return lines


@test("contact")
def malformed_go_starts_nothing(ctx):
    e = ctx.engine("international")
    for bad in ["go depth abc", "go wtime abc", "go depth 4 searchmoves 31-26 99-1", "go movetime",
                "go depth 3 banana", "go searchmoves", "go nodes 1e5"]:
        errors = e.errors_until_ready(bad)
        check(errors and "nothing started" in errors[0], "%r: %s" % (bad, errors))
        late = quiet_for(e, 0.3)
        check(not late, "%r started something: %s" % (bad, late[:3]))
    lines = e.go("depth 2")
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("contact")
def a_clock_for_the_other_side_only_ends(ctx):
    e = ctx.engine("international")  # White to move
    start = time.monotonic()
    lines = e.go("btime 5000", timeout=10)
    check(time.monotonic() - start < PROMPT_LIMIT * ctx.slow, "go btime 5000 took %.2fs" % (time.monotonic() - start))
    check(any("no clock for the side to move" in l for l in lines), lines[:3])
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("contact")
def perft_and_bench_stay_interruptible(ctx):
    e = ctx.engine("international")
    e.send("perft 12")  # minutes of work
    time.sleep(0.2)
    sent = time.monotonic()
    e.sync()
    check(e.last_stamp - sent < PROMPT_LIMIT * ctx.slow, "readyok %.2fs into perft" % (e.last_stamp - sent))
    sent = time.monotonic()
    e.send("stop")
    lines = e.read_until(lambda l: "perft stopped" in l)
    check(e.last_stamp - sent < PROMPT_LIMIT * ctx.slow, "perft stopped %.2fs after stop" % (e.last_stamp - sent))
    check(not any(l.startswith("Nodes searched") for l in lines), "a stopped perft printed a total")
    # a complete perft still prints its total, and the position is the same
    total, _ = e.perft(3)
    check(total == 658, total)
    e.send("bench")
    time.sleep(0.2)
    sent = time.monotonic()
    e.sync()
    check(e.last_stamp - sent < PROMPT_LIMIT * ctx.slow, "readyok %.2fs into bench" % (e.last_stamp - sent))
    e.send("stop")
    e.read_until(lambda l: "bench stopped" in l)
    # a position command during perft stops it and takes effect
    e.send("perft 12")
    e.send("position startpos moves 32-28")
    check(e.fen().startswith("B:W28,31,33,") and len(e.moves()) == 9, e.fen())
    e.send("perft 12")
    time.sleep(0.2)
    start = time.monotonic()
    status = e.quit(timeout=5)
    check(status == 0 and time.monotonic() - start < PROMPT_LIMIT * ctx.slow, "quit during perft: %s" % status)


@test("contact")
def trailing_words_are_refused(ctx):
    e = ctx.engine("international")
    before = e.fen()
    for bad, silent_prefix in [("d x", "Fen:"), ("moves x", "moves"), ("perft 3 extra", "Nodes searched"),
                               ("result now", "result"), ("eval x", "info string eval"),
                               ("isready x", "readyok"), ("position startpos junk", None),
                               ("go perft 2 x", "Nodes searched"), ("ucinewgame x", None), ("help me", "usage")]:
        e.send(bad)
        lines = e.sync()
        errors = [l for l in lines if l.startswith("info string error")]
        check(errors, "%r accepted" % bad)
        if silent_prefix:
            check(not any(l.startswith(silent_prefix) for l in lines[:-1]), "%r was carried out: %s" % (bad, lines))
    check(e.fen() == before, e.fen())
    check(e.errors_until_ready("quit now"), "'quit now' accepted")
    check(e.errors_until_ready("isready") == [], "the engine quit on 'quit now'")


@test("contact")
def help_and_the_command_line(ctx):
    e = ctx.engine()
    e.send("help")
    lines = e.sync()
    text = "\n".join(lines)
    for word in ["position", "go", "perft", "bench", "setoption", "moves", "result"]:
        check(word in text, "help does not mention " + word)
    run = lambda *args: subprocess.run([ctx.binary] + list(args), capture_output=True, text=True,  # noqa: E731
                                       timeout=120 * ctx.slow, env=ctx.env)
    done = run("--help")
    check(done.returncode == 0 and "usage" in done.stdout and "bench" in done.stdout, done.stdout)
    done = run("--version")
    check(done.returncode == 0 and done.stdout.startswith("Donjon "), done.stdout)
    done = run("bench", "4", "checkers")
    check(done.returncode == 0 and "Nodes searched" in done.stdout, done.stdout[-300:])
    check(done.stdout.count("info string bench checkers") == 4, done.stdout)
    done = run("--frobnicate")
    check(done.returncode == 2 and "unknown" in done.stderr and "usage" in done.stderr, done.stderr)


@test("contact")
def option_names_and_values_ignore_case(ctx):
    e = ctx.engine()
    line = e.set_variant("International")
    check(line.startswith("info string variant international"), line)
    errors = e.errors_until_ready("setoption name threads value 2")
    check(not errors, errors)
    # Handicap belongs to gounki: accepted, and the engine says where it applies
    e.send("setoption name Handicap value center")
    lines = e.sync()
    check(any("gounki" in l and "Handicap" in l for l in lines), lines)


@test("contact")
def skill_level_weakens_and_answers_legally(ctx):
    e = ctx.engine("international")
    e.send("uci")
    lines = e.read_until(lambda l: l == "uciok")
    check(any(l.startswith("option name Skill Level type spin default 10 min 0 max 10") for l in lines), lines)
    check(e.errors_until_ready("setoption name Skill Level value 11"), "Skill Level 11 accepted")
    e.send("setoption name Skill Level value 0")
    start = time.monotonic()
    lines = e.go("movetime 5000", timeout=30)
    check(time.monotonic() - start < PROMPT_LIMIT * ctx.slow, "level 0 thought %.2fs" % (time.monotonic() - start))
    nodes = int([l for l in lines if " nodes " in l][-1].split(" nodes ")[1].split()[0])
    check(nodes <= 100 + 1024, "level 0 searched %d nodes" % nodes)
    check(lines[-1].split()[1] in e.moves(), lines[-1])
    # a weak level does not always play the same move in the same position
    seen = set()
    for _ in range(12):
        e.send("position startpos moves 32-28 19-23 28x19 14x23")
        seen.add(e.go("depth 30")[-1].split()[1])
    check(len(seen) > 1, "level 0 always played %s" % seen)
    e.send("setoption name Skill Level value 10")
    lines = e.go("depth 3")
    check(lines[-1].split()[1] in e.moves(), lines[-1])


@test("contact")
def ponderhit_obeys_the_clock_and_the_last_info_names_the_move(ctx):
    e = ctx.engine("international")
    # 8 s for 40 moves: about 0.2 s a move (the hard limit would be 2 s)
    e.send("go ponder wtime 8000 btime 8000 movestogo 40")
    time.sleep(0.3)
    sent = time.monotonic()
    e.send("ponderhit")
    lines = e.read_until(lambda l: l.startswith("bestmove"), timeout=10)
    check(e.last_stamp - sent < 0.2 + PROMPT_LIMIT * ctx.slow, "thought %.2fs after ponderhit" % (e.last_stamp - sent))
    for go in ["movetime 300", "wtime 3000 btime 3000", "nodes 30000"]:
        lines = e.go(go, timeout=10)
        last = lines[-2]
        check(last.startswith("info depth") and " pv " in last, "%s: %s" % (go, last))
        check(last.split(" pv ")[1].split()[0] == lines[-1].split()[1], "%s: %s / %s" % (go, last, lines[-1]))


@test("contact")
def contempt_decides_between_a_repetition_and_playing_on(ctx):
    # After e3-e4 d6-d5 e4-e3, Black's d5-d6 brings back the start position: a draw by
    # repetition. Valued at +1000 for the side to move (Contempt -1000) it beats any move a
    # search from the start can find; valued at -1000 it loses to every one of them.
    def score(lines):
        info = [l for l in lines if l.startswith("info depth")][-1].split()
        return info[info.index("score") + 1:info.index("score") + 3]

    e = ctx.engine("tawol")
    e.send("uci")
    lines = e.read_until(lambda l: l == "uciok")
    check(any(l.startswith("option name Contempt type spin default ") for l in lines), lines)
    check(e.errors_until_ready("setoption name Contempt value 1001"), "Contempt 1001 accepted")
    check(e.errors_until_ready("setoption name Contempt value many"), "Contempt 'many' accepted")
    for contempt, repeats in ((-1000, True), (1000, False), (0, None)):
        e.send("setoption name Contempt value %d" % contempt)
        e.send("position startpos moves e3-e4 d6-d5 e4-e3")
        lines = e.go("depth 4", timeout=60)
        best = lines[-1].split()[1]
        check(best in e.moves(), lines[-1])
        if repeats is True:
            check(best == "d5-d6" and score(lines) == ["cp", "1000"], lines[-2:])
        elif repeats is False:
            check(best != "d5-d6" and score(lines) != ["cp", "-1000"], lines[-2:])
