"""launch.py — a clear message, not a traceback, when an engine binary is missing."""
import os
import shlex


def require_binary(command, what="engine"):
    """Exits with advice when command's program is a path that does not exist."""
    words = shlex.split(command) if isinstance(command, str) else list(command)
    program = words[0] if words else ""
    if os.sep in program and not os.path.exists(program):
        hint = " (run make first)" if os.path.basename(program) == "donjon" else ""
        raise SystemExit("%s not found: %s%s" % (what, program, hint))
