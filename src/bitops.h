/* bitops.h — bit tricks on 64-bit sets used by the board modules. */
#ifndef DONJON_BITOPS_H
#define DONJON_BITOPS_H
#include <stdint.h>

/* Baseline x86-64 has no popcount instruction and GCC would call a slow library routine;
 * the SWAR count is a handful of inline operations. -march=native uses the instruction. */
static inline int popcount64(uint64_t b)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((b * 0x0101010101010101ull) >> 56);
#endif
}
static inline int lowest_bit(uint64_t b) { return __builtin_ctzll(b); }
/* Index of the lowest set bit, which is cleared from *b. *b must not be 0. */
static inline int pop_lowest(uint64_t *b)
{
    int i = __builtin_ctzll(*b);
    *b &= *b - 1;
    return i;
}
#define BIT(i) (1ull << (i))
#endif
