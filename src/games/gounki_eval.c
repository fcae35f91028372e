/*
 * gounki_eval.c — the learned evaluation's features for gounki.
 *
 * Seen from the side to move: for Black the board is turned a half-turn, so that both sides
 * run "up" the board. The opponent's features are the same features from its own view, with
 * value −1, so one table serves both colours.
 *
 * Groups (index ranges below):
 *  - the hand-set evaluation's terms, so that training starts from what it knows: material,
 *    advancement, the race (its sum over near-exit stacks, who leads the fastest runner, by
 *    how much), mixed triples, exit threats (ours, one of theirs, two or more of theirs);
 *  - stack squares: a weight per stack composition (9: one to three pieces, rounds and
 *    squares) and cell;
 *  - patterns: every 2×2 window of cells, each cell read as empty, own single, own stack,
 *    enemy single or enemy stack (5^4 states), one table per window row and distance from the
 *    side edge (a window and its mirror image share a table, read mirrored). The empty window
 *    has no weight.
 * Phase: the share of the 32 pieces gone.
 */
#include "../bitops.h"
#include "feature_sink.h"
#include "gounki_board.h"

#include <stdio.h>
#include <string.h>

enum {
    F_TEMPO, F_MATERIAL, F_ADVANCEMENT, F_RACE_SUM, F_MIXED_TRIPLES, F_RACE_LEAD, F_NOT_BEHIND, F_OWN_THREAT,
    F_THEIR_THREAT, F_THEIR_THREATS,
    SCALARS = 16,
    COMPOSITIONS = 9,
    STACK_SQUARES = SCALARS,
    WINDOW_STATES = 625, /* 5^4 */
    WINDOW_TABLES = 7 * 4,
    WINDOWS = STACK_SQUARES + COMPOSITIONS * 64,
    FEATURE_COUNT = WINDOWS + WINDOW_TABLES * WINDOW_STATES,
};

/* composition index of a stack: (1,0) (0,1) (2,0) (1,1) (0,2) (3,0) (2,1) (1,2) (0,3) */
static int composition(uint8_t stack)
{
    static const int8_t of[4][4] = {{-1, 1, 4, 8}, {0, 3, 7, -1}, {2, 6, -1, -1}, {5, -1, -1, -1}};
    return of[stack_rounds(stack)][stack_squares(stack)];
}

/* A cell's window state, from White's side: 0 empty, 1 White single, 2 White stack, 3 Black
 * single, 4 Black stack; seen from Black, 1..2 and 3..4 change places. */
/* Windows in White's view, by the cell of their lower left corner: the base index of White's
 * table and of Black's (the same window is Black's at (6 − row, 6 − file)), and whether each
 * reads it mirrored. A window's plain code a + 5b + 25c + 125d (a, b its lower cells left to
 * right, c, d the upper ones, White's states) gives every index through small tables. */
typedef struct {
    int white_base, black_base;
    bool white_mirrored, black_mirrored;
} WindowPlace;

static WindowPlace window_place[64];
static uint16_t mirrored_code[625];      /* the code read right to left */
static uint16_t black_code[625];         /* Black's plain code of the same four cells */

/* The stack-square feature of a side's stack on cell c, seen from that side (Black's board
 * turned); its value is +1 for White, -1 for Black in White's view. */
static inline int stack_feature(int side, uint8_t stack, int c)
{
    return STACK_SQUARES + composition(stack) * 64 + (side == SIDE_WHITE ? c : 63 - c);
}

/* A cell's window state from White's side (see above). */
static inline int white_state(const GounkiBoard *b, int c)
{
    if (!((b->occupied[0] | b->occupied[1]) & BIT(c))) return 0;
    return ((b->occupied[SIDE_WHITE] & BIT(c)) ? 1 : 3) + (stack_size(b->cells[c]) > 1);
}

/* The window features of White's window code at corner c: White's and Black's (value +1 and -1
 * in White's view). */
static inline void window_features(int c, int code, int *white_index, int *black_index)
{
    const WindowPlace *place = &window_place[c];
    int black = black_code[code];
    *white_index = place->white_base + (place->white_mirrored ? mirrored_code[code] : code);
    *black_index = place->black_base + (place->black_mirrored ? mirrored_code[black] : black);
}

