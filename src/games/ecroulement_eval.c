/*
 * ecroulement_eval.c — the learned evaluation's features for ecroulement and its rapide
 * variant (one feature set; each variant trains its own weights).
 *
 * Seen from the side to move: for Black the board is turned a half-turn (the start is
 * symmetric so), and the opponent's features are the same features from its own view, with
 * value −1, so one table serves both colours.
 *
 * Groups (index ranges below):
 *  - the hand-set evaluation's terms: pawns, mobility (builds and collapses available), the
 *    enemy pawns our collapses reach and theirs, and how close each side is to having no move;
 *    and the pawns' advance from their home corner (not in the hand-set evaluation);
 *  - stack squares: a weight per cell and own stack height band (single, muret, tower of 3,
 *    4–5, 6 or more);
 *  - patterns: every 2×2 window of cells, each cell read as empty or an own or enemy stack of
 *    one of the five bands (11^4 states), one table for the whole board. The empty window has no
 *    weight.
 * Phase: the share of the 30 pawns gone.
 */
#include "../bitops.h"
#include "ecroulement_board.h"
#include "feature_sink.h"

#include <stdio.h>
#include <string.h>

enum {
    F_TEMPO, F_PAWNS, F_MOBILITY, F_OUR_REACH, F_THEIR_REACH, F_THEY_ARE_STUCK, F_WE_ARE_STUCK, F_ADVANCE,
    SCALARS = 16,
    BANDS = 5,
    STACK_SQUARES = SCALARS,
    WINDOWS = STACK_SQUARES + BANDS * 64,
    WINDOW_STATES = 14641, /* 11^4 */
    FEATURE_COUNT = WINDOWS + WINDOW_STATES,
};

