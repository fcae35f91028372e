/* text_io.h — what the line-based front-ends (protocol.c, hub.c) share: one lock around every
 * line written to stdout (search threads write too), reading input lines, and whole integers. */
#ifndef DONJON_TEXT_IO_H
#define DONJON_TEXT_IO_H
#include <stdbool.h>
#include <stdio.h>

/* Writes one line (format, then a newline) to stdout at once and flushes it. */
void text_emit(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Calls handle(context, line) for every line of in (NUL bytes read as blanks) until it
 * returns false (true is returned then) or the input ends (false). */
bool text_read_lines(FILE *in, bool (*handle)(void *context, char *line), void *context);
/* A whole decimal integer in [low, high]; false (and *out unchanged) otherwise. */
bool text_parse_integer(const char *text, long long low, long long high, long long *out);
#endif
