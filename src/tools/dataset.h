/*
 * dataset.h — training data: shards of labelled positions of one variant, written by
 * `donjon selfplay` and read together by `donjon train`.
 *
 * A shard is a 128-byte header then fixed-size records (little-endian):
 *   header: 0 "DJDATA01", 8 u32 version, 12 u32 record size, 16 variant (24 bytes, NUL-padded),
 *           40 u64 records, 48 u64 seed, 56 u64 first game, 64 u64 games, 72 u32 nodes per
 *           move, 76 u32 depth per move, 80 u64 checksum (FNV-1a 64 of every record byte),
 *           88 u32 the weaker side's nodes per move (selfplay --weak-nodes; 0: none),
 *           92 u32 flags (bit 0: the weaker side played the hand-set evaluation, selfplay
 *           --weak-hand-set; bit 1: it played a weights file, --weak-eval-file; bit 2: the
 *           positions come from game records, `donjon records`), 96 u64 the
 *           checksum of those weights (their file's, 0 if none), 104..127 reserved (0)
 *   record: 0 u32 game (its number in the seed's sequence), 4 u16 ply, 6 i16 search score
 *           (side to move, clamped to ±30000), 8 u8 result for the side to move (0 loss,
 *           1 draw, 2 win), 9 u8 side to move, 10 u8 extra turns, 11 u8 rule flags,
 *           12 u16 reversible plies, 14 u16 counter, 16 the variant's board bytes.
 * A position is rebuilt from its record without its key (features do not need it).
 */
#ifndef DONJON_DATASET_H
#define DONJON_DATASET_H
#include "../game.h"

#include <stdio.h>

#define DATASET_MAGIC "DJDATA01"
#define DATASET_VERSION 1
#define DATASET_HEADER_BYTES 128
#define DATASET_RECORD_HEAD 16

typedef struct {
    uint64_t seed, first_game, games;
    uint32_t nodes, depth;
    uint32_t weak_nodes; /* one side's nodes per move in unequal games, 0 if none */
    bool weak_hand_set;  /* that side played the hand-set evaluation */
    uint64_t weak_weights; /* or the weights of this checksum (a weights file's), 0 if none */
    bool records;        /* the positions come from game records (donjon records), not self-play */
} DatasetMeta;

typedef struct {
    Position position;   /* key 0 */
    uint32_t game;
    uint16_t ply;
    int16_t score;
    uint8_t result;      /* 0 loss, 1 draw, 2 win for the side to move */
} DatasetRecord;

typedef struct DatasetWriter DatasetWriter;

int dataset_record_size(const Variant *v);
/* The header of a shard of v with these fields (what the writer puts first in its file). */
void dataset_header(const Variant *v, const DatasetMeta *meta, uint64_t count, uint64_t checksum,
                    unsigned char header[DATASET_HEADER_BYTES]);
DatasetWriter *dataset_create(const char *path, const Variant *v, const DatasetMeta *meta, char *err, size_t errlen);
bool dataset_append(DatasetWriter *w, const DatasetRecord *r);
/* Writes the header (count, checksum) and closes; false with err on any I/O error. */
bool dataset_close(DatasetWriter *w, char *err, size_t errlen);
uint64_t dataset_written(const DatasetWriter *w);
/* The side that plays the weaker settings (selfplay --weak-*) in game number `game`: White in
 * even games, Black in odd ones, so that each colour is the weaker side half the time. */
static inline int dataset_weaker_side(uint64_t game) { return game % 2 == 0 ? SIDE_WHITE : SIDE_BLACK; }
/* Whether the shard's games had a weaker side at all (fewer nodes, or another evaluation). */
static inline bool dataset_has_weaker_side(const DatasetMeta *m)
{
    return m->weak_nodes || m->weak_hand_set || m->weak_weights;
}
/* The shard's game count as the header will say it (a shard cut short). */
void dataset_set_games(DatasetWriter *w, uint64_t games);

/* Reads a whole shard, checking it first (header, size, checksum); fills meta, then calls visit
 * for every record. False with err naming the file and the offset of the problem; visit is called only
 * for a shard that checked out. */
bool dataset_read(const char *path, const Variant *v, void (*visit)(void *ctx, const DatasetRecord *r), void *ctx,
                  DatasetMeta *meta, char *err, size_t errlen);

/* Makes a shard whose writer was killed (no count or checksum in its header) readable: keeps
 * its whole records up to the first invalid one, cuts the rest, and writes the header. The
 * number of records kept goes to *kept. False with err naming the file and the problem. */
bool dataset_salvage(const char *path, uint64_t *kept, char *err, size_t errlen);
#endif
