/* perft.c — leaf counting over the game interface, with bulk counting at the last ply. */
#include "perft.h"

static inline bool stop_requested(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

uint64_t perft(const Variant *v, const Position *pos, int depth, const atomic_bool *stop)
{
    if (depth <= 0) return 1;
    if (depth == 1 && v->count_moves) return (uint64_t)v->count_moves(v, pos);
    Move list[MAX_MOVES];
    int n = v->generate(v, pos, list);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n && !stop_requested(stop); i++) {
        Position child;
        v->make_move(v, pos, &list[i], &child);
        total += perft(v, &child, depth - 1, stop);
    }
    return total;
}

uint64_t perft_divide(const Variant *v, const Position *pos, int depth, const atomic_bool *stop,
                      void (*report)(void *ctx, const char *move, uint64_t count), void *ctx, bool *completed)
{
    *completed = true;
    if (depth <= 0) return 1;
    Move list[MAX_MOVES];
    int n = v->generate(v, pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Position child;
        v->make_move(v, pos, &list[i], &child);
        uint64_t count = perft(v, &child, depth - 1, stop);
        if (stop_requested(stop)) {
            *completed = false;
            break;
        }
        char text[MOVE_TEXT_MAX];
        v->format_move(v, pos, &list[i], text, sizeof text);
        if (report) report(ctx, text, count);
        total += count;
    }
    return total;
}
