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

/* A window's cell state from the viewer's side: 0 empty, 1 own single, 2 own stack, 3 enemy
 * single, 4 enemy stack. */
static inline int cell_state(uint8_t stack, int viewer)
{
    if (!stack) return 0;
    int big = stack_size(stack) > 1;
    return stack_side(stack) == viewer ? 1 + big : 3 + big;
}

/* Appends the stack squares and windows of `viewer`, its cells given in its own view. */
static int view_features(const uint8_t cells[64], int viewer, int sign, Feature *out, int n)
{
    for (int c = 0; c < 64; c++)
        if (cells[c] && stack_side(cells[c]) == viewer)
            out[n++] = (Feature){STACK_SQUARES + composition(cells[c]) * 64 + c, sign};
    for (int row = 0; row < 7; row++)
        for (int file = 0; file < 7; file++) {
            int a = cell_state(cells[row * 8 + file], viewer), b = cell_state(cells[row * 8 + file + 1], viewer);
            int c = cell_state(cells[row * 8 + 8 + file], viewer), d = cell_state(cells[row * 8 + 9 + file], viewer);
            int mirrored = file > 3, column_class = mirrored ? 6 - file : file;
            int state = mirrored ? b + 5 * a + 25 * d + 125 * c : a + 5 * b + 25 * c + 125 * d;
            if (state) out[n++] = (Feature){WINDOWS + (row * 4 + column_class) * WINDOW_STATES + state, sign};
        }
    return n;
}

static int gounki_extract(const Variant *v, const Position *pos, Feature *out, int *phase, int *scale)
{
    (void)v;
    const GounkiBoard *b = CBOARD(pos);
    int us = pos->side;
    GounkiSideTerms terms[2];
    gounki_side_terms(b, us, &terms[0]);
    gounki_side_terms(b, us ^ 1, &terms[1]);
    int n = 0;
    out[n++] = (Feature){F_TEMPO, 1};
    out[n++] = (Feature){F_MATERIAL, terms[0].material - terms[1].material};
    out[n++] = (Feature){F_ADVANCEMENT, terms[0].advancement - terms[1].advancement};
    out[n++] = (Feature){F_RACE_SUM, terms[0].race_sum - terms[1].race_sum};
    out[n++] = (Feature){F_MIXED_TRIPLES, terms[0].mixed_triples - terms[1].mixed_triples};
    int lead = terms[1].best_race - terms[0].best_race;
    lead = lead > 3 ? 3 : lead < -3 ? -3 : lead;
    out[n++] = (Feature){F_RACE_LEAD, lead};
    if (lead >= 0) out[n++] = (Feature){F_NOT_BEHIND, 1};
    int ours = gounki_exit_threats(pos, us), theirs = gounki_exit_threats(pos, us ^ 1);
    if (ours && !pos->extra_turns) out[n++] = (Feature){F_OWN_THREAT, 1};
    if (theirs == 1) out[n++] = (Feature){F_THEIR_THREAT, 1};
    if (theirs >= 2) out[n++] = (Feature){F_THEIR_THREATS, 1};
    /* White's view is the board; Black's is the board turned */
    uint8_t turned[64];
    for (int c = 0; c < 64; c++) turned[c] = b->cells[63 - c];
    n = view_features(us == SIDE_WHITE ? b->cells : turned, us, 1, out, n);
    n = view_features(us == SIDE_WHITE ? turned : b->cells, us ^ 1, -1, out, n);
    int pieces = b->pieces[0] + b->pieces[1];
    *phase = pieces >= 32 ? 0 : (32 - pieces) * PHASE_MAX / 32;
    *scale = SCALE_MAX;
    return n;
}

static void gounki_initial(const Variant *v, float *opening, float *ending)
{
    (void)v;
    memset(opening, 0, sizeof *opening * FEATURE_COUNT);
    memset(ending, 0, sizeof *ending * FEATURE_COUNT);
    /* the hand-set evaluation's weights (gounki.c) */
    static const struct {
        int index;
        float weight;
    } known[] = {{F_MATERIAL, 100},  {F_ADVANCEMENT, 6}, {F_RACE_SUM, 12},     {F_MIXED_TRIPLES, 25},
                 {F_RACE_LEAD, 40},  {F_NOT_BEHIND, 20}, {F_OWN_THREAT, 400},  {F_THEIR_THREAT, -150},
                 {F_THEIR_THREATS, -600}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        opening[known[i].index] = ending[known[i].index] = known[i].weight;
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

const FeatureSet gounki_features = {"gounki-windows-v1", FEATURE_COUNT, gounki_extract, gounki_initial,
                                    gounki_describe, NULL, NULL};
