/* bench.h — the fixed-depth search benchmark whose node count signs the engine's play. */
#ifndef DONJON_BENCH_H
#define DONJON_BENCH_H
#include "game.h"

#include <stdatomic.h>
#include <stdint.h>

typedef struct {
    uint64_t nodes;
    int64_t search_us;   /* the searches' time, without the clearing of table and history before each */
    bool completed;      /* false: *stop ended it early */
} BenchResult;

/* Searches every bench position of `only` (or of every variant when NULL) to `depth`
 * (0: each variant's own bench_depth)
 * with one thread and a fresh 16 MB table; line() receives one progress line each.
 * Setting *stop (may be NULL) ends it early. */
BenchResult bench_run(const Variant *only, int depth, const atomic_bool *stop, void (*line)(void *ctx, const char *text),
                      void *ctx);
#endif
