#!/usr/bin/env python3
"""skill_level_engine.py — Donjon with a `Skill Level` option, as the engine may come to offer
one (tests only): `uci` lists the option; its setoption lines are written to the file named by
SKILL_LOG instead of reaching the engine; everything else goes to the engine named by
DONJON_ENGINE and back."""
import os
import subprocess
import sys
import threading

OPTION = b"option name Skill Level type spin default 20 min 0 max 20\n"

engine = subprocess.Popen([os.environ["DONJON_ENGINE"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def answer():
    for raw in engine.stdout:
        if raw.startswith(b"uciok"):
            sys.stdout.buffer.write(OPTION)
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()


answering = threading.Thread(target=answer)
answering.start()
with open(os.environ["SKILL_LOG"], "a") as log:
    for line in sys.stdin:
        if line.startswith("setoption name Skill Level value "):
            log.write(line)
            log.flush()
            continue
        engine.stdin.write(line.encode())
        engine.stdin.flush()
        if line.strip() == "quit":
            break
engine.stdin.close()
engine.wait()
answering.join()
