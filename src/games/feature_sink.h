/*
 * feature_sink.h — one enumeration of a game's learned features serves both the trainer and
 * the engine: a module writes its features once, through feature_emit(), into a sink that
 * either lists them (FeatureSet.extract) or adds up their weights (FeatureSet.evaluate). Called
 * with a constant `summing`, the inlined enumeration keeps only one of the two.
 */
#ifndef DONJON_FEATURE_SINK_H
#define DONJON_FEATURE_SINK_H
#include "../eval_weights.h"

#include <string.h>

typedef struct {
    Feature *list;             /* listing: the features so far */
    int count;
    const WeightPair *weights; /* summing: each weight's two phases side by side */
    int32_t sum[2];
} FeatureSink;

static inline __attribute__((always_inline)) void feature_emit(FeatureSink *s, bool summing, int index, int value)
{
    if (summing) {
        s->sum[0] += s->weights[index].pair[0] * value;
        s->sum[1] += s->weights[index].pair[1] * value;
    } else
        s->list[s->count++] = (Feature){index, value};
}

/* The score of the summed features, exactly as learned_evaluate_generic would give it. */
static inline int feature_sink_score(const FeatureSink *s, int phase, int scale)
{
    int64_t blended = ((int64_t)(PHASE_MAX - phase) * s->sum[0] + (int64_t)phase * s->sum[1]) * scale;
    return (int)(blended / ((int64_t)PHASE_MAX * SCALE_MAX * WEIGHT_UNIT));
}
/* Starting weights: zero but for the known ones, the same in both phases. */
typedef struct {
    int index;
    float weight;
} KnownWeight;

static inline void feature_starting_weights(float *opening, float *ending, int count, const KnownWeight *known,
                                            size_t known_count)
{
    for (int i = 0; i < count; i++) opening[i] = ending[i] = 0;
    for (size_t i = 0; i < known_count; i++) opening[known[i].index] = ending[known[i].index] = known[i].weight;
}

/* The lower left corners of the 49 2×2 windows of an 8×8 board (files a–g, rows 1–7). */
#define WINDOW_CORNERS 0x007F7F7F7F7F7F7Full

/* The cells whose byte differs between two 64-cell boards, within `mask` of each byte (the
 * bits that say what a cell holds): what an incremental evaluation reads again after a move. */
static inline uint64_t changed_cells(const void *now, const void *then, uint8_t mask)
{
    uint64_t changed = 0, byte_mask = 0x0101010101010101ull * mask;
    for (int word = 0; word < 8; word++) {
        uint64_t a, b;
        memcpy(&a, (const uint8_t *)now + 8 * word, 8);
        memcpy(&b, (const uint8_t *)then + 8 * word, 8);
        for (uint64_t diff = (a ^ b) & byte_mask; diff;) {
            int byte = __builtin_ctzll(diff) >> 3;
            changed |= 1ull << (8 * word + byte);
            diff &= ~(0xffull << (8 * byte));
        }
    }
    return changed;
}

/* The lower left corners of the 2×2 windows that hold a cell of the set. */
static inline uint64_t window_corners_of(uint64_t cells)
{
    return (cells | cells >> 1 | cells >> 8 | cells >> 9) & WINDOW_CORNERS;
}

/* For 2×2 windows coded a + k·b + k²·c + k³·d (k cell states; a, b the lower cells from left to
 * right, c, d the upper ones, read from White's side): the code of the same window from
 * Black's side, whose view is the board turned a half-turn (cells d, c, b, a) with the sides'
 * states swapped by other_side[]. */
static inline void window_codes_for_black(uint16_t *black_code, int k, const uint8_t *other_side)
{
    for (int code = 0; code < k * k * k * k; code++) {
        int a = code % k, b = code / k % k, c = code / (k * k) % k, d = code / (k * k * k);
        black_code[code] = (uint16_t)(other_side[d] + k * other_side[c] + k * k * other_side[b] + k * k * k * other_side[a]);
    }
}

/* The two entry points of a feature set around its one enumeration,
 * visit(v, pos, sink, summing, &phase, &scale). */
#define FEATURE_SET_ENTRY_POINTS(prefix, visit)                                                              \
    static int prefix##_extract(const Variant *v, const Position *pos, Feature *out, int *phase, int *scale) \
    {                                                                                                        \
        FeatureSink sink = {.list = out};                                                                    \
        visit(v, pos, &sink, false, phase, scale);                                                           \
        return sink.count;                                                                                   \
    }                                                                                                        \
    static int prefix##_evaluate_fast(const Variant *v, const Position *pos, const void *prepared)           \
    {                                                                                                        \
        FeatureSink sink = {.weights = prepared};                                                            \
        int phase, scale;                                                                                    \
        visit(v, pos, &sink, true, &phase, &scale);                                                          \
        return feature_sink_score(&sink, phase, scale);                                                      \
    }
#endif
