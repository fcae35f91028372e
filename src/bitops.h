/* bitops.h — bit tricks on 64-bit sets used by the board modules. */
#ifndef DONJON_BITOPS_H
#define DONJON_BITOPS_H
#include <stdint.h>

static inline int popcount64(uint64_t b) { return __builtin_popcountll(b); }
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
