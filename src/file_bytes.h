/* file_bytes.h — reading a whole file into memory, for the readers that parse a file at once
 * (weights files, game records). */
#ifndef DONJON_FILE_BYTES_H
#define DONJON_FILE_BYTES_H
#include <stdbool.h>
#include <stddef.h>

/* Reads the file at path into a new block from malloc (aligned for any type), followed by a NUL
 * byte not counted in *size, so that text can be parsed in place. A file of more than max_bytes
 * is refused. On failure, err holds "<path>: <why>" and nothing is allocated. */
bool file_read_whole(const char *path, size_t max_bytes, unsigned char **bytes, size_t *size, char *err,
                     size_t errlen);
#endif
