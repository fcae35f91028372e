/*
 * tt.h — the transposition table shared by every search thread.
 *
 * Layout: clusters of four 16-byte entries (one 64-byte cache line). An entry is two
 * 64-bit words, `data` and `check = key ^ data`, written and read with relaxed atomics
 * and no lock: a torn entry (two threads writing at once) fails the check and reads as
 * a miss, so no thread ever trusts a mixed entry.
 *
 * data bits: 0-15 move tag, 16-31 score, 32-47 static eval, 48-55 depth + DEPTH_OFFSET,
 * 56-57 bound, 58-63 search generation (aging).
 */
#ifndef DONJON_TT_H
#define DONJON_TT_H
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

typedef struct {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} TTEntry;

typedef struct {
    TTEntry entries[4];
} TTCluster;

typedef struct {
    TTCluster *clusters;
    void *mapping;          /* the memory the clusters lie in (released by tt_free) */
    size_t mapping_bytes;
    size_t cluster_count;
    size_t megabytes;
    uint8_t generation;
} TranspositionTable;

typedef struct {
    uint16_t move;
    int16_t score;
    int16_t eval;
    int depth;
    int bound;
} TTHit;

/* The cluster a key belongs to (the key's high bits scaled to the table's size). */
static inline TTCluster *tt_cluster_of(const TranspositionTable *tt, uint64_t key)
{
    return &tt->clusters[(size_t)(((unsigned __int128)key * tt->cluster_count) >> 64)];
}

/* Starts loading the cluster of key into the cache, so that a probe made a little later (once
 * the child's first checks are done) does not wait for memory. */
static inline void tt_prefetch(const TranspositionTable *tt, uint64_t key) { __builtin_prefetch(tt_cluster_of(tt, key)); }

/* Replaces the table by one of `megabytes`; on failure keeps the old table and returns false. */
bool tt_resize(TranspositionTable *tt, size_t megabytes);
void tt_free(TranspositionTable *tt);
void tt_clear(TranspositionTable *tt);
void tt_new_search(TranspositionTable *tt);
bool tt_probe(const TranspositionTable *tt, uint64_t key, TTHit *hit);
void tt_store(TranspositionTable *tt, uint64_t key, int depth, int bound, int score, int eval, uint16_t move);
/* Permille of sampled entries written by the current search. */
int tt_hashfull(const TranspositionTable *tt);
#endif
