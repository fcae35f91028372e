/*
 * zobrist.h — deterministic pseudo-random 64-bit numbers for position keys.
 * Modules fill their key tables once at start-up (before any thread runs) from
 * zobrist_next(), so keys are the same on every run and every machine.
 */
#ifndef DONJON_ZOBRIST_H
#define DONJON_ZOBRIST_H
#include <stdint.h>

typedef struct { uint64_t state; } ZobristStream;

static inline uint64_t zobrist_next(ZobristStream *s)
{
    /* splitmix64: good spread, trivial to seed */
    uint64_t z = (s->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
#endif
