/* hub.h — the Hub protocol, version 2, on stdin/stdout for the draughts variants (`donjon hub`; protocol.md). */
#ifndef DONJON_HUB_H
#define DONJON_HUB_H
#include <stdio.h>
/* Reads Hub commands until `quit` or end of input; returns the process exit status. */
int hub_loop(FILE *in);
#endif
