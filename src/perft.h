/* perft.h — counting the leaves of the legal-move tree (the proof of move generation). */
#ifndef DONJON_PERFT_H
#define DONJON_PERFT_H
#include "game.h"
uint64_t perft(const Variant *v, const Position *pos, int depth);
/* Calls report(move text, count) for every root move. */
uint64_t perft_divide(const Variant *v, const Position *pos, int depth,
                      void (*report)(void *ctx, const char *move, uint64_t count), void *ctx);
#endif
