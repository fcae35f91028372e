/* bench.c — fixed-depth searches over each variant's bench positions (see bench.h). */
#include "bench.h"

#include "eval_weights.h"
#include "search.h"
#include "timeman.h"

#include <stdio.h>
#include <string.h>

/* Searches one position from a cleared table and history; adds the search's own time (not the
 * clearing's: 16 MB of table is a few ms, as long as a small search) to *search_us. */
static uint64_t bench_position(const Variant *v, const Position *pos, int depth, TranspositionTable *tt,
                               SearchThread *thread, const atomic_bool *stop, SearchOutcome *best, bool *found,
                               int64_t *search_us)
{
    SearchLimits limits;
    memset(&limits, 0, sizeof limits);
    limits.depth = depth;
    limits.movetime = -1;
    limits.clock[0] = limits.clock[1] = -1;
    limits.multipv = 1;
    tt_clear(tt);
    search_thread_clear(thread);
    int64_t start = now_us();
    *found = search_fixed(thread, v, pos, NULL, 0, &limits, tt, eval_weights_builtin(v), stop, best);
    *search_us += now_us() - start;
    return best->nodes;
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
    /* the built-in weights are read and their fast tables built once, at a variant's first use:
     * do it before the clock starts, so that nodes/s measures searching */
    for (int i = 0; variant_at(i); i++)
        if (!only || variant_at(i) == only) eval_weights_builtin(variant_at(i));
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
            SearchOutcome best;
            bool found;
            uint64_t nodes = bench_position(v, &pos, depth ? depth : v->bench_depth, &tt, thread, stop, &best, &found,
                                          &result.search_us);
            if (stop && atomic_load(stop)) {
                result.completed = false;
                break;
            }
            if (found) v->format_move(v, &pos, &best.move, move, sizeof move);
            result.nodes += nodes;
            snprintf(text, sizeof text, "bench %s %s nodes %llu bestmove %s", v->name, fen,
                     (unsigned long long)nodes, move);
            if (line) line(ctx, text);
        }
    }
    tt_free(&tt);
    search_thread_free(thread);
    return result;
}
