/* outcome.c — the state of a game so far (see outcome.h). */
#include "outcome.h"

#include <stdlib.h>

bool game_keys_push(uint64_t **keys, int *count, int *capacity, uint64_t key)
{
    if (*count == *capacity) {
        int grown = *capacity ? *capacity * 2 : 256;
        uint64_t *bigger = realloc(*keys, sizeof(uint64_t) * (size_t)grown);
        if (!bigger) return false;
        *keys = bigger;
        *capacity = grown;
    }
    (*keys)[(*count)++] = key;
    return true;
}

OutcomeKind game_outcome(const Variant *v, const Position *pos, const uint64_t *keys, int key_count, const char **reason)
{
    const char *unused;
    if (!reason) reason = &unused;
    Move legal[MAX_MOVES];
    if (v->generate(v, pos, legal) == 0) {
        int winner;
        *reason = v->game_end(v, pos, &winner);
        return winner == SIDE_WHITE ? OUTCOME_WHITE : OUTCOME_BLACK;
    }
    *reason = v->counter_draw ? v->counter_draw(v, pos) : NULL;
    if (*reason) return OUTCOME_DRAW;
    /* the third occurrence of this position, same side to move, within the reversible window */
    int seen = 1;
    for (int back = 1; back <= pos->reversible_plies && back <= key_count; back++)
        if (keys[key_count - back] == pos->key) seen++;
    if (seen >= 3) {
        *reason = "repetition";
        return OUTCOME_DRAW;
    }
    *reason = NULL;
    return OUTCOME_NONE;
}
