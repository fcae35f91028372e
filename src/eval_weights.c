/* eval_weights.c — weights files and the learned evaluation (see eval_weights.h). */
#include "eval_weights.h"

#include "file_bytes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCORE_LIMIT 30000 /* below the search's mate scores */
#define WEIGHTS_FILE_MAX_BYTES ((size_t)256 << 20) /* far beyond any feature set's two tables */

uint64_t fnv1a64(const void *bytes, size_t size, uint64_t hash)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < size; i++) hash = (hash ^ p[i]) * 0x100000001b3ull;
    return hash;
}

static uint32_t read_u32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static uint64_t read_u64(const unsigned char *p) { return read_u32(p) | (uint64_t)read_u32(p + 4) << 32; }

static void write_u32(unsigned char *p, uint32_t x)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(x >> (8 * i));
}

static void write_u64(unsigned char *p, uint64_t x)
{
    write_u32(p, (uint32_t)x);
    write_u32(p + 4, (uint32_t)(x >> 32));
}

bool eval_weights_parse(const Variant *v, const void *bytes, size_t size, const char *origin, EvalWeights *w,
                        char *err, size_t errlen)
{
    const unsigned char *p = bytes;
    memset(w, 0, sizeof *w);
    snprintf(w->origin, sizeof w->origin, "%s", origin);
    if (size < WEIGHTS_HEADER_BYTES || memcmp(p, WEIGHTS_MAGIC, 8) != 0) {
        snprintf(err, errlen, "%s: not a Donjon weights file (%s at offset 0)", origin,
                 size < WEIGHTS_HEADER_BYTES ? "shorter than the 96-byte header" : "no DJWEIGHT mark");
        return false;
    }
    uint32_t version = read_u32(p + 8), count = read_u32(p + 12), unit = read_u32(p + 80);
    if (version != WEIGHTS_VERSION) {
        snprintf(err, errlen, "%s: version %u at offset 8, this engine reads version %d", origin, version,
                 WEIGHTS_VERSION);
        return false;
    }
    memcpy(w->variant, p + 16, 24);
    memcpy(w->features, p + 40, 40);
    if (strcmp(w->variant, v->name) != 0) {
        snprintf(err, errlen, "%s: weights for variant '%s' (offset 16), not %s", origin, w->variant, v->name);
        return false;
    }
    if (!v->features || strcmp(w->features, v->features->name) != 0 || count != (uint32_t)v->features->count) {
        snprintf(err, errlen, "%s: feature set '%s' with %u weights (offset 40), this engine's %s is '%s' with %d",
                 origin, w->features, count, v->name, v->features ? v->features->name : "(none)",
                 v->features ? v->features->count : 0);
        return false;
    }
    if (unit != WEIGHT_UNIT) {
        snprintf(err, errlen, "%s: weight unit %u at offset 80, expected %d", origin, unit, WEIGHT_UNIT);
        return false;
    }
    size_t expected = WEIGHTS_HEADER_BYTES + (size_t)count * 4;
    if (size != expected) {
        snprintf(err, errlen, "%s: %s: %zu bytes, expected %zu (the file ends at offset %zu)", origin,
                 size < expected ? "truncated" : "trailing bytes", size, expected, size);
        return false;
    }
    uint64_t checksum = fnv1a64(p + WEIGHTS_HEADER_BYTES, size - WEIGHTS_HEADER_BYTES, FNV1A64_START);
    if (checksum != read_u64(p + 88)) {
        snprintf(err, errlen, "%s: damaged: the checksum (offset 88) does not match the weights at offsets 96-%zu",
                 origin, size);
        return false;
    }
    w->count = count;
    w->checksum = checksum;
    w->opening = (const int16_t *)(p + WEIGHTS_HEADER_BYTES);
    w->ending = w->opening + count;
    if (v->features->prepare) w->prepared = v->features->prepare(v, w->opening, w->ending);
    return true;
}

