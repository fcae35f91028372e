/*
 * tawol_eval.c — the learned evaluation's features for tawol.
 *
 * Seen from the side to move: for Black the board is turned a half-turn (the setup is
 * symmetric so), and the opponent's features are the same features from its own view, with
 * value −1, so one table serves both colours.
 *
 * Groups (index ranges below):
 *  - the hand-set evaluation's terms: enemy towers held, enemy pawns blocked, own free pawns,
 *    attacks on towers next move, the free pawns' threats and their closeness to an untaken
 *    tower, and the last tower (one enemy tower left to take, or one of ours);
 *  - the race: one-collar pawns on the board times the towers held (they catch a tower fleeing
 *    next to them), pawns on the board, towers held by a side with no pawn on the board (a lock:
 *    it must release something to go on), the enemy towers left beyond the pawns on the board
 *    that could take them, two towers left, and the room of the untaken towers to flee (empty
 *    cells next to them) and those with none; the chase room (the cells the untaken towers
 *    can flee to before the hunters' attacks cover them);
 *  - cell squares: a weight per cell and content (the lower piece, own or not, tower or pawn
 *    of one or two collars, and what stands on it: 18 contents);
 *  - patterns: every 2×2 window, each cell read as empty, own tower, own free pawn, own pawn
 *    standing on an enemy piece, own piece under an enemy pawn, enemy tower or enemy free pawn
 *    (7^4 states), one table per window row. The empty window has no weight.
 * Phase: the share of the 16 towers taken.
 */
#include "../bitops.h"
#include "feature_sink.h"
#include "tawol_board.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    F_TEMPO, F_TAKEN, F_BLOCKING, F_FREE_PAWNS, F_TOWER_ATTACKS, F_FREE_THREATS, F_CLOSENESS, F_LAST_THEIRS,
    F_LAST_OURS, F_ONE_COLLAR_TAKEN, F_PLAIN_PAWNS, F_TAKEN_LOCKED, F_HUNTER_DEFICIT, F_TWO_LEFT_THEIRS,
    F_TWO_LEFT_OURS, F_TOWER_ROOM, F_TOWERS_TRAPPED, F_CHASE_ROOM,
    SCALARS = 24,
    CONTENTS = 18,
    CELL_SQUARES = SCALARS,
    WINDOWS = CELL_SQUARES + CONTENTS * 64,
    WINDOW_STATES = 2401, /* 7^4 */
    FEATURE_COUNT = WINDOWS + 7 * WINDOW_STATES,
};

/* 1..18 for a cell holding something, from the viewer's side: lower piece type (3), what is on
 * it (nothing, a one- or two-collar pawn), whether the lower piece is the viewer's. 0 empty. */
static inline int content(uint8_t cell, int viewer)
{
    if (!cell) return 0;
    return 1 + (lower_type(cell) - 1) * 3 + (upper_type(cell) ? upper_type(cell) - 1 : 0) +
           (lower_side(cell) == viewer ? 0 : 9);
}

/* The window state of a cell: 0 empty, 1 own tower, 2 own free pawn, 3 own pawn on an enemy
 * piece, 4 own piece under an enemy pawn, 5 enemy tower, 6 enemy free pawn. */
static inline int window_state(uint8_t cell, int viewer)
{
    if (!cell) return 0;
    bool own_below = lower_side(cell) == viewer;
    if (upper_type(cell)) return own_below ? 4 : 3;
    if (lower_type(cell) == TOWER) return own_below ? 1 : 5;
    return own_below ? 2 : 6;
}

static uint16_t pair_code[6 * 256 + 7]; /* a + 7 b for the states a, b of a cell and the next one */
static uint16_t black_code[WINDOW_STATES]; /* Black's code of the four cells of a White code */
static uint8_t white_window_state[32];      /* window_state(byte, SIDE_WHITE) of each cell byte */
static const uint8_t other_side_state[7] = {0, 5, 6, 4, 3, 1, 2};

/* The scalar features of pos from the side to move, into the sink (see feature_sink.h), given
 * the board's class sets; the phase and scale of the position. */
