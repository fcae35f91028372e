/*
 * train.c — `donjon train`: fits a variant's learned-evaluation weights to self-play data.
 *
 * The model is the engine's (eval_weights.h): y = scale · ((1 − p)·Σ v·W_opening + p·Σ v·W_ending)
 * in score units, over the features of the position from the side to move. It predicts the
 * expected result through a sigmoid, σ(y / K), and is fitted by minimising the cross-entropy
 * against a target that blends the game's result with the search's opinion:
 *   t = λ · result + (1 − λ) · σ(score / K)       (result 1, ½, 0 for the side to move)
 * except where the score is another evaluation's (the weaker side of a shard whose weaker side
 * played the hand-set evaluation or other weights): its units and its opinion are not the ones
 * trained, so the target there is the result alone. K is fitted first, to the data's own scores
 * and results (those other scores left out), so the weights come out in the
 * units the search already uses (100 ≈ a man). Training is mini-batch Adam (moments kept per
 * weight, updated where a batch touches it) with decoupled L2 decay (AdamW) of the touched
 * weights. A held-out
 * tenth (by game, so that no game is on both sides) gives the validation loss printed every
 * epoch; the weights of the best validation epoch are written.
 *
 * Deterministic for a given seed and thread count: the shuffle comes from the seed, every
 * thread sums its fixed share of a batch, and the shares are added in thread order.
 */
#include "../eval_weights.h"
#include "../text_io.h"
#include "../timeman.h"
#include "dataset.h"
#include "options.h"
#include "tools.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const Variant *variant;
    /* positions: their features are indices[first[i] .. first[i + 1]) with values */
    int32_t *indices;
    int16_t *values;
    uint64_t *first;
    uint16_t *phase, *scale;
    float *target;             /* the blended target, set once K is known */
    float *result;             /* 1, 0.5, 0 for the side to move */
    int16_t *score;
    uint32_t *game;            /* file number · 2^24 + game, for the split */
    bool *foreign_score;       /* the score is another evaluation's (see the header) */
    uint64_t count, capacity, feature_count, feature_capacity, foreign_count;
    int current_file;
    const DatasetMeta *current_meta; /* the shard being read (dataset_read fills it before its records) */
    bool stronger_only;        /* --stronger-only: the weaker side's positions are left out */
    bool failed;
} Data;

static bool grow(void **array, size_t element, uint64_t capacity)
{
    void *bigger = realloc(*array, element * capacity);
    if (!bigger) return false;
    *array = bigger;
    return true;
}

static void add_position(void *ctx, const DatasetRecord *r)
{
    Data *d = ctx;
    if (d->failed) return;
    const DatasetMeta *meta = d->current_meta;
    bool weaker_side = r->position.side == dataset_weaker_side(r->game);
    if (d->stronger_only && weaker_side && dataset_has_weaker_side(meta)) return;
    Feature features[FEATURES_MAX];
    int phase, scale;
    int n = d->variant->features->extract(d->variant, &r->position, features, &phase, &scale);
    if (d->count + 1 >= d->capacity) {
        uint64_t c = d->capacity ? 2 * d->capacity : 1 << 16;
        if (!grow((void **)&d->first, sizeof *d->first, c + 1) || !grow((void **)&d->phase, sizeof *d->phase, c) ||
            !grow((void **)&d->scale, sizeof *d->scale, c) || !grow((void **)&d->result, sizeof *d->result, c) ||
            !grow((void **)&d->score, sizeof *d->score, c) || !grow((void **)&d->game, sizeof *d->game, c) ||
            !grow((void **)&d->foreign_score, sizeof *d->foreign_score, c)) {
            d->failed = true;
            return;
        }
        d->capacity = c;
    }
    if (d->feature_count + (uint64_t)n > d->feature_capacity) {
        uint64_t c = d->feature_capacity ? 2 * d->feature_capacity : 1 << 20;
        while (c < d->feature_count + (uint64_t)n) c *= 2;
        if (!grow((void **)&d->indices, sizeof *d->indices, c) || !grow((void **)&d->values, sizeof *d->values, c)) {
            d->failed = true;
            return;
        }
        d->feature_capacity = c;
    }
    uint64_t i = d->count++;
    d->first[i] = d->feature_count;
    for (int k = 0; k < n; k++) {
        d->indices[d->feature_count] = features[k].index;
        d->values[d->feature_count++] = (int16_t)features[k].value;
    }
    d->first[i + 1] = d->feature_count;
    d->phase[i] = (uint16_t)phase;
    d->scale[i] = (uint16_t)scale;
    d->result[i] = (float)r->result / 2.0f;
    d->score[i] = r->score;
    d->game[i] = (uint32_t)d->current_file << 24 ^ (r->game & 0xFFFFFF);
    /* the weaker side's scores come from another evaluation when it played one */
    d->foreign_score[i] = weaker_side && (meta->weak_hand_set || meta->weak_weights);
    d->foreign_count += d->foreign_score[i];
}

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Cross-entropy of a prediction p against target t (clamped away from log 0). */
static inline double cross_entropy(double p, double t)
{
    const double tiny = 1e-12;
    return -(t * log(p > tiny ? p : tiny) + (1 - t) * log(1 - p > tiny ? 1 - p : tiny));
}

