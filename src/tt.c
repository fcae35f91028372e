/* tt.c — the shared lock-free transposition table (see tt.h for the entry layout). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define DEPTH_OFFSET 16

/* The table's memory: zeroed pages mapped lazily (a large table costs nothing until it is
 * used), aligned to 2 MB and marked for huge pages where the system has them, since every
 * probe lands on a random page and 4 KB pages would miss the TLB on most of them. */
enum { HUGE_PAGE = 2 * 1024 * 1024 };
#if defined(MAP_ANONYMOUS) && defined(MADV_HUGEPAGE)
#define TABLE_IN_MAPPED_MEMORY 1
#endif

static void *table_memory(size_t bytes, void **mapping, size_t *mapping_bytes)
{
#ifdef TABLE_IN_MAPPED_MEMORY
    size_t total = bytes + HUGE_PAGE;
    void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    uintptr_t aligned = ((uintptr_t)base + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    madvise((void *)aligned, bytes, MADV_HUGEPAGE); /* advice only: without huge pages it still works */
    *mapping = base;
    *mapping_bytes = total;
    return (void *)aligned;
#else
    *mapping = calloc(1, bytes);
    *mapping_bytes = 0;
    return *mapping;
#endif
}

static void release_memory(void *mapping, size_t mapping_bytes)
{
    if (!mapping) return;
#ifdef TABLE_IN_MAPPED_MEMORY
    munmap(mapping, mapping_bytes);
#else
    (void)mapping_bytes;
    free(mapping);
#endif
}

bool tt_resize(TranspositionTable *tt, size_t megabytes)
{
    if (megabytes < 1) return false;
    size_t count = megabytes * 1024 * 1024 / sizeof(TTCluster);
    void *mapping;
    size_t mapping_bytes;
    TTCluster *clusters = table_memory(count * sizeof(TTCluster), &mapping, &mapping_bytes);
    if (!clusters) return false;
    release_memory(tt->mapping, tt->mapping_bytes);
    tt->clusters = clusters;
    tt->mapping = mapping;
    tt->mapping_bytes = mapping_bytes;
    tt->cluster_count = count;
    tt->megabytes = megabytes;
    tt->generation = 0;
    return true;
}

void tt_free(TranspositionTable *tt)
{
    release_memory(tt->mapping, tt->mapping_bytes);
    tt->clusters = NULL;
    tt->mapping = NULL;
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
    TTCluster *c = tt_cluster_of(tt, key);
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
    TTCluster *c = tt_cluster_of(tt, key);
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