static inline __attribute__((always_inline)) void visit_scalars(const Position *pos, const uint64_t *sets,
                                                               FeatureSink *sink, const bool summing,
                                                               int *phase, int *scale)
{
    const TawolBoard *b = CBOARD(pos);
    int us = pos->side;
    TawolSideTerms terms[2];
    tawol_terms(b, sets, terms);
    const TawolSideTerms mine = terms[us], theirs = terms[us ^ 1];
    feature_emit(sink, summing, F_TEMPO, 1);
    feature_emit(sink, summing, F_TAKEN, mine.taken - theirs.taken);
    feature_emit(sink, summing, F_BLOCKING, mine.blocking - theirs.blocking);
    feature_emit(sink, summing, F_FREE_PAWNS, mine.free_pawns - theirs.free_pawns);
    feature_emit(sink, summing, F_TOWER_ATTACKS, mine.tower_attacks - theirs.tower_attacks);
    feature_emit(sink, summing, F_FREE_THREATS, mine.free_threats - theirs.free_threats);
    feature_emit(sink, summing, F_CLOSENESS, mine.closeness - theirs.closeness);
    const TawolCounts *counts = &b->counts;
    int left_theirs = counts->towers[us ^ 1] - counts->taken[us ^ 1], left_ours = counts->towers[us] - counts->taken[us];
    if (left_theirs == 1) feature_emit(sink, summing, F_LAST_THEIRS, 1);
    if (left_ours == 1) feature_emit(sink, summing, F_LAST_OURS, 1);
    feature_emit(sink, summing, F_ONE_COLLAR_TAKEN,
                 mine.plain_one_collar * mine.taken - theirs.plain_one_collar * theirs.taken);
    feature_emit(sink, summing, F_PLAIN_PAWNS, mine.plain_pawns - theirs.plain_pawns);
    feature_emit(sink, summing, F_TAKEN_LOCKED,
                 (mine.plain_pawns ? 0 : mine.taken) - (theirs.plain_pawns ? 0 : theirs.taken));
    /* Zero in every game from the start (its weights stay 0): with 8 towers and 10 pawns a side,
     * a side's deficit is max(0, its pawns blocking + its pawns blocked - 2), and every block is
     * one pawn blocking of one side and one blocked of the other, so both deficits are equal.
     * Kept, as removing it would change the layout of every weights file. */
    int deficit_mine = left_theirs > mine.plain_pawns ? left_theirs - mine.plain_pawns : 0;
    int deficit_theirs = left_ours > theirs.plain_pawns ? left_ours - theirs.plain_pawns : 0;
    feature_emit(sink, summing, F_HUNTER_DEFICIT, deficit_mine - deficit_theirs);
    if (left_theirs == 2) feature_emit(sink, summing, F_TWO_LEFT_THEIRS, 1);
    if (left_ours == 2) feature_emit(sink, summing, F_TWO_LEFT_OURS, 1);
    feature_emit(sink, summing, F_TOWER_ROOM, mine.tower_room - theirs.tower_room);
    feature_emit(sink, summing, F_TOWERS_TRAPPED, mine.towers_trapped - theirs.towers_trapped);
    feature_emit(sink, summing, F_CHASE_ROOM, mine.chase_room - theirs.chase_room);
    int taken = counts->taken[0] + counts->taken[1], towers = counts->towers[0] + counts->towers[1];
    *phase = towers ? taken * PHASE_MAX / towers : 0;
    *scale = SCALE_MAX;
}

/* The features of pos from the side to move, into the sink (see feature_sink.h). */
static inline __attribute__((always_inline)) void visit_features(const Variant *v, const Position *pos,
                                                                FeatureSink *sink,
                                                                const bool summing, int *phase, int *scale)
{
    (void)v;
    uint64_t sets[TAWOL_CELL_CLASSES];
    tawol_class_sets(CBOARD(pos), sets);
    visit_scalars(pos, sets, sink, summing, phase, scale);
    const TawolBoard *b = CBOARD(pos);
    int us = pos->side;
    /* cell contents in each side's own view (Black's board turned): a cell counts for a side when
     * its lower piece is that side's or something stands on it; and White's window states */
    int white_sign = us == SIDE_WHITE ? 1 : -1;
    uint8_t state[64 + 9];
    memset(state, 0, sizeof state);
    uint64_t occupied = 0;
    for (int c = 0; c < 64; c++) {
        uint8_t cell = b->cells[c];
        if (!cell) continue;
        occupied |= BIT(c);
        state[c] = white_window_state[cell & 31];
        if (lower_side(cell) == SIDE_WHITE || upper_type(cell))
            feature_emit(sink, summing, CELL_SQUARES + (content(cell, SIDE_WHITE) - 1) * 64 + c, white_sign);
        if (lower_side(cell) == SIDE_BLACK || upper_type(cell))
            feature_emit(sink, summing, CELL_SQUARES + (content(cell, SIDE_BLACK) - 1) * 64 + 63 - c, -white_sign);
    }
    /* windows holding a piece; Black reads White's window at (row, file) as its own at
     * (6 − row, 6 − file), its cells backwards */
    uint64_t corners = window_corners_of(occupied);
    while (corners) {
        int c = pop_lowest(&corners);
        int code = state[c] + 7 * state[c + 1] + 49 * state[c + 8] + 343 * state[c + 9];
        feature_emit(sink, summing, WINDOWS + (c >> 3) * WINDOW_STATES + code, white_sign);
        feature_emit(sink, summing, WINDOWS + (6 - (c >> 3)) * WINDOW_STATES + black_code[code], -white_sign);
    }
}