/* K minimising the cross-entropy of σ(score / K) against the results (golden-section search). */
static double fit_score_scale(const Data *d)
{
    double low = 20, high = 2000;
    for (int step = 0; step < 60; step++) {
        double a = high - (high - low) / 1.618034, b = low + (high - low) / 1.618034, loss[2] = {0, 0};
        for (uint64_t i = 0; i < d->count; i += 1 + d->count / 200000) {
            if (d->foreign_score[i]) continue;
            double s = d->score[i] > 2000 ? 2000 : d->score[i] < -2000 ? -2000 : d->score[i];
            loss[0] += cross_entropy(sigmoid(s / a), d->result[i]);
            loss[1] += cross_entropy(sigmoid(s / b), d->result[i]);
        }
        if (loss[0] < loss[1])
            high = b;
        else
            low = a;
    }
    return (low + high) / 2;
}

/* ------------------------------------------------------------------ the model */

typedef struct {
    int count;                 /* weights per phase */
    float *w[2];               /* opening, ending */
    float *m[2], *v[2];        /* Adam moments */
    uint32_t *last_step;       /* for the decay of moments skipped while untouched */
    int trained_first, trained_last; /* the indices trained (--only); the others are held */
} Model;

typedef struct Trainer Trainer;

typedef struct {
    Trainer *trainer;
    int id;
    float *gradient[2];
    int32_t *touched;          /* indices with a gradient, each once */
    int touched_count;
    uint8_t *mark;
    double loss;
    uint64_t from, to;         /* positions of the job: order[from..to) */
} Worker;

struct Trainer {
    Data *data;
    Model model;
    double K;
    uint64_t *order;           /* training positions, shuffled each epoch */
    uint64_t *validation;
    uint64_t training_count, validation_count;
    int threads;
    Worker *workers;
    bool backward;             /* the job: gradients too, or only the loss */
    const uint64_t *job_positions;
};

static inline double predict(const Trainer *t, uint64_t i, double *opening_sum, double *ending_sum)
{
    const Data *d = t->data;
    double opening = 0, ending = 0;
    for (uint64_t k = d->first[i]; k < d->first[i + 1]; k++) {
        opening += d->values[k] * t->model.w[0][d->indices[k]];
        ending += d->values[k] * t->model.w[1][d->indices[k]];
    }
    *opening_sum = opening;
    *ending_sum = ending;
    double p = d->phase[i] / (double)PHASE_MAX, s = d->scale[i] / (double)SCALE_MAX;
    return s * ((1 - p) * opening + p * ending);
}

