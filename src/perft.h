/* perft.h — counting the leaves of the legal-move tree (the proof of move generation). */
#ifndef DONJON_PERFT_H
#define DONJON_PERFT_H
#include "game.h"
#include <stdatomic.h>
uint64_t perft(const Variant *v, const Position *pos, int depth);
/* Calls report(move text, count) for every root move; stops early when *stop becomes true. */
uint64_t perft_divide(const Variant *v, const Position *pos, int depth, atomic_bool *stop,
                      void (*report)(void *ctx, const char *move, uint64_t count), void *ctx);
#endif