/* The scalar features (the terms) of pos from the side to move, into the sink; the phase. */
static inline __attribute__((always_inline)) void visit_scalars(const Position *pos, FeatureSink *sink,
                                                               const bool summing, int *phase, int *scale)
{
    const GounkiBoard *b = CBOARD(pos);
    int us = pos->side;
    GounkiSideTerms terms[2];
    gounki_side_terms(b, us, &terms[0]);
    gounki_side_terms(b, us ^ 1, &terms[1]);
    feature_emit(sink, summing, F_TEMPO, 1);
    feature_emit(sink, summing, F_MATERIAL, terms[0].material - terms[1].material);
    feature_emit(sink, summing, F_ADVANCEMENT, terms[0].advancement - terms[1].advancement);
    feature_emit(sink, summing, F_RACE_SUM, terms[0].race_sum - terms[1].race_sum);
    feature_emit(sink, summing, F_MIXED_TRIPLES, terms[0].mixed_triples - terms[1].mixed_triples);
    int lead = terms[1].best_race - terms[0].best_race;
    lead = lead > 3 ? 3 : lead < -3 ? -3 : lead;
    feature_emit(sink, summing, F_RACE_LEAD, lead);
    if (lead >= 0) feature_emit(sink, summing, F_NOT_BEHIND, 1);
    int ours = gounki_exit_threats(pos, us), theirs = gounki_exit_threats(pos, us ^ 1);
    if (ours && !pos->extra_turns) feature_emit(sink, summing, F_OWN_THREAT, 1);
    if (theirs == 1) feature_emit(sink, summing, F_THEIR_THREAT, 1);
    if (theirs >= 2) feature_emit(sink, summing, F_THEIR_THREATS, 1);
    int pieces = b->pieces[0] + b->pieces[1];
    *phase = pieces >= 32 ? 0 : (32 - pieces) * PHASE_MAX / 32;
    *scale = SCALE_MAX;
}

/* The features of pos from the side to move, into the sink (see feature_sink.h). */
static inline __attribute__((always_inline)) void visit_features(const Variant *v, const Position *pos,
                                                                FeatureSink *sink,
                                                                const bool summing, int *phase, int *scale)
{
    (void)v;
    visit_scalars(pos, sink, summing, phase, scale);
    const GounkiBoard *b = CBOARD(pos);
    int us = pos->side;
    /* each side's stacks on their cells in its own view (Black's board is turned), and the
     * cells' window states from White's side */
    int white_sign = us == SIDE_WHITE ? 1 : -1;
    uint8_t state[64 + 9];
    uint64_t occupied = b->occupied[0] | b->occupied[1];
    memset(state, 0, sizeof state);
    for (int side = 0; side < 2; side++)
        for (uint64_t own = b->occupied[side]; own;) {
            int c = pop_lowest(&own);
            uint8_t stack = b->cells[c];
            feature_emit(sink, summing, stack_feature(side, stack, c), side == SIDE_WHITE ? white_sign : -white_sign);
            state[c] = (uint8_t)((side == SIDE_WHITE ? 1 : 3) + (stack_size(stack) > 1));
        }
    /* the windows holding a piece: their lower left corners are the occupied cells and the
     * cells left of, below and below-left of them */
    uint64_t corners = window_corners_of(occupied);
    while (corners) {
        int c = pop_lowest(&corners);
        int code = state[c] + 5 * state[c + 1] + 25 * state[c + 8] + 125 * state[c + 9];
        int white_index, black_index;
        window_features(c, code, &white_index, &black_index);
        feature_emit(sink, summing, white_index, white_sign);
        feature_emit(sink, summing, black_index, -white_sign);
    }
}

FEATURE_SET_ENTRY_POINTS(gounki, visit_features)

/* ------------------------------------------------------------------ the incremental path
 *
 * The accumulator (FeatureSet.accumulate) holds White's sum of the stack-square and window
 * weights (prepared is the weight pairs); from a parent, only the cells whose stack changed
 * and the windows holding them are read again. The terms are computed for each evaluation. */

static inline void add_stack(const WeightPair *w, const GounkiBoard *b, int c, int sign, EvalAccumulator *acc)
{
    int side = (b->occupied[SIDE_WHITE] & BIT(c)) ? SIDE_WHITE : (b->occupied[SIDE_BLACK] & BIT(c)) ? SIDE_BLACK : -1;
    if (side < 0) return;
    int index = stack_feature(side, b->cells[c], c);
    if (side == SIDE_BLACK) sign = -sign;
    acc->sum[0] += sign * w[index].pair[0];
    acc->sum[1] += sign * w[index].pair[1];
}

/* the window at corner c, from the cells' states in White's view */
static inline void add_window(const WeightPair *w, const uint8_t *state, int c, int sign, EvalAccumulator *acc)
{
    int code = state[c] + 5 * state[c + 1] + 25 * state[c + 8] + 125 * state[c + 9];
    if (!code) return; /* the empty window has no weight */
    int white_index, black_index;
    window_features(c, code, &white_index, &black_index);
    acc->sum[0] += sign * (w[white_index].pair[0] - w[black_index].pair[0]);
    acc->sum[1] += sign * (w[white_index].pair[1] - w[black_index].pair[1]);
}