static void *worker_run(void *opaque)
{
    Worker *w = opaque;
    Trainer *t = w->trainer;
    const Data *d = t->data;
    w->loss = 0;
    w->touched_count = 0;
    for (uint64_t j = w->from; j < w->to; j++) {
        uint64_t i = t->job_positions[j];
        double opening, ending;
        double y = predict(t, i, &opening, &ending);
        double prob = sigmoid(y / t->K), target = d->target[i];
        w->loss += cross_entropy(prob, target);
        if (!t->backward) continue;
        double g = (prob - target) / t->K;
        double p = d->phase[i] / (double)PHASE_MAX, s = d->scale[i] / (double)SCALE_MAX;
        double g0 = g * s * (1 - p), g1 = g * s * p;
        for (uint64_t k = d->first[i]; k < d->first[i + 1]; k++) {
            int32_t index = d->indices[k];
            w->gradient[0][index] += (float)(g0 * d->values[k]);
            w->gradient[1][index] += (float)(g1 * d->values[k]);
            if (!w->mark[index]) {
                w->mark[index] = 1;
                w->touched[w->touched_count++] = index;
            }
        }
    }
    return NULL;
}

/* Runs positions[0..count) over the workers; returns the summed loss. */
static double run_job(Trainer *t, const uint64_t *positions, uint64_t count, bool backward)
{
    t->job_positions = positions;
    t->backward = backward;
    pthread_t handles[256];
    for (int k = 0; k < t->threads; k++) {
        t->workers[k].from = count * (uint64_t)k / (uint64_t)t->threads;
        t->workers[k].to = count * (uint64_t)(k + 1) / (uint64_t)t->threads;
    }
    for (int k = 1; k < t->threads; k++) pthread_create(&handles[k], NULL, worker_run, &t->workers[k]);
    worker_run(&t->workers[0]);
    for (int k = 1; k < t->threads; k++) pthread_join(handles[k], NULL);
    double loss = 0;
    for (int k = 0; k < t->threads; k++) loss += t->workers[k].loss;
    return loss;
}

typedef struct {
    double rate, l2, beta1, beta2;
    uint32_t step;
} Adam;

