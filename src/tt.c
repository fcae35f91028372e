/* tt.c — the shared lock-free transposition table (see tt.h for the entry layout). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#define DEPTH_OFFSET 16

static inline TTCluster *cluster_of(const TranspositionTable *tt, uint64_t key)
{
    return &tt->clusters[(size_t)(((unsigned __int128)key * tt->cluster_count) >> 64)];
}

bool tt_resize(TranspositionTable *tt, size_t megabytes)
{
    if (megabytes < 1) return false;
    size_t count = megabytes * 1024 * 1024 / sizeof(TTCluster);
    /* calloc maps zeroed pages lazily: a large table costs nothing until it is used */
    TTCluster *clusters = calloc(count, sizeof(TTCluster));
    if (!clusters) return false;
    free(tt->clusters);
    tt->clusters = clusters;
    tt->cluster_count = count;
    tt->megabytes = megabytes;
    tt->generation = 0;
    return true;
}

void tt_free(TranspositionTable *tt)
{
    free(tt->clusters);
    tt->clusters = NULL;
    tt->cluster_count = 0;
}

void tt_clear(TranspositionTable *tt)
{
    if (tt->clusters) memset(tt->clusters, 0, tt->cluster_count * sizeof(TTCluster));
    tt->generation = 0;
}

void tt_new_search(TranspositionTable *tt) { tt->generation = (uint8_t)((tt->generation + 1) & 63); }

static inline int entry_depth(uint64_t data) { return (int)((data >> 48) & 0xFF) - DEPTH_OFFSET; }
static inline int entry_bound(uint64_t data) { return (int)((data >> 56) & 3); }
static inline int entry_generation(uint64_t data) { return (int)(data >> 58); }

bool tt_probe(const TranspositionTable *tt, uint64_t key, TTHit *hit)
{
    TTCluster *c = cluster_of(tt, key);
    for (int i = 0; i < 4; i++) {
        uint64_t data = atomic_load_explicit(&c->entries[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&c->entries[i].check, memory_order_relaxed);
        if ((check ^ data) != key || entry_bound(data) == BOUND_NONE) continue;
        hit->move = (uint16_t)data;
        hit->score = (int16_t)(data >> 16);
        hit->eval = (int16_t)(data >> 32);
        hit->depth = entry_depth(data);
        hit->bound = entry_bound(data);
        return true;
    }
    return false;
}

void tt_store(TranspositionTable *tt, uint64_t key, int depth, int bound, int score, int eval, uint16_t move)
{
    TTCluster *c = cluster_of(tt, key);
    TTEntry *victim = NULL;
    int victim_worth = 1 << 30;
    for (int i = 0; i < 4; i++) {
        TTEntry *e = &c->entries[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->check, memory_order_relaxed);
        if ((check ^ data) == key && entry_bound(data) != BOUND_NONE) {
            /* same position: keep a deeper entry of this search unless the new one is exact */
            if (bound != BOUND_EXACT && entry_generation(data) == tt->generation && entry_depth(data) > depth + 3)
                return;
            if (!move) move = (uint16_t)data; /* keep the old best move */
            victim = e;
            break;
        }
        int age = (tt->generation - entry_generation(data)) & 63;
        int worth = entry_bound(data) == BOUND_NONE ? -1000 : entry_depth(data) - 8 * age;
        if (worth < victim_worth) victim_worth = worth, victim = e;
    }
    if (depth < -DEPTH_OFFSET) depth = -DEPTH_OFFSET;
    if (depth > 255 - DEPTH_OFFSET) depth = 255 - DEPTH_OFFSET;
    uint64_t data = (uint64_t)move | (uint64_t)(uint16_t)score << 16 | (uint64_t)(uint16_t)eval << 32 |
                    (uint64_t)(depth + DEPTH_OFFSET) << 48 | (uint64_t)bound << 56 |
                    (uint64_t)tt->generation << 58;
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TranspositionTable *tt)
{
    size_t sample = tt->cluster_count < 250 ? tt->cluster_count : 250;
    int used = 0;
    for (size_t i = 0; i < sample; i++)
        for (int j = 0; j < 4; j++) {
            uint64_t data = atomic_load_explicit(&tt->clusters[i].entries[j].data, memory_order_relaxed);
            if (entry_bound(data) != BOUND_NONE && entry_generation(data) == tt->generation) used++;
        }
    return sample ? (int)(used * 1000 / (sample * 4)) : 0;
}
