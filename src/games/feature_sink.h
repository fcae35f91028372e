/*
 * feature_sink.h — one enumeration of a game's learned features serves both the trainer and
 * the engine: a module writes its features once, through feature_emit(), into a sink that
 * either lists them (FeatureSet.extract) or adds up their weights (FeatureSet.evaluate). Called
 * with a constant `summing`, the inlined enumeration keeps only one of the two.
 */
#ifndef DONJON_FEATURE_SINK_H
#define DONJON_FEATURE_SINK_H
#include "../eval_weights.h"

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
#endif
