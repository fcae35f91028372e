/* text_io.c — lines in and out for the front-ends (see text_io.h). */
#include "text_io.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/types.h>

/* the one global lock: search threads and the input thread write lines in turn */
static pthread_mutex_t output_lock = PTHREAD_MUTEX_INITIALIZER;

void text_emit(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    pthread_mutex_lock(&output_lock);
    vfprintf(stdout, format, args);
    fputc('\n', stdout);
    fflush(stdout);
    pthread_mutex_unlock(&output_lock);
    va_end(args);
}

bool text_read_lines(FILE *in, bool (*handle)(void *context, char *line), void *context)
{
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    bool stopped = false;
    while (!stopped && (length = getline(&line, &capacity, in)) >= 0) {
        /* NUL bytes would cut the line short: read them as blanks */
        for (ssize_t i = 0; i < length; i++)
            if (line[i] == 0) line[i] = ' ';
        stopped = !handle(context, line);
    }
    free(line);
    return stopped;
}

bool text_parse_integer(const char *text, long long low, long long high, long long *out)
{
    if (!text || !*text) return false;
    errno = 0;
    char *end;
    long long value = strtoll(text, &end, 10);
    if (*end || errno == ERANGE || value < low || value > high) return false;
    *out = value;
    return true;
}