static void gounki_accumulate(const Variant *v, const Position *pos, const void *prepared, const Position *parent,
                              const EvalAccumulator *parent_acc, EvalAccumulator *acc)
{
    (void)v;
    const WeightPair *w = prepared;
    const GounkiBoard *b = CBOARD(pos);
    uint64_t occupied = b->occupied[0] | b->occupied[1];
    if (!parent) {
        memset(acc, 0, sizeof *acc);
        for (uint64_t o = occupied; o;) {
            int c = pop_lowest(&o);
            acc->states[c] = (uint8_t)white_state(b, c);
            add_stack(w, b, c, 1, acc);
        }
        for (uint64_t corners = window_corners_of(occupied); corners;)
            add_window(w, acc->states, pop_lowest(&corners), 1, acc);
        return;
    }
    const GounkiBoard *before = CBOARD(parent);
    *acc = *parent_acc;
    uint64_t changed = changed_cells(b->cells, before->cells, 0xff) | (b->occupied[0] ^ before->occupied[0]) |
                       (b->occupied[1] ^ before->occupied[1]);
    /* the windows holding a changed cell: their weight before the change out, after it in */
    uint64_t corners = window_corners_of(changed);
    for (uint64_t k = corners; k;) add_window(w, acc->states, pop_lowest(&k), -1, acc);
    for (uint64_t m = changed; m;) {
        int c = pop_lowest(&m);
        add_stack(w, before, c, -1, acc);
        add_stack(w, b, c, 1, acc);
        acc->states[c] = (uint8_t)white_state(b, c);
    }
    for (uint64_t k = corners; k;) add_window(w, acc->states, pop_lowest(&k), 1, acc);
}

static int gounki_evaluate_accumulated(const Variant *v, const Position *pos, const void *prepared,
                                       const EvalAccumulator *acc)
{
    (void)v;
    FeatureSink sink = {.weights = prepared};
    int phase, scale;
    visit_scalars(pos, &sink, true, &phase, &scale);
    int white_sign = pos->side == SIDE_WHITE ? 1 : -1;
    sink.sum[0] += white_sign * acc->sum[0];
    sink.sum[1] += white_sign * acc->sum[1];
    return feature_sink_score(&sink, phase, scale);
}

void gounki_eval_init(void)
{
    static const uint8_t other_side_state[5] = {0, 3, 4, 1, 2};
    window_codes_for_black(black_code, 5, other_side_state);
    for (int code = 0; code < 625; code++) {
        int a = code % 5, b = code / 5 % 5, c = code / 25 % 5, d = code / 125;
        mirrored_code[code] = (uint16_t)(b + 5 * a + 25 * d + 125 * c);
    }
    for (int row = 0; row < 7; row++)
        for (int file = 0; file < 7; file++) {
            int c = row * 8 + file, black_row = 6 - row, black_file = 6 - file;
            WindowPlace *place = &window_place[c];
            place->white_mirrored = file > 3;
            place->black_mirrored = black_file > 3;
            place->white_base = WINDOWS + (row * 4 + (file > 3 ? 6 - file : file)) * WINDOW_STATES;
            place->black_base = WINDOWS + (black_row * 4 + (black_file > 3 ? 6 - black_file : black_file)) * WINDOW_STATES;
        }
}

static void gounki_initial(const Variant *v, float *opening, float *ending)
{
    (void)v;
    /* the hand-set evaluation's weights (gounki.c) */
    static const KnownWeight known[] = {{F_MATERIAL, 100},  {F_ADVANCEMENT, 6}, {F_RACE_SUM, 12},     {F_MIXED_TRIPLES, 25},
                 {F_RACE_LEAD, 40},  {F_NOT_BEHIND, 20}, {F_OWN_THREAT, 400},  {F_THEIR_THREAT, -150},
                 {F_THEIR_THREATS, -600}};
    feature_starting_weights(opening, ending, FEATURE_COUNT, known, sizeof known / sizeof known[0]);
}

static void gounki_describe(const Variant *v, int index, char *out, size_t len)
{
    (void)v;
    static const char *const scalars[] = {"tempo",     "material",   "advancement", "race sum",     "mixed triples",
                                          "race lead", "not behind", "own threat",  "their threat", "their threats"};
    if (index <= F_THEIR_THREATS)
        snprintf(out, len, "%s", scalars[index]);
    else if (index < STACK_SQUARES)
        snprintf(out, len, "unused %d", index);
    else if (index < WINDOWS)
        snprintf(out, len, "stack %d on cell %d", (index - STACK_SQUARES) / 64, (index - STACK_SQUARES) % 64);
    else
        snprintf(out, len, "window table %d state %d", (index - WINDOWS) / WINDOW_STATES,
                 (index - WINDOWS) % WINDOW_STATES);
}

const FeatureSet gounki_features = {.name = "gounki-windows-v1", .count = FEATURE_COUNT,
                                    .extract = gounki_extract, .initial = gounki_initial,
                                    .describe = gounki_describe, .prepare = eval_weight_pairs,
                                    .evaluate = gounki_evaluate_fast, .accumulate = gounki_accumulate,
                                    .evaluate_accumulated = gounki_evaluate_accumulated};