static int tawol_extract(const Variant *v, const Position *pos, Feature *out, int *phase, int *scale)
{
    FeatureSink sink = {.list = out};
    visit_features(v, pos, &sink, false, phase, scale);
    return sink.count;
}

/* ------------------------------------------------------------------ the fast path
 *
 * The same sum with one lookup a cell and one a window instead of two: White's view less
 * Black's view of the same cell (or window, Black's code of it in the mirrored row) is folded
 * into one table read with the cell's byte (White's window code), then signed by the side to
 * move. Integer sums reassociated: the result is the plain feature sum's, exactly.
 */
typedef struct {
    WeightPair scalar[SCALARS];
    WeightPair cell[64][32];                /* by cell and its byte (5 bits) */
    WeightPair window[7][WINDOW_STATES];    /* by window row and White's code */
} Folded;

static void *tawol_prepare(const Variant *v, const int16_t *opening, const int16_t *ending)
{
    (void)v;
    Folded *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    const int16_t *weights[2] = {opening, ending};
    for (int ph = 0; ph < 2; ph++) {
        const int16_t *w = weights[ph];
        for (int i = 0; i < SCALARS; i++) f->scalar[i].pair[ph] = w[i];
        for (int c = 0; c < 64; c++)
            for (int byte = 1; byte < 32; byte++) {
                uint8_t cell = (uint8_t)byte;
                if (!lower_type(cell)) continue; /* no such cell */
                int sum = 0;
                if (lower_side(cell) == SIDE_WHITE || upper_type(cell))
                    sum += w[CELL_SQUARES + (content(cell, SIDE_WHITE) - 1) * 64 + c];
                if (lower_side(cell) == SIDE_BLACK || upper_type(cell))
                    sum -= w[CELL_SQUARES + (content(cell, SIDE_BLACK) - 1) * 64 + 63 - c];
                if (sum > INT16_MAX || sum < INT16_MIN) goto too_large;
                f->cell[c][byte].pair[ph] = (int16_t)sum;
            }
        for (int row = 0; row < 7; row++)
            for (int code = 1; code < WINDOW_STATES; code++) {
                int sum = w[WINDOWS + row * WINDOW_STATES + code] - w[WINDOWS + (6 - row) * WINDOW_STATES + black_code[code]];
                if (sum > INT16_MAX || sum < INT16_MIN) goto too_large;
                f->window[row][code].pair[ph] = (int16_t)sum;
            }
    }
    return f;
too_large:
    free(f); /* a difference beyond 16 bits: the generic sum will do */
    return NULL;
}

/* White's window code of the 2x2 window whose lower left cell is c, from the cells' states:
 * the window's lower and upper pairs of cells, each read as one word. */
static inline int window_code(const uint8_t *state, int c)
{
    uint16_t low, high;
    memcpy(&low, state + c, 2);
    memcpy(&high, state + c + 8, 2);
    return pair_code[low] + 49 * pair_code[high];
}

/* The accumulator (FeatureSet.accumulate): White's sum of the cell and window weights, the
 * board's class sets (tawol_class_sets) the terms read, and each cell's window state from
 * White's side. From a parent, only the cells whose content changed and the windows holding
 * them are read again. */
static void tawol_accumulate(const Variant *v, const Position *pos, const void *prepared, const Position *parent,
                             const EvalAccumulator *parent_acc, EvalAccumulator *acc)
{
    (void)v;
    const Folded *f = prepared;
    const TawolBoard *b = CBOARD(pos);
    if (!parent) {
        int32_t white[2] = {0, 0};
        memset(acc->states, 0, sizeof acc->states);
        memset(acc->cells, 0, sizeof acc->cells);
        for (uint64_t o = b->occupied; o;) {
            int c = pop_lowest(&o);
            int byte = b->cells[c] & 31;
            acc->states[c] = white_window_state[byte];
            acc->cells[tawol_cell_class[byte]] |= BIT(c);
            white[0] += f->cell[c][byte].pair[0];
            white[1] += f->cell[c][byte].pair[1];
        }
        for (uint64_t corners = window_corners_of(b->occupied); corners;) {
            int c = pop_lowest(&corners);
            const WeightPair *weight = &f->window[c >> 3][window_code(acc->states, c)];
            white[0] += weight->pair[0];
            white[1] += weight->pair[1];
        }
        acc->sum[0] = white[0];
        acc->sum[1] = white[1];
        return;
    }
    const TawolBoard *before = CBOARD(parent);
    *acc = *parent_acc;
    uint64_t changed = changed_cells(b->cells, before->cells, 31);
    /* the windows holding a changed cell lose their weight before the change and take their
     * new one after it (an empty window's weight is zero) */
    uint64_t corners = window_corners_of(changed);
    for (uint64_t k = corners; k;) {
        int c = pop_lowest(&k);
        const WeightPair *weight = &f->window[c >> 3][window_code(acc->states, c)];
        acc->sum[0] -= weight->pair[0];
        acc->sum[1] -= weight->pair[1];
    }
    for (uint64_t m = changed; m;) {
        int c = pop_lowest(&m);
        int old = before->cells[c] & 31, now = b->cells[c] & 31;
        acc->sum[0] += f->cell[c][now].pair[0] - f->cell[c][old].pair[0];
        acc->sum[1] += f->cell[c][now].pair[1] - f->cell[c][old].pair[1];
        if (old) acc->cells[tawol_cell_class[old]] &= ~BIT(c);
        if (now) acc->cells[tawol_cell_class[now]] |= BIT(c);
        acc->states[c] = white_window_state[now];
    }
    for (uint64_t k = corners; k;) {
        int c = pop_lowest(&k);
        const WeightPair *weight = &f->window[c >> 3][window_code(acc->states, c)];
        acc->sum[0] += weight->pair[0];
        acc->sum[1] += weight->pair[1];
    }
}

