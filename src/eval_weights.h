/*
 * eval_weights.h — learned evaluation weights: the file format, loading and checking it, and
 * the evaluation they give.
 *
 * The model (see FeatureSet in game.h): score = scale/SCALE_MAX · ((PHASE_MAX − phase)·Σ v·W_opening
 * + phase·Σ v·W_ending) / PHASE_MAX, over the active features (index, value) of the position
 * seen from the side to move. Weights are 16-bit integers in 1/WEIGHT_UNIT score units.
 *
 * File layout (little-endian), 96-byte header then the weights:
 *   0  "DJWEIGHT"        8  u32 version       12 u32 count (weights per phase)
 *   16 variant (24 bytes, NUL-padded)         40 feature set name (40 bytes, NUL-padded)
 *   80 u32 unit (WEIGHT_UNIT)                 84 u32 reserved (0)
 *   88 u64 checksum: FNV-1a 64 of every byte after the header
 *   96 i16 opening[count], then i16 ending[count]
 */
#ifndef DONJON_EVAL_WEIGHTS_H
#define DONJON_EVAL_WEIGHTS_H
#include "game.h"

#define WEIGHTS_MAGIC "DJWEIGHT"
#define WEIGHTS_VERSION 1
#define WEIGHTS_HEADER_BYTES 96
#define WEIGHT_UNIT 16

/* A weight's two phases side by side (the fast paths' layout: one memory access a feature). */
typedef struct {
    int16_t pair[2];
} WeightPair;

/* FeatureSet.prepare for modules whose fast path needs only the weights in pairs. */
void *eval_weight_pairs(const Variant *v, const int16_t *opening, const int16_t *ending);

typedef struct EvalWeights {
    char variant[25];
    char features[41];
    uint32_t count;
    uint64_t checksum;        /* the file's (FNV-1a 64 of the weights), checked when parsed */
    const int16_t *opening;
    const int16_t *ending;
    void *owned;              /* the file's bytes when loaded from a file (eval_weights_free) */
    void *prepared;           /* the module's fast tables (FeatureSet.prepare), or NULL */
    char origin[128];         /* "built in" or the file name */
} EvalWeights;

/* Checks bytes as a weights file for variant v; fills w (pointing into bytes) or err. */
bool eval_weights_parse(const Variant *v, const void *bytes, size_t size, const char *origin, EvalWeights *w,
                        char *err, size_t errlen);
/* Reads and checks a weights file; on success *out is a new table (eval_weights_free). */
bool eval_weights_load(const Variant *v, const char *path, EvalWeights **out, char *err, size_t errlen);
void eval_weights_free(EvalWeights *w);
/* The header of v's weights file for these weights (its checksum included). */
void eval_weights_header(const Variant *v, const int16_t *opening, const int16_t *ending,
                         unsigned char header[WEIGHTS_HEADER_BYTES]);
/* Writes a weights file; false with err on an I/O error. */
bool eval_weights_write(const char *path, const Variant *v, const int16_t *opening, const int16_t *ending,
                        char *err, size_t errlen);

/* The weights compiled into the binary for v, or NULL (v then uses its hand-set evaluation).
 * eval_weights_init() parses them once at start-up, before any thread runs. */
const EvalWeights *eval_weights_builtin(const Variant *v);
void eval_weights_init(void);

/* The learned evaluation of pos (side to move), w being v's weights: the module's fast path
 * when it has one, else the generic sum (both give the same score). */
int learned_evaluate(const Variant *v, const Position *pos, const EvalWeights *w);
int learned_evaluate_generic(const Variant *v, const Position *pos, const EvalWeights *w);
/* Whether the search may evaluate with w incrementally (FeatureSet.accumulate), and the score
 * learned_evaluate would give from pos's accumulator. */
static inline bool learned_incremental(const Variant *v, const EvalWeights *w)
{
    return w && w->prepared && v->features->accumulate;
}
int learned_evaluate_accumulated(const Variant *v, const Position *pos, const EvalWeights *w,
                                 const EvalAccumulator *acc);

/* The evaluation the engine uses: the learned one when w is given, else the hand-set one. */
static inline int evaluate_position(const Variant *v, const Position *pos, const EvalWeights *w)
{
    return w ? learned_evaluate(v, pos, w) : v->evaluate(v, pos);
}

uint64_t fnv1a64(const void *bytes, size_t size, uint64_t hash);
#define FNV1A64_START 0xcbf29ce484222325ull
#endif