/* Adds the workers' gradients (in thread order) and takes one Adam step on every touched weight. */
static void apply_gradients(Trainer *t, Adam *adam, uint64_t batch)
{
    Model *m = &t->model;
    Worker *first = &t->workers[0];
    for (int k = 1; k < t->threads; k++) {
        Worker *w = &t->workers[k];
        for (int j = 0; j < w->touched_count; j++) {
            int32_t index = w->touched[j];
            for (int ph = 0; ph < 2; ph++) {
                first->gradient[ph][index] += w->gradient[ph][index];
                w->gradient[ph][index] = 0;
            }
            w->mark[index] = 0;
            if (!first->mark[index]) {
                first->mark[index] = 1;
                first->touched[first->touched_count++] = index;
            }
        }
        w->touched_count = 0;
    }
    adam->step++;
    double correction1 = 1 - pow(adam->beta1, adam->step), correction2 = 1 - pow(adam->beta2, adam->step);
    for (int j = 0; j < first->touched_count; j++) {
        int32_t index = first->touched[j];
        if (index < m->trained_first || index > m->trained_last) { /* held (--only): as it came */
            first->gradient[0][index] = first->gradient[1][index] = 0;
            first->mark[index] = 0;
            continue;
        }
        /* moments of a weight untouched for a while decay as if zero gradients had come */
        uint32_t idle = adam->step - 1 - m->last_step[index];
        m->last_step[index] = adam->step;
        for (int ph = 0; ph < 2; ph++) {
            double g = first->gradient[ph][index] / (double)batch;
            first->gradient[ph][index] = 0;
            double mm = m->m[ph][index], vv = m->v[ph][index];
            if (idle) mm *= pow(adam->beta1, idle), vv *= pow(adam->beta2, idle);
            mm = adam->beta1 * mm + (1 - adam->beta1) * g;
            vv = adam->beta2 * vv + (1 - adam->beta2) * g * g;
            m->m[ph][index] = (float)mm;
            m->v[ph][index] = (float)vv;
            /* decoupled decay (AdamW): a pull towards 0 that does not depend on the gradient's scale */
            m->w[ph][index] -= (float)(adam->rate * ((mm / correction1) / (sqrt(vv / correction2) + 1e-8) +
                                                     adam->l2 * m->w[ph][index]));
        }
        first->mark[index] = 0;
    }
    first->touched_count = 0;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void quantise(const float *w, int16_t *out, int count)
{
    for (int i = 0; i < count; i++) {
        double x = round(w[i] * WEIGHT_UNIT);
        out[i] = (int16_t)(x > 32767 ? 32767 : x < -32767 ? -32767 : x);
    }
}

/* The weights as the engine will see them (quantised), so the losses printed are the engine's. */
static void round_model(Model *m)
{
    for (int ph = 0; ph < 2; ph++)
        for (int i = 0; i < m->count; i++) {
            double x = round(m->w[ph][i] * WEIGHT_UNIT);
            x = x > 32767 ? 32767 : x < -32767 ? -32767 : x;
            m->w[ph][i] = (float)(x / WEIGHT_UNIT);
        }
}

int train_main(int argc, char **argv)
{
    ToolOption options[] = {
        {.name = "--variant", .kind = OPTION_TEXT, .help = "the game (required)"},
        {.name = "--data", .kind = OPTION_LIST, .help = "a data shard (repeat for several; required)"},
        {.name = "--out", .kind = OPTION_TEXT, .help = "the weights file to write (required)"},
        {.name = "--init", .kind = OPTION_TEXT, .help = "start from these weights (default: the hand-set knowledge)"},
        {.name = "--epochs", .kind = OPTION_INTEGER, .help = "passes over the data (default 10)", .low = 0, .high = 10000, .integer = 10},
        {.name = "--batch", .kind = OPTION_INTEGER, .help = "positions per step (default 4096)", .low = 1, .high = 1 << 24, .integer = 4096},
        {.name = "--rate", .kind = OPTION_NUMBER, .help = "Adam's step size in score units (default 0.5)", .number = 0.5},
        {.name = "--l2", .kind = OPTION_NUMBER, .help = "decay of the weights per step, AdamW (default 1e-3)", .number = 1e-3},
        {.name = "--lambda", .kind = OPTION_NUMBER, .help = "weight of the result in the target, the rest the score's (default 0.7)", .number = 0.7},
        {.name = "--scale", .kind = OPTION_NUMBER, .help = "K of σ(score/K) (default: fitted to the data)"},
        {.name = "--validation", .kind = OPTION_INTEGER, .help = "percent of the games held out (default 10)", .low = 1, .high = 50, .integer = 10},
        {.name = "--seed", .kind = OPTION_INTEGER, .help = "the seed of the shuffle and the split (default 1)", .low = 0, .high = 1ll << 62, .integer = 1},
        {.name = "--threads", .kind = OPTION_INTEGER, .help = "threads (default 1)", .low = 1, .high = 256, .integer = 1},
        {.name = "--stronger-only", .kind = OPTION_FLAG, .help = "leave out the weaker side's positions (shards with one)"},
        {.name = "--only", .kind = OPTION_TEXT, .help = "train only the weights FIRST[-LAST] (indices), hold the others"},
        {NULL},
    };
    const char *synopsis = "--variant V --data FILE [--data FILE ...] --out FILE [options]";
    if (!tool_options_parse("train", synopsis, options, argc, argv, 2)) return 2;
    const char *variant_name = tool_option(options, "--variant")->text, *out = tool_option(options, "--out")->text;
    ToolOption *files = tool_option(options, "--data");
    bool initial_only = tool_option(options, "--epochs")->given && tool_option(options, "--epochs")->integer == 0 &&
                        !files->list_count;
    if (!variant_name || !out || (!files->list_count && !initial_only)) {
        fprintf(stderr, "donjon train: --variant, --data and --out are required (without --data, --epochs 0 writes "
                        "the starting weights)\n\n");
        tool_options_usage("train", synopsis, options, stderr);
        return 2;
    }
    const Variant *v = variant_by_name(variant_name);
    if (!v || !v->features) {
        fprintf(stderr, "donjon train: %s '%s'\n", v ? "no learned features for" : "unknown variant", variant_name);
        return 2;
    }
    int64_t started = now_ms();
    if (initial_only) {
        /* the starting weights alone: what the features know before any data */
        int count = v->features->count;
        float *opening = calloc((size_t)count, sizeof(float)), *ending = calloc((size_t)count, sizeof(float));
        int16_t *q[2] = {malloc(sizeof(int16_t) * (size_t)count), malloc(sizeof(int16_t) * (size_t)count)};
        char err[512];
        if (!opening || !ending || !q[0] || !q[1]) {
            fprintf(stderr, "donjon train: out of memory\n");
            return 1;
        }
        v->features->initial(v, opening, ending);
        quantise(opening, q[0], count);
        quantise(ending, q[1], count);
        bool written = eval_weights_write(out, v, q[0], q[1], err, sizeof err);
        fprintf(stderr, written ? "%s: the starting weights, %d per phase\n" : "donjon train: %s\n",
                written ? out : err, count);
        free(opening), free(ending), free(q[0]), free(q[1]);
        return written ? 0 : 1;
    }

    /* the data */
    Data data;
    memset(&data, 0, sizeof data);
    data.variant = v;
    data.stronger_only = tool_option(options, "--stronger-only")->given;
    for (int f = 0; f < files->list_count; f++) {
        char err[512];
        DatasetMeta meta;
        uint64_t before = data.count, foreign_before = data.foreign_count;
        data.current_file = f;
        data.current_meta = &meta;
        if (!dataset_read(files->list[f], v, add_position, &data, &meta, err, sizeof err) || data.failed) {
            fprintf(stderr, "donjon train: %s\n", data.failed ? "out of memory" : err);
            return 1;
        }
        /* what the weaker side did differently: its nodes, its evaluation, or both */
        char weak[160] = "", weak_nodes[24] = "", weak_weights[64] = "";
        if (meta.weak_nodes) snprintf(weak_nodes, sizeof weak_nodes, " %u", meta.weak_nodes);
        if (meta.weak_weights)
            snprintf(weak_weights, sizeof weak_weights, " with weights %016" PRIx64, meta.weak_weights);
        if (dataset_has_weaker_side(&meta))
            snprintf(weak, sizeof weak, ", the weaker side%s%s%s", weak_nodes,
                     meta.weak_hand_set ? " with the hand-set evaluation" : "", weak_weights);
        if (meta.records)
            fprintf(stderr, "%s: %" PRIu64 " positions (%" PRIu64 " games from game records, scored at %u nodes)\n",
                    files->list[f], data.count - before, meta.games, meta.nodes);
        else
            fprintf(stderr, "%s: %" PRIu64 " positions (games %" PRIu64 "-%" PRIu64 " of seed %" PRIu64 ", %s %u%s)\n",
                    files->list[f], data.count - before, meta.first_game, meta.first_game + meta.games - 1, meta.seed,
                    meta.depth ? "depth" : "nodes", meta.depth ? meta.depth : meta.nodes, weak);
        if (data.foreign_count > foreign_before)
            fprintf(stderr, "  %" PRIu64 " of them the weaker side's, scored by its own evaluation: their target is the "
                            "result alone\n", data.foreign_count - foreign_before);
    }
    if (data.count < 10) {
        fprintf(stderr, "donjon train: only %" PRIu64 " positions: too few to train on\n", data.count);
        return 1;
    }

    /* K, the targets, the split */
    Trainer t;
    memset(&t, 0, sizeof t);
    t.data = &data;
    t.K = tool_option(options, "--scale")->given ? tool_option(options, "--scale")->number : fit_score_scale(&data);
    double lambda = tool_option(options, "--lambda")->number;
    data.target = malloc(sizeof *data.target * data.count);
    t.order = malloc(sizeof *t.order * data.count);
    t.validation = malloc(sizeof *t.validation * data.count);
    if (!data.target || !t.order || !t.validation) {
        fprintf(stderr, "donjon train: out of memory\n");
        return 1;
    }
    uint64_t seed = (uint64_t)tool_option(options, "--seed")->integer;
    int held_out = (int)tool_option(options, "--validation")->integer;
    uint64_t results[3] = {0, 0, 0};
    for (uint64_t i = 0; i < data.count; i++) {
        double s = data.score[i] > 3000 ? 3000 : data.score[i] < -3000 ? -3000 : data.score[i];
        data.target[i] = data.foreign_score[i] ? data.result[i]
                                               : (float)(lambda * data.result[i] + (1 - lambda) * sigmoid(s / t.K));
        results[(int)(data.result[i] * 2)]++;
        uint64_t h = data.game[i] ^ seed * 0x9E3779B97F4A7C15ull;
        if ((int)(next_random(&h) % 100) < held_out)
            t.validation[t.validation_count++] = i;
        else
            t.order[t.training_count++] = i;
    }
    fprintf(stderr, "%" PRIu64 " positions (%.1f features each; wins %.1f%%, draws %.1f%%, losses %.1f%% for the side "
                    "to move): %" PRIu64 " to train on, %" PRIu64 " held out; K = %.1f, lambda %.2f\n",
            data.count, (double)data.feature_count / (double)data.count, 100.0 * results[2] / data.count,
            100.0 * results[1] / data.count, 100.0 * results[0] / data.count, t.training_count, t.validation_count,
            t.K, lambda);

    /* the model */
    Model *m = &t.model;
    m->count = v->features->count;
    for (int ph = 0; ph < 2; ph++) {
        m->w[ph] = calloc((size_t)m->count, sizeof(float));
        m->m[ph] = calloc((size_t)m->count, sizeof(float));
        m->v[ph] = calloc((size_t)m->count, sizeof(float));
    }
    m->last_step = calloc((size_t)m->count, sizeof *m->last_step);
    m->trained_first = 0, m->trained_last = m->count - 1;
    const char *only = tool_option(options, "--only")->text;
    if (only) {
        /* FIRST or FIRST-LAST, within the feature set */
        const char *dash = strchr(only, '-');
        size_t first_length = dash ? (size_t)(dash - only) : strlen(only);
        char first_text[24] = "";
        long long first = -1, last = -1;
        if (first_length < sizeof first_text) memcpy(first_text, only, first_length);
        bool valid = first_length < sizeof first_text && text_parse_integer(first_text, 0, m->count - 1, &first);
        if (valid) valid = dash ? text_parse_integer(dash + 1, first, m->count - 1, &last) : (last = first, true);
        if (!valid) {
            fprintf(stderr, "donjon train: --only '%s': expected FIRST or FIRST-LAST, indices 0-%d\n", only,
                    m->count - 1);
            return 2;
        }
        m->trained_first = (int)first, m->trained_last = (int)last;
        char first_name[96], last_name[96];
        v->features->describe(v, (int)first, first_name, sizeof first_name);
        v->features->describe(v, (int)last, last_name, sizeof last_name);
        fprintf(stderr, "training only weights %lld (%s) to %lld (%s); the others are held\n", first, first_name, last,
                last_name);
    }
    float *best[2] = {malloc(sizeof(float) * (size_t)m->count), malloc(sizeof(float) * (size_t)m->count)};
    t.threads = (int)tool_option(options, "--threads")->integer;
    t.workers = calloc((size_t)t.threads, sizeof *t.workers);
    bool memory = m->w[0] && m->w[1] && m->m[0] && m->m[1] && m->v[0] && m->v[1] && m->last_step && best[0] && best[1] &&
                  t.workers;
    for (int k = 0; k < t.threads && memory; k++) {
        Worker *w = &t.workers[k];
        w->trainer = &t;
        w->id = k;
        w->gradient[0] = calloc((size_t)m->count, sizeof(float));
        w->gradient[1] = calloc((size_t)m->count, sizeof(float));
        w->touched = malloc(sizeof *w->touched * (size_t)m->count);
        w->mark = calloc((size_t)m->count, 1);
        memory = w->gradient[0] && w->gradient[1] && w->touched && w->mark;
    }
    if (!memory) {
        fprintf(stderr, "donjon train: out of memory\n");
        return 1;
    }
    const char *init = tool_option(options, "--init")->text;
    if (init) {
        char err[512];
        EvalWeights *start;
        if (!eval_weights_load(v, init, &start, err, sizeof err)) {
            fprintf(stderr, "donjon train: %s\n", err);
            return 1;
        }
        for (int i = 0; i < m->count; i++) {
            m->w[0][i] = (float)start->opening[i] / WEIGHT_UNIT;
            m->w[1][i] = (float)start->ending[i] / WEIGHT_UNIT;
        }
        eval_weights_free(start);
    } else
        v->features->initial(v, m->w[0], m->w[1]);

    /* the epochs */
    int epochs = (int)tool_option(options, "--epochs")->integer;
    uint64_t batch = (uint64_t)tool_option(options, "--batch")->integer;
    Adam adam = {tool_option(options, "--rate")->number, tool_option(options, "--l2")->number, 0.9, 0.999, 0};
    double base_rate = adam.rate;
    double best_loss = run_job(&t, t.validation, t.validation_count, false) / (double)t.validation_count;
    fprintf(stderr, "epoch  0: validation loss %.6f (the starting weights)\n", best_loss);
    memcpy(best[0], m->w[0], sizeof(float) * (size_t)m->count);
    memcpy(best[1], m->w[1], sizeof(float) * (size_t)m->count);
    int best_epoch = 0;
    uint64_t shuffle = seed * 0xD1B54A32D192ED03ull + 7;
    for (int epoch = 1; epoch <= epochs; epoch++) {
        /* the step size falls linearly over the second half of the epochs */
        if (epochs > 1 && epoch > epochs / 2)
            adam.rate = base_rate * (double)(epochs - epoch + 1) / (double)(epochs - epochs / 2 + 1);
        for (uint64_t i = t.training_count; i > 1; i--) {
            uint64_t j = next_random(&shuffle) % i;
            uint64_t x = t.order[i - 1];
            t.order[i - 1] = t.order[j];
            t.order[j] = x;
        }
        double loss = 0;
        for (uint64_t from = 0; from < t.training_count; from += batch) {
            uint64_t size = t.training_count - from < batch ? t.training_count - from : batch;
            loss += run_job(&t, t.order + from, size, true);
            apply_gradients(&t, &adam, size);
        }
        /* the losses of the weights the engine would get */
        float *exact[2] = {m->w[0], m->w[1]};
        float *rounded[2] = {malloc(sizeof(float) * (size_t)m->count), malloc(sizeof(float) * (size_t)m->count)};
        if (!rounded[0] || !rounded[1]) {
            fprintf(stderr, "donjon train: out of memory\n");
            return 1;
        }
        memcpy(rounded[0], exact[0], sizeof(float) * (size_t)m->count);
        memcpy(rounded[1], exact[1], sizeof(float) * (size_t)m->count);
        m->w[0] = rounded[0], m->w[1] = rounded[1];
        round_model(m);
        double validation = run_job(&t, t.validation, t.validation_count, false) / (double)t.validation_count;
        if (validation < best_loss) {
            best_loss = validation;
            best_epoch = epoch;
            memcpy(best[0], m->w[0], sizeof(float) * (size_t)m->count);
            memcpy(best[1], m->w[1], sizeof(float) * (size_t)m->count);
        }
        m->w[0] = exact[0], m->w[1] = exact[1];
        free(rounded[0]);
        free(rounded[1]);
        fprintf(stderr, "epoch %2d: training loss %.6f, validation loss %.6f%s (step %.3f, %.0f s)\n", epoch,
                loss / (double)t.training_count, validation, best_epoch == epoch ? " *" : "", adam.rate,
                (double)(now_ms() - started) / 1000.0);
    }

    /* the weights */
    int16_t *opening = malloc(sizeof *opening * (size_t)m->count), *ending = malloc(sizeof *ending * (size_t)m->count);
    char err[512];
    if (!opening || !ending) {
        fprintf(stderr, "donjon train: out of memory\n");
        return 1;
    }
    quantise(best[0], opening, m->count);
    quantise(best[1], ending, m->count);
    if (!eval_weights_write(out, v, opening, ending, err, sizeof err)) {
        fprintf(stderr, "donjon train: %s\n", err);
        return 1;
    }
    fprintf(stderr, "%s: the weights of epoch %d (validation loss %.6f), %d per phase, in %.0f s\n", out, best_epoch,
            best_loss, m->count, (double)(now_ms() - started) / 1000.0);
    return 0;
}