static int tawol_evaluate_accumulated(const Variant *v, const Position *pos, const void *prepared,
                                      const EvalAccumulator *acc)
{
    (void)v;
    const Folded *f = prepared;
    FeatureSink sink = {.weights = f->scalar};
    int phase, scale;
    visit_scalars(pos, acc->cells, &sink, true, &phase, &scale);
    int white_sign = pos->side == SIDE_WHITE ? 1 : -1;
    sink.sum[0] += white_sign * acc->sum[0];
    sink.sum[1] += white_sign * acc->sum[1];
    return feature_sink_score(&sink, phase, scale);
}

static int tawol_evaluate_folded(const Variant *v, const Position *pos, const void *prepared)
{
    EvalAccumulator acc;
    tawol_accumulate(v, pos, prepared, NULL, NULL, &acc);
    return tawol_evaluate_accumulated(v, pos, prepared, &acc);
}

void tawol_eval_init(void)
{
    window_codes_for_black(black_code, 7, other_side_state);
    /* indexed by the word two adjacent states make in memory, whatever the byte order */
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++) {
            uint8_t cells[2] = {(uint8_t)a, (uint8_t)b};
            uint16_t word;
            memcpy(&word, cells, 2);
            pair_code[word] = (uint16_t)(a + 7 * b);
        }
    for (int byte = 1; byte < 32; byte++) white_window_state[byte] = (uint8_t)window_state((uint8_t)byte, SIDE_WHITE);
}

static void tawol_initial(const Variant *v, float *opening, float *ending)
{
    (void)v;
    /* the hand-set evaluation's weights (tawol_terms.c) */
    static const KnownWeight known[] = {{F_TAKEN, 300},       {F_BLOCKING, 60}, {F_FREE_PAWNS, 40},  {F_TOWER_ATTACKS, 45},
                 {F_FREE_THREATS, 10}, {F_CLOSENESS, 4}, {F_LAST_THEIRS, 200}, {F_LAST_OURS, -200},
                 {F_ONE_COLLAR_TAKEN, 5},   {F_TAKEN_LOCKED, -150}, {F_CHASE_ROOM, -2}};
    feature_starting_weights(opening, ending, FEATURE_COUNT, known, sizeof known / sizeof known[0]);
}

static void tawol_describe(const Variant *v, int index, char *out, size_t len)
{
    (void)v;
    static const char *const scalars[] = {"tempo",        "towers taken", "blocking",    "free pawns",  "tower attacks",
                                          "free threats", "closeness",    "last theirs", "last ours",
                                          "one-collar x taken", "plain pawns", "taken locked", "hunter deficit",
                                          "two left theirs", "two left ours", "tower room", "towers trapped",
                                          "chase room"};
    if (index <= F_CHASE_ROOM)
        snprintf(out, len, "%s", scalars[index]);
    else if (index < CELL_SQUARES)
        snprintf(out, len, "unused %d", index);
    else if (index < WINDOWS)
        snprintf(out, len, "content %d on cell %d", (index - CELL_SQUARES) / 64 + 1, (index - CELL_SQUARES) % 64);
    else
        snprintf(out, len, "window row %d state %d", (index - WINDOWS) / WINDOW_STATES, (index - WINDOWS) % WINDOW_STATES);
}

const FeatureSet tawol_features = {.name = "tawol-windows-v2", .count = FEATURE_COUNT,
                                   .extract = tawol_extract, .initial = tawol_initial,
                                   .describe = tawol_describe, .prepare = tawol_prepare,
                                   .evaluate = tawol_evaluate_folded, .accumulate = tawol_accumulate,
                                   .evaluate_accumulated = tawol_evaluate_accumulated};
