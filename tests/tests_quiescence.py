"""tests_quiescence.py — each game's quiescence generator against its full generator
(tests/noisy_check.c): in positions of random games, generate_noisy gives exactly the noisy moves
among the legal ones, in the order the full generator lists them, or all of them (one winning move
alone) when it says they are forced."""
import os
import subprocess

from harness import check, test

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKER = os.path.join(ROOT, "build", "noisy-check")
VARIANTS = ["gounki", "ecroulement", "ecroulement-rapide", "checkers", "russian", "brazilian", "international",
            "tawol"]


@test("quiescence", sanitizers=False)
def quiescence_moves_are_the_noisy_legal_moves_in_every_game(ctx):
    if not os.path.exists(CHECKER):
        subprocess.run(["make", "-C", ROOT, "build/noisy-check"], check=True, capture_output=True)
    for variant in VARIANTS:
        # "ordered": the same moves in the full generator's order, so a faster quiescence
        # generator (tawol's works a direction at a time) searches the same trees
        done = subprocess.run([CHECKER, variant, "200", "1", "ordered"], capture_output=True, text=True,
                              timeout=300)
        check(done.returncode == 0 and done.stdout.startswith("ok "), "%s: %s %s" % (variant, done.stdout,
                                                                                      done.stderr))
        # random games of 300 plies reach at least thousands of positions in every game
        check(int(done.stdout.split()[1]) >= 5000, "%s: only %s" % (variant, done.stdout))
