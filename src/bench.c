/* bench.c — fixed-depth searches over each variant's bench positions (see bench.h). */
#include "bench.h"

#include "search.h"
#include "timeman.h"

#include <stdio.h>

typedef struct {
    Move move;
    bool found;
} BestMove;

static void remember_best(void *context, const Position *root, const Move *best, const Move *ponder)
{
    (void)root, (void)ponder;
    BestMove *out = context;
    out->found = best != NULL;
    if (best) out->move = *best;
}

static uint64_t bench_position(const Variant *v, const Position *pos, int depth, TranspositionTable *tt,
                               SearchThread *thread, const atomic_bool *stop, BestMove *best)
{
    SearchShared shared = {0};
    shared.variant = v;
    shared.root = *pos;
    shared.tt = tt;
    shared.limits.depth = depth;
    shared.limits.movetime = -1;
    shared.limits.clock[0] = shared.limits.clock[1] = -1;
    shared.limits.multipv = 1;
    shared.callbacks.context = best;
    shared.callbacks.bestmove = remember_best;
    shared.budget.optimum_ms = shared.budget.maximum_ms = -1;
    shared.start_ms = now_ms();
    shared.thread_count = 1;
    shared.threads = &thread;
    shared.quiet = true;
    shared.external_stop = stop;
    atomic_store(&shared.stop, false);
    atomic_store(&shared.pondering, false);
    tt_clear(tt);
    search_thread_clear(thread);
    search_main(thread, &shared);
    return search_thread_nodes(thread);
}

BenchResult bench_run(const Variant *only, int depth, const atomic_bool *stop, void (*line)(void *ctx, const char *text),
                      void *ctx)
{
    BenchResult result = {0, 0, true};
    TranspositionTable tt = {0};
    SearchThread *thread = search_thread_new(0);
    if (!thread || !tt_resize(&tt, 16)) {
        if (line) line(ctx, "bench: out of memory");
        search_thread_free(thread);
        return result;
    }
    int64_t start = now_ms();
    for (int i = 0; variant_at(i) && result.completed; i++) {
        const Variant *v = variant_at(i);
        if (only && v != only) continue;
        for (int j = -1; j < 0 || v->bench_fens[j]; j++) {
            const char *fen = j < 0 ? v->start_fen : v->bench_fens[j];
            Position pos;
            char err[256], text[512], move[MOVE_TEXT_MAX] = "(none)";
            if (!v->parse_fen(v, fen, &pos, err, sizeof err)) {
                snprintf(text, sizeof text, "bench: %s %s: %s", v->name, fen, err);
                if (line) line(ctx, text);
                continue;
            }
            BestMove best = {.found = false};
            uint64_t nodes = bench_position(v, &pos, depth ? depth : v->bench_depth, &tt, thread, stop, &best);
            if (stop && atomic_load(stop)) {
                result.completed = false;
                break;
            }
            if (best.found) v->format_move(v, &pos, &best.move, move, sizeof move);
            result.nodes += nodes;
            snprintf(text, sizeof text, "bench %s %s nodes %llu bestmove %s", v->name, fen,
                     (unsigned long long)nodes, move);
            if (line) line(ctx, text);
        }
    }
    result.time_ms = now_ms() - start;
    tt_free(&tt);
    search_thread_free(thread);
    return result;
}
