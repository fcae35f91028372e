#!/usr/bin/env python3
"""broken_engine.py — a deliberately broken engine for the match runner's tests.
  --mode illegal: answers every go with a move no game has;
  --mode hang:    never answers go;
  --mode exit:    exits when asked to move."""
import sys
import time

mode = sys.argv[sys.argv.index("--mode") + 1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Broken-%s\nuciok" % mode, flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "quit":
        break
    elif words[0] == "go":
        if mode == "illegal":
            print("bestmove z9-z0", flush=True)
        elif mode == "hang":
            time.sleep(3600)
        else:
            sys.exit(3)