bool eval_weights_load(const Variant *v, const char *path, EvalWeights **out, char *err, size_t errlen)
{
    unsigned char *bytes;
    size_t size;
    if (!file_read_whole(path, WEIGHTS_FILE_MAX_BYTES, &bytes, &size, err, errlen)) return false;
    EvalWeights *w = malloc(sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(bytes);
        return false;
    }
    /* the weights are 16-bit values read in place: the block from malloc is aligned */
    if (!eval_weights_parse(v, bytes, size, path, w, err, errlen)) {
        free(bytes);
        free(w);
        return false;
    }
    w->owned = bytes;
    *out = w;
    return true;
}

void eval_weights_free(EvalWeights *w)
{
    if (!w) return;
    free(w->prepared);
    free(w->owned);
    free(w);
}

void eval_weights_header(const Variant *v, const int16_t *opening, const int16_t *ending,
                         unsigned char header[WEIGHTS_HEADER_BYTES])
{
    size_t count = (size_t)v->features->count;
    memset(header, 0, WEIGHTS_HEADER_BYTES);
    memcpy(header, WEIGHTS_MAGIC, 8);
    write_u32(header + 8, WEIGHTS_VERSION);
    write_u32(header + 12, (uint32_t)count);
    strncpy((char *)header + 16, v->name, 23);
    strncpy((char *)header + 40, v->features->name, 39);
    write_u32(header + 80, WEIGHT_UNIT);
    uint64_t checksum = fnv1a64(opening, count * 2, FNV1A64_START);
    write_u64(header + 88, fnv1a64(ending, count * 2, checksum));
}

bool eval_weights_write(const char *path, const Variant *v, const int16_t *opening, const int16_t *ending,
                        char *err, size_t errlen)
{
    size_t count = (size_t)v->features->count;
    unsigned char header[WEIGHTS_HEADER_BYTES];
    eval_weights_header(v, opening, ending, header);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(header, 1, sizeof header, f) == sizeof header && fwrite(opening, 2, count, f) == count &&
              fwrite(ending, 2, count, f) == count;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return ok;
}

void *eval_weight_pairs(const Variant *v, const int16_t *opening, const int16_t *ending)
{
    int count = v->features->count;
    WeightPair *pairs = malloc(sizeof *pairs * (size_t)count);
    for (int i = 0; pairs && i < count; i++) {
        pairs[i].pair[0] = opening[i];
        pairs[i].pair[1] = ending[i];
    }
    return pairs;
}

static inline int clamp_score(int score) { return score > SCORE_LIMIT ? SCORE_LIMIT : score < -SCORE_LIMIT ? -SCORE_LIMIT : score; }

int learned_evaluate(const Variant *v, const Position *pos, const EvalWeights *w)
{
    if (w->prepared) return clamp_score(v->features->evaluate(v, pos, w->prepared));
    return learned_evaluate_generic(v, pos, w);
}

int learned_evaluate_accumulated(const Variant *v, const Position *pos, const EvalWeights *w,
                                 const EvalAccumulator *acc)
{
    return clamp_score(v->features->evaluate_accumulated(v, pos, w->prepared, acc));
}

int learned_evaluate_generic(const Variant *v, const Position *pos, const EvalWeights *w)
{
    Feature features[FEATURES_MAX];
    int phase, scale;
    int n = v->features->extract(v, pos, features, &phase, &scale);
    int64_t opening = 0, ending = 0;
    for (int i = 0; i < n; i++) {
        opening += (int64_t)features[i].value * w->opening[features[i].index];
        ending += (int64_t)features[i].value * w->ending[features[i].index];
    }
    int64_t blended = ((PHASE_MAX - phase) * opening + phase * ending) * scale;
    int64_t score = blended / ((int64_t)PHASE_MAX * SCALE_MAX * WEIGHT_UNIT);
    return score > SCORE_LIMIT ? SCORE_LIMIT : score < -SCORE_LIMIT ? -SCORE_LIMIT : (int)score;
}
