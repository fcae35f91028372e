/*
 * egdb_file.h — the endgame database file format: one file per (variant, material, kind), its
 * header, checksum and compressed blocks; writing a table and reading one back.
 *
 * Layout (little-endian):
 *   header, 128 bytes: "DONJONDB", version, kind (wdl or dtz), variant name, material (white men,
 *     white kings, black men, black kings), positions per block, positions, blocks, data bytes,
 *     a 64-bit checksum of the whole file computed with the checksum field zero, and (dtz) the
 *     material's largest distance;
 *   block offsets: blocks + 1 32-bit offsets into the data;
 *   data: one encoding per block, whichever is shorter —
 *     raw:  byte 0, then the values packed (wdl: 2 bits a position, dtz: a byte);
 *     runs: byte 1, then runs: wdl a byte (value << 6 | length 1..63, or 0 and a varint length),
 *           dtz a value byte and a varint length.
 * A value lookup reads one block's runs up to the position: no decompression buffer, no cache,
 * and many threads may read one table at once.
 *
 * Values: wdl 0 = loss, 1 = draw, 2 = win for the side to move (White: see egdb_index.h);
 * dtz = plies to the next capture or man move (the moment the move counters start again) under
 * best play, 255 meaning 255 or more. Values the writer is told do not matter (EGDB_ANY: what a
 * probe finds otherwise, see egdb_build.c) take whatever makes runs longest.
 */
#ifndef DONJON_EGDB_FILE_H
#define DONJON_EGDB_FILE_H
#include "egdb_index.h"

#include <stddef.h>
#include <stdint.h>

#define EGDB_FORMAT_VERSION 1
#define EGDB_BLOCK_POSITIONS 4096
#define EGDB_HEADER_BYTES 128

typedef enum { EGDB_KIND_WDL = 1, EGDB_KIND_DTZ = 2 } EgdbKind;
enum { EGDB_LOSS = 0, EGDB_DRAW = 1, EGDB_WIN = 2, EGDB_UNKNOWN = -1 };
#define EGDB_ANY 0xFFFF     /* a value the writer may choose freely */
#define EGDB_DTZ_MAX 255

uint64_t egdb_checksum(const uint8_t *data, size_t length);

/* A table being written: values are given in order, block by block. */
typedef struct {
    EgdbKind kind;
    uint64_t positions, blocks, given;
    uint32_t *offsets;
    uint8_t *data;
    size_t data_bytes, data_capacity;
    uint16_t pending[EGDB_BLOCK_POSITIONS];
    int pending_count;
    bool failed;
    int longest;           /* dtz: the largest of the material (header), for a quick bound */
} EgdbWriter;

bool egdb_writer_start(EgdbWriter *w, EgdbKind kind, uint64_t positions);
void egdb_writer_put(EgdbWriter *w, uint16_t value); /* 0..2 (wdl) or 0..255 (dtz), or EGDB_ANY */
/* Writes the file atomically (a temporary name, then renamed); frees the writer. */
bool egdb_writer_finish(EgdbWriter *w, const char *path, const char *variant, EgdbMaterial m, char *err, size_t errlen);
void egdb_writer_free(EgdbWriter *w);

/* A table read back from its file: the whole file in memory, checked. */
typedef struct {
    EgdbKind kind;
    EgdbMaterial material;
    uint64_t positions, blocks;
    uint8_t *file;
    size_t file_bytes;
    const uint8_t *offsets;   /* blocks + 1 little-endian u32 */
    const uint8_t *data;
    size_t data_bytes;
    int longest;              /* dtz: the largest conversion distance of the material */
} EgdbTableFile;

/* Reads and checks path: its kind, variant, material and number of positions must be the
 * expected ones and its checksum right. False with err saying what is wrong. */
bool egdb_table_read(EgdbTableFile *t, const char *path, EgdbKind kind, const char *variant, EgdbMaterial m,
                     uint64_t positions, char *err, size_t errlen);
void egdb_table_free(EgdbTableFile *t);
/* The value at index, or EGDB_UNKNOWN when the block does not decode (cannot happen to a file
 * whose checksum held, but a lookup never reads out of bounds). */
int egdb_table_get(const EgdbTableFile *t, uint64_t index);
/* Every value in order into out (wdl: 2-bit packed, 4 a byte; dtz: a byte each). */
bool egdb_table_unpack(const EgdbTableFile *t, uint8_t *out);
#endif