/* 0 empty, 1..5 an own stack by band, 6..10 an enemy one */
static inline int cell_state(int height, int viewer)
{
    static const int8_t band_of[16] = {0, 1, 2, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
    int h = own_height(height, viewer);
    return h > 0 ? band_of[h] : h < 0 ? 5 + band_of[-h] : 0;
}

static uint16_t black_code[WINDOW_STATES]; /* Black's code of the four cells of a White code */
static const uint8_t other_side_state[11] = {0, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5};

/* The stack-square feature of a cell in White state s (not empty), and its value in White's
 * view: +1 for a White stack on its cell, -1 for a Black one on the turned cell. */
static inline int cell_feature(int c, int white_state, int *white_value)
{
    if (white_state <= BANDS) {
        *white_value = 1;
        return STACK_SQUARES + (white_state - 1) * 64 + c;
    }
    *white_value = -1;
    return STACK_SQUARES + (white_state - 6) * 64 + 63 - c;
}

/* The scalar features (the terms) of pos from the side to move, into the sink; the phase. */
static inline __attribute__((always_inline)) void visit_scalars(const Variant *v, const Position *pos,
                                                               FeatureSink *sink, const bool summing, int *phase,
                                                               int *scale)
{
    const CollapseRules *r = v->rules;
    const CollapseBoard *b = (const CollapseBoard *)pos->board;
    int us = pos->side;
    CollapseTerms mine, theirs;
    collapse_terms(r, b, us, &mine);
    collapse_terms(r, b, us ^ 1, &theirs);
    feature_emit(sink, summing, F_TEMPO, 1);
    feature_emit(sink, summing, F_PAWNS, mine.pawns - theirs.pawns);
    feature_emit(sink, summing, F_MOBILITY, mine.mobility - theirs.mobility);
    if (mine.threatened) feature_emit(sink, summing, F_OUR_REACH, mine.threatened);
    if (theirs.threatened) feature_emit(sink, summing, F_THEIR_REACH, theirs.threatened);
    if (theirs.mobility <= 2) feature_emit(sink, summing, F_THEY_ARE_STUCK, 3 - theirs.mobility);
    if (mine.mobility <= 2) feature_emit(sink, summing, F_WE_ARE_STUCK, 3 - mine.mobility);
    feature_emit(sink, summing, F_ADVANCE, mine.advance - theirs.advance);
    int pawns = mine.pawns + theirs.pawns;
    *phase = pawns >= 2 * PAWNS_EACH ? 0 : (2 * PAWNS_EACH - pawns) * PHASE_MAX / (2 * PAWNS_EACH);
    *scale = SCALE_MAX;
}

/* The features of pos from the side to move, into the sink (see feature_sink.h). */
static inline __attribute__((always_inline)) void visit_features(const Variant *v, const Position *pos,
                                                                FeatureSink *sink, const bool summing, int *phase,
                                                                int *scale)
{
    visit_scalars(v, pos, sink, summing, phase, scale);
    const CollapseBoard *b = (const CollapseBoard *)pos->board;
    /* stack squares in each side's own view (Black's board turned), and White's window states */
    int white_sign = pos->side == SIDE_WHITE ? 1 : -1;
    uint8_t state[64 + 9];
    memset(state, 0, sizeof state);
    uint64_t occupied = b->occupied[0] | b->occupied[1];
    for (uint64_t o = occupied; o;) {
        int c = pop_lowest(&o);
        int white_state = cell_state(b->height[c], SIDE_WHITE);
        state[c] = (uint8_t)white_state;
        int value, index = cell_feature(c, white_state, &value);
        feature_emit(sink, summing, index, value * white_sign);
    }
    /* windows holding a pawn; Black reads White's window turned, its cells backwards */
    uint64_t corners = window_corners_of(occupied);
    while (corners) {
        int c = pop_lowest(&corners);
        int code = state[c] + 11 * state[c + 1] + 121 * state[c + 8] + 1331 * state[c + 9];
        feature_emit(sink, summing, WINDOWS + code, white_sign);
        feature_emit(sink, summing, WINDOWS + black_code[code], -white_sign);
    }
}

FEATURE_SET_ENTRY_POINTS(ecroulement, visit_features)

/* ------------------------------------------------------------------ the incremental path
 *
 * The accumulator (FeatureSet.accumulate) holds White's sum of the stack-square and window
 * weights (prepared is the weight pairs); from a parent, only the changed cells and the windows
 * holding them are read again. The terms are computed for each evaluation. */

static inline void add_cell(const WeightPair *w, int c, int white_state, int sign, EvalAccumulator *acc)
{
    if (!white_state) return;
    int value, index = cell_feature(c, white_state, &value);
    acc->sum[0] += sign * value * w[index].pair[0];
    acc->sum[1] += sign * value * w[index].pair[1];
}

/* a window in White's view less the same window in Black's (the empty window's is nothing) */
static inline void add_window(const WeightPair *w, int code, int sign, EvalAccumulator *acc)
{
    acc->sum[0] += sign * (w[WINDOWS + code].pair[0] - w[WINDOWS + black_code[code]].pair[0]);
    acc->sum[1] += sign * (w[WINDOWS + code].pair[1] - w[WINDOWS + black_code[code]].pair[1]);
}

/* White's window code at corner c from the cells' states */
static inline int window_code(const uint8_t *state, int c)
{
    return state[c] + 11 * state[c + 1] + 121 * state[c + 8] + 1331 * state[c + 9];
}

static void ecroulement_accumulate(const Variant *v, const Position *pos, const void *prepared,
                                   const Position *parent, const EvalAccumulator *parent_acc, EvalAccumulator *acc)
{
    (void)v;
    const WeightPair *w = prepared;
    const CollapseBoard *b = CBOARD(pos);
    if (!parent) {
        memset(acc, 0, sizeof *acc);
        uint64_t occupied = b->occupied[0] | b->occupied[1];
        for (uint64_t o = occupied; o;) {
            int c = pop_lowest(&o);
            acc->states[c] = (uint8_t)cell_state(b->height[c], SIDE_WHITE);
            add_cell(w, c, acc->states[c], 1, acc);
        }
        for (uint64_t corners = window_corners_of(occupied); corners;)
            add_window(w, window_code(acc->states, pop_lowest(&corners)), 1, acc);
        return;
    }
    const CollapseBoard *before = CBOARD(parent);
    *acc = *parent_acc;
    uint64_t changed = changed_cells(b->height, before->height, 0xff);
    /* the windows holding a changed cell: their weight before the change out, after it in */
    uint64_t corners = window_corners_of(changed);
    for (uint64_t k = corners; k;) add_window(w, window_code(acc->states, pop_lowest(&k)), -1, acc);
    for (uint64_t m = changed; m;) {
        int c = pop_lowest(&m);
        add_cell(w, c, acc->states[c], -1, acc);
        acc->states[c] = (uint8_t)cell_state(b->height[c], SIDE_WHITE);
        add_cell(w, c, acc->states[c], 1, acc);
    }
    for (uint64_t k = corners; k;) add_window(w, window_code(acc->states, pop_lowest(&k)), 1, acc);
}

static int ecroulement_evaluate_accumulated(const Variant *v, const Position *pos, const void *prepared,
                                            const EvalAccumulator *acc)
{
    FeatureSink sink = {.weights = prepared};
    int phase, scale;
    visit_scalars(v, pos, &sink, true, &phase, &scale);
    int white_sign = pos->side == SIDE_WHITE ? 1 : -1;
    sink.sum[0] += white_sign * acc->sum[0];
    sink.sum[1] += white_sign * acc->sum[1];
    return feature_sink_score(&sink, phase, scale);
}

void ecroulement_eval_init(void)
{
    window_codes_for_black(black_code, 11, other_side_state);
}

static void ecroulement_initial(const Variant *v, float *opening, float *ending)
{
    (void)v;
    /* the hand-set evaluation's weights (ecroulement.c), and a push towards the enemy: without
     * it both sides shuffle, every game is drawn, and the data teaches nothing */
    static const KnownWeight known[] = {{F_PAWNS, 100}, {F_MOBILITY, 6}, {F_OUR_REACH, 25}, {F_THEIR_REACH, -15},
                 {F_THEY_ARE_STUCK, 150}, {F_WE_ARE_STUCK, -150}, {F_ADVANCE, 20}};
    feature_starting_weights(opening, ending, FEATURE_COUNT, known, sizeof known / sizeof known[0]);
}

static void ecroulement_describe(const Variant *v, int index, char *out, size_t len)
{
    (void)v;
    static const char *const scalars[] = {"tempo",       "pawns",          "mobility",      "our reach",
                                          "their reach", "they are stuck", "we are stuck", "advance"};
    if (index <= F_ADVANCE)
        snprintf(out, len, "%s", scalars[index]);
    else if (index < STACK_SQUARES)
        snprintf(out, len, "unused %d", index);
    else if (index < WINDOWS)
        snprintf(out, len, "band %d on cell %d", (index - STACK_SQUARES) / 64 + 1, (index - STACK_SQUARES) % 64);
    else
        snprintf(out, len, "window state %d", index - WINDOWS);
}

const FeatureSet ecroulement_features = {.name = "ecroulement-windows-v1", .count = FEATURE_COUNT,
                                         .extract = ecroulement_extract, .initial = ecroulement_initial,
                                         .describe = ecroulement_describe, .prepare = eval_weight_pairs,
                                         .evaluate = ecroulement_evaluate_fast,
                                         .accumulate = ecroulement_accumulate,
                                         .evaluate_accumulated = ecroulement_evaluate_accumulated};
