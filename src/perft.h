/* perft.h — counting the leaves of the legal-move tree (the proof of move generation). */
#ifndef DONJON_PERFT_H
#define DONJON_PERFT_H
#include "game.h"

#include <stdatomic.h>

/* Both return early (with a partial count) once *stop is set; stop may be NULL. */
uint64_t perft(const Variant *v, const Position *pos, int depth, const atomic_bool *stop);
/* Calls report(move text, count) for every root move counted in full; *completed says
 * whether every root move was (false: stopped). */
uint64_t perft_divide(const Variant *v, const Position *pos, int depth, const atomic_bool *stop,
                      void (*report)(void *ctx, const char *move, uint64_t count), void *ctx, bool *completed);
#endif
