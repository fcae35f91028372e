/* file_bytes.c — reading a whole file into memory (see file_bytes.h). */
#include "file_bytes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool file_read_whole(const char *path, size_t max_bytes, unsigned char **bytes, size_t *size, char *err,
                     size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    /* the block grows by doubling; one byte is always kept free for the closing NUL */
    size_t capacity = 1 << 16, used = 0;
    unsigned char *block = malloc(capacity);
    bool too_large = false;
    for (size_t got; block && (got = fread(block + used, 1, capacity - used - 1, f)) > 0;) {
        used += got;
        if (used > max_bytes) {
            too_large = true;
            break;
        }
        if (used + 1 == capacity) {
            unsigned char *grown = realloc(block, capacity *= 2);
            if (!grown) free(block);
            block = grown;
        }
    }
    bool read_error = ferror(f);
    int read_errno = errno; /* why fread stopped (a directory: EISDIR), before fclose sets errno */
    fclose(f);
    if (!block || read_error || too_large) {
        if (too_large)
            snprintf(err, errlen, "%s: larger than %zu MB", path, max_bytes >> 20);
        else if (read_error)
            snprintf(err, errlen, "%s: cannot read: %s", path, strerror(read_errno));
        else
            snprintf(err, errlen, "%s: out of memory", path);
        free(block);
        return false;
    }
    block[used] = '\0';
    *bytes = block;
    *size = used;
    return true;
}
