"""harness.py — the test registry and helpers shared by the test modules."""
import os
import re

from engine import Engine, EngineError

TESTS = []  # (group, name, function, runs_on_sanitizers)


def test(group, sanitizers=True):
    def register(function):
        TESTS.append((group, function.__name__, function, sanitizers))
        return function
    return register


# What sanitizers print for a real defect ("WARNING: AddressSanitizer failed to allocate" is only
# the refused terabyte of the Hash test, which the engine must survive).
SANITIZER_REPORTS = ["ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer",
                     "ERROR: ThreadSanitizer", "runtime error"]


class Context:
    """What a test gets: how to start the engine under the current build."""

    def __init__(self, binary, env, setup, slow):
        self.binary, self.env, self.setup, self.slow = binary, env, setup, slow
        self.engines = []

    def engine(self, variant=None):
        e = Engine([self.binary], env=self.env)
        self.engines.append(e)
        for line in self.setup:
            e.send(line)
        if variant:
            line = e.set_variant(variant)
            assert line.startswith("info string variant " + variant), line
        e.sync()
        return e

    def finish(self):
        problems = []
        for e in self.engines:
            if e.proc.poll() is None:
                try:
                    e.quit()
                except EngineError as error:
                    problems.append(str(error))
            e.close()
            err = e.stderr()
            if e.proc.returncode not in (0, None):
                problems.append("engine exit status %s: %s" % (e.proc.returncode, err[-3000:]))
            elif any(report in err for report in SANITIZER_REPORTS):
                problems.append("sanitizer report: " + err[-3000:])
        return problems


# The longest a prompt answer (readyok, bestmove after stop, exit after quit) may take in a test.
# Tests run on shared, busy machines, so they assert only what no load can break; the latency
# itself is measured and printed by scripts/bench (--only latency), where it belongs.
PROMPT_LIMIT = 1.0


def check(condition, message="check failed"):
    if not condition:
        raise AssertionError(message)


def last_score_cp(lines):
    """The score of the last `info ... score cp N` line of a search's output; fails without one."""
    scores = [int(m.group(1)) for m in (re.search(r" score cp (-?\d+)", line) for line in lines) if m]
    check(scores, "no score cp in %s" % lines[-3:])
    return scores[-1]


HERE = os.path.dirname(os.path.abspath(__file__))


def read_perft_table(name):
    rows = []
    with open(os.path.join(HERE, "data", name)) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            variant, fen, counts = [part.strip() for part in line.split("|")]
            rows.append((variant, fen, [int(c) for c in counts.split()]))
    return rows


