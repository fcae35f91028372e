/*
 * random_games.h — what the test checkers that walk random games share (noisy_check.c,
 * accumulate_check.c): the random numbers that pick the moves, and each game's start.
 */
#ifndef DONJON_TESTS_RANDOM_GAMES_H
#define DONJON_TESTS_RANDOM_GAMES_H
#include "../src/game.h"

#include <stdio.h>

static inline uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return *state >> 33;
}

/* The variant's start position into pos; false, the reason printed, if its FEN is refused. */
static inline bool start_position(const Variant *v, Position *pos)
{
    char err[200];
    if (v->parse_fen(v, v->start_fen, pos, err, sizeof err)) return true;
    fprintf(stderr, "start FEN refused: %s\n", err);
    return false;
}
#endif
