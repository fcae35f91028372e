/* protocol.h — the UCI-like text protocol on stdin/stdout (documented in protocol.md). */
#ifndef DONJON_PROTOCOL_H
#define DONJON_PROTOCOL_H
#include <stdio.h>
/* Reads commands until `quit` or end of input; returns the process exit status. */
int protocol_loop(FILE *in);
/* Runs one command line (e.g. "bench 10 checkers") to its end; returns the exit status. */
int protocol_run_command(const char *command);
#endif
