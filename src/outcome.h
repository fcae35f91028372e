/* outcome.h — how a game stands: over by the rules, drawn by a counter or by repetition, or on. */
#ifndef DONJON_OUTCOME_H
#define DONJON_OUTCOME_H
#include "game.h"

typedef enum { OUTCOME_NONE = 0, OUTCOME_WHITE, OUTCOME_BLACK, OUTCOME_DRAW } OutcomeKind;

/* keys: the positions of the game before pos, oldest first. reason (may be NULL) gets the
 * reason text ("exit", "repetition", ...). */
OutcomeKind game_outcome(const Variant *v, const Position *pos, const uint64_t *keys, int key_count, const char **reason);
/* Appends key to a game's list of keys (*keys, *count of *capacity), growing it; false when
 * out of memory, the list then unchanged. */
bool game_keys_push(uint64_t **keys, int *count, int *capacity, uint64_t key);
#endif
