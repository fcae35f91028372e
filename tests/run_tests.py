#!/usr/bin/env python3
"""run_tests.py — Donjon's test suite: perft against reference tables, the protocol as a GUI
drives it, and the rules of each game on hand-built positions. The protocol suite runs again on
the AddressSanitizer+UBSan build and, with Threads 4, on the ThreadSanitizer build.

Ends with the line 'N passed, N failed'; exits non-zero when anything failed."""
import argparse
import os
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine import Engine, EngineError  # noqa: E402

from harness import TESTS, Context  # noqa: E402

# Load the test modules (each registers its tests with @test).
import tests_protocol  # noqa: E402,F401
import tests_draughts  # noqa: E402,F401
import tests_gounki  # noqa: E402,F401
import tests_ecroulement  # noqa: E402,F401
import tests_tawol  # noqa: E402,F401
import tests_quiescence  # noqa: E402,F401
import tests_match  # noqa: E402,F401
import tests_robustness  # noqa: E402,F401
import tests_contact  # noqa: E402,F401
import tests_hub  # noqa: E402,F401
import tests_dxp  # noqa: E402,F401
import tests_egdb  # noqa: E402,F401
import tests_learning  # noqa: E402,F401
import tests_browser  # noqa: E402,F401


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="./donjon")
    parser.add_argument("--asan")
    parser.add_argument("--tsan")
    parser.add_argument("--only", help="run only this group")
    parser.add_argument("--full", action="store_true", help="perft to every published depth")
    parser.add_argument("-k", help="run only tests whose name contains this")
    args = parser.parse_args()
    os.environ["DONJON_FULL_PERFT"] = "1" if args.full else ""
    # engines started by the tests see no endgame databases unless a test gives EGDBPath: what a
    # local `make egdb` left beside the binary must not change what they play
    os.environ["DONJON_EGDB"] = "/dev/null/no-egdb"

    builds = [("", os.path.abspath(args.engine), None, [], 1)]
    sanitizer_env = dict(os.environ)
    sanitizer_env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0:exitcode=66:allocator_may_return_null=1"
    sanitizer_env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:exitcode=66"
    sanitizer_env["TSAN_OPTIONS"] = "halt_on_error=1:exitcode=66:second_deadlock_stack=1:allocator_may_return_null=1"
    if args.asan:
        builds.append(("asan ", os.path.abspath(args.asan), sanitizer_env, [], 4))
    if args.tsan:
        builds.append(("tsan ", os.path.abspath(args.tsan), sanitizer_env,
                       ["setoption name Threads value 4"], 6))

    passed = failed = 0
    failures = []
    for label, binary, env, setup, slow in builds:
        for group, name, function, on_sanitizers in TESTS:
            if label and not on_sanitizers:
                continue
            if args.only and group != args.only:
                continue
            if args.k and args.k not in name:
                continue
            context = Context(binary, env, setup, slow)
            started = time.monotonic()
            problem = None
            try:
                function(context)
            except Exception as error:  # a failed assertion or a dead engine
                problem = "%s: %s" % (type(error).__name__, error)
                if not isinstance(error, (AssertionError, EngineError)):
                    problem += "\n" + traceback.format_exc()
            problems = context.finish()
            if problem:
                problems.insert(0, problem)
            elapsed = time.monotonic() - started
            title = "%s%s/%s" % (label, group, name)
            if problems:
                failed += 1
                failures.append(title)
                print("FAIL %s (%.1fs)\n    %s" % (title, elapsed, "\n    ".join(problems)), flush=True)
            else:
                passed += 1
                print("ok   %s (%.1fs)" % (title, elapsed), flush=True)
    if failures:
        print("\nfailed: " + ", ".join(failures))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
