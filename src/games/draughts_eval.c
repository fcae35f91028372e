/*
 * draughts_eval.c — the learned evaluation's features for the draughts family (one feature set
 * for the 8×8 variants, one for international; each variant trains its own weights).
 *
 * Everything is seen from the side to move: for Black the board is turned a half-turn, so that
 * "own" men always move up the board. The opponent's features are the same features read from
 * its own point of view, with value −1: one table serves both colours, and the score is
 * antisymmetric but for the tempo (the bias).
 *
 * Groups (index ranges below):
 *  - scalars: tempo, men, having a king, kings beyond the first, king mobility (free squares
 *    along the kings' lines), left/right imbalance of the men;
 *  - king squares and man squares: a weight per square;
 *  - patterns: the board is covered by overlapping 4×4 regions (rows and columns 0, 2, 4, …
 *    of the view), each holding 8 dark squares; a region's content (empty / own man / enemy
 *    man, kings left to the other groups) is a base-3 number indexing its own table of 3^8.
 * Phase: how many pieces have left the board. Scale: drawish material (with flying kings, a side
 * of at most 3 pieces, not fewer than the other, against a king gets 1/8; equal kings and men
 * within one of each other 1/2).
 */
#include "../bitops.h"
#include "../eval_weights.h"
#include "draughts_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

enum {
    F_TEMPO, F_MEN, F_KING, F_MORE_KINGS, F_KING_MOBILITY, F_IMBALANCE,
    SCALARS = 8,
    PATTERN_STATES = 6561, /* 3^8 */
};

typedef struct {
    int size, per_row, squares, windows;
    int king_squares, man_squares, patterns, count; /* index of each group, and the total */
    uint8_t window_shift[16][4];                     /* first bit of each row of a region */
    uint64_t window_mask[16];                        /* a region's 8 bits */
    /* without pext, a region's 8 bits are gathered by one multiplication: shifted down to its
     * first square and masked (gather_mask, the same for every region of a board), times
     * gather_magic, they land in the top byte, each of the 256 contents at its own value, which
     * gathered_base3 turns into the base-3 digits of the region's bits in order (as base3) */
    uint64_t gather_mask, gather_magic;
    uint16_t gathered_base3[256], gathered_base3_reversed[256];
    uint64_t rotate[8][256];                         /* the half-turn, one byte of bits at a time */
    uint64_t left_half;                              /* files a.. of the left half */
    bool ready;
} Geometry;

static Geometry geometry8, geometry10;
static uint16_t base3[256];          /* the bits of a byte read as base-3 digits (0 or 1) */
static uint16_t base3_reversed[256]; /* the same, the bits read in the opposite order */

static Geometry *geometry_of(const DraughtsRules *r) { return r->size == 10 ? &geometry10 : &geometry8; }

void draughts_eval_init(const DraughtsRules *r)
{
    for (int b = 0; b < 256; b++) {
        int value = 0, reversed = 0, power = 1;
        for (int k = 0; k < 8; k++, power *= 3) {
            if (b & (1 << k)) value += power;
            if (b & (1 << (7 - k))) reversed += power;
        }
        base3[b] = (uint16_t)value;
        base3_reversed[b] = (uint16_t)reversed;
    }
    Geometry *g = geometry_of(r);
    if (g->ready) return;
    g->size = r->size;
    g->per_row = r->per_row;
    g->squares = r->squares;
    g->windows = 0;
    for (int top = 0; top + 4 <= r->size; top += 2)
        for (int left = 0; left + 4 <= r->size; left += 2) {
            /* in every row the region holds two consecutive squares, from index left / 2 */
            g->window_mask[g->windows] = 0;
            for (int j = 0; j < 4; j++) {
                g->window_shift[g->windows][j] = (uint8_t)r->bit_of_square[(top + j) * r->per_row + left / 2];
                g->window_mask[g->windows] |= (uint64_t)3 << g->window_shift[g->windows][j];
            }
            g->windows++;
        }
    /* found by a search over random constants; the check below proves each one a bijection */
    g->gather_magic = r->size == 10 ? 0x2a01100004080120ull : 0x102008104100440ull;
    /* each row of a region from its first square, in bits (the first region's; all are checked alike below) */
    int row_offset[4];
    g->gather_mask = 0;
    for (int j = 0; j < 4; j++) {
        row_offset[j] = g->window_shift[0][j] - g->window_shift[0][0];
        g->gather_mask |= (uint64_t)3 << row_offset[j];
    }
    bool seen[256] = {false};
    for (int byte = 0; byte < 256; byte++) {
        uint64_t bits = 0;
        for (int j = 0; j < 4; j++) bits |= (uint64_t)((byte >> (2 * j)) & 3) << row_offset[j];
        int gathered = (int)((bits * g->gather_magic) >> 56);
        if (seen[gathered]) {
            fprintf(stderr, "donjon: draughts evaluation: the gather constant of the %dx%d board is not one-to-one\n",
                    r->size, r->size);
            abort();
        }
        seen[gathered] = true;
        g->gathered_base3[gathered] = base3[byte];
        g->gathered_base3_reversed[gathered] = base3_reversed[byte];
    }
    for (int w = 1; w < g->windows; w++)
        for (int j = 0; j < 4; j++)
            if (g->window_shift[w][j] - g->window_shift[w][0] != row_offset[j]) {
                fprintf(stderr, "donjon: draughts evaluation: regions of the %dx%d board differ in shape\n", r->size,
                        r->size);
                abort();
            }
    g->king_squares = SCALARS;
    g->man_squares = g->king_squares + g->squares;
    g->patterns = g->man_squares + g->squares;
    g->count = g->patterns + g->windows * PATTERN_STATES;
    for (int byte = 0; byte < 8; byte++)
        for (int value = 0; value < 256; value++) {
            uint64_t turned = 0;
            for (int k = 0; k < 8; k++) {
                int bit = byte * 8 + k;
                if (!(value & (1 << k)) || bit >= 64 || r->square_of_bit[bit] < 0) continue;
                turned |= BIT(r->bit_of_square[r->squares - 1 - r->square_of_bit[bit]]);
            }
            g->rotate[byte][value] = turned;
        }
    g->left_half = 0;
    for (int bit = 0; bit < 64; bit++)
        if (r->square_of_bit[bit] >= 0 && r->file_of_bit[bit] < r->size / 2) g->left_half |= BIT(bit);
    g->ready = true;
}

static inline uint64_t half_turn(const Geometry *g, uint64_t bits)
{
    uint64_t turned = 0;
    for (int byte = 0; bits; byte++, bits >>= 8) turned |= g->rotate[byte][bits & 255];
    return turned;
}

static inline int region_index(const Geometry *g, int w, uint64_t own, uint64_t enemy)
{
    int own8 = 0, enemy8 = 0;
    for (int j = 0; j < 4; j++) {
        own8 |= (int)((own >> g->window_shift[w][j]) & 3) << (2 * j);
        enemy8 |= (int)((enemy >> g->window_shift[w][j]) & 3) << (2 * j);
    }
    return base3[own8] + 2 * base3[enemy8];
}

/* Appends one side's features with sign +1 (the side to move) or −1, its pieces given in its
 * own view (its men move up). */
static int side_features(const DraughtsRules *r, const Geometry *g, uint64_t men, uint64_t kings, uint64_t enemy_men,
                         uint64_t empty, int sign, Feature *out, int n)
{
    int king_count = popcount64(kings);
    out[n++] = (Feature){F_MEN, sign * popcount64(men)};
    if (king_count) {
        out[n++] = (Feature){F_KING, sign};
        if (king_count > 1) out[n++] = (Feature){F_MORE_KINGS, sign * (king_count - 1)};
        out[n++] = (Feature){F_KING_MOBILITY, sign * king_reach_count(r, kings, empty)};
    }
    int left = popcount64(men & g->left_half), right = popcount64(men) - left;
    if (left != right) out[n++] = (Feature){F_IMBALANCE, sign * (left > right ? left - right : right - left)};
    for (uint64_t k = kings; k;) out[n++] = (Feature){g->king_squares + r->square_of_bit[pop_lowest(&k)], sign};
    for (uint64_t m = men; m;) out[n++] = (Feature){g->man_squares + r->square_of_bit[pop_lowest(&m)], sign};
    for (int w = 0; w < g->windows; w++)
        out[n++] = (Feature){g->patterns + w * PATTERN_STATES + region_index(g, w, men, enemy_men), sign};
    return n;
}

/* Phase: the share of the pieces gone. Scale: drawish material (see the top of the file). */
static void material_phase_and_scale(const DraughtsRules *r, const int pieces[2], const int kings_of[2], int *phase,
                                     int *scale)
{
    int total = pieces[0] + pieces[1], start = 2 * r->men_each;
    *phase = total >= start ? 0 : (start - total) * PHASE_MAX / start;
    *scale = SCALE_MAX;
    for (int s = 0; s < 2 && r->flying_kings; s++)
        if (pieces[s] <= 3 && pieces[s] >= pieces[s ^ 1] && kings_of[s ^ 1]) *scale = SCALE_MAX / 8;
    int men_difference = (pieces[0] - kings_of[0]) - (pieces[1] - kings_of[1]);
    if (*scale == SCALE_MAX && kings_of[0] && kings_of[0] == kings_of[1] && men_difference >= -1 && men_difference <= 1)
        *scale = SCALE_MAX / 2;
}

static int draughts_extract(const Variant *v, const Position *pos, Feature *out, int *phase, int *scale)
{
    const DraughtsRules *r = RULES(v);
    const Geometry *g = geometry_of(r);
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side;
    /* White's men move towards square 1: that is the view; Black's position is turned */
    uint64_t own = b->pieces[us], enemy = b->pieces[us ^ 1], kings = b->kings;
    if (us == SIDE_BLACK) {
        own = half_turn(g, own);
        enemy = half_turn(g, enemy);
        kings = half_turn(g, kings);
    }
    uint64_t empty = r->board_mask & ~(own | enemy);
    uint64_t own_men = own & ~kings, own_kings = own & kings, enemy_men = enemy & ~kings, enemy_kings = enemy & kings;
    int n = 0;
    out[n++] = (Feature){F_TEMPO, 1};
    n = side_features(r, g, own_men, own_kings, enemy_men, empty, 1, out, n);
    /* the opponent in its own view: the board turned again */
    n = side_features(r, g, half_turn(g, enemy_men), half_turn(g, enemy_kings), half_turn(g, own_men), half_turn(g, empty),
                      -1, out, n);

    int pieces[2] = {popcount64(own), popcount64(enemy)};
    int kings_of[2] = {popcount64(own & kings), popcount64(enemy & kings)};
    material_phase_and_scale(r, pieces, kings_of, phase, scale);
    return n;
}

static void draughts_initial(const Variant *v, float *opening, float *ending)
{
    const DraughtsRules *r = RULES(v);
    const Geometry *g = geometry_of(r);
    memset(opening, 0, sizeof *opening * (size_t)g->count);
    memset(ending, 0, sizeof *ending * (size_t)g->count);
    /* what the hand-set evaluation knows: material, tempo, king mobility, a man's placement */
    for (int phase = 0; phase < 2; phase++) {
        float *w = phase ? ending : opening;
        w[F_TEMPO] = 5;
        w[F_MEN] = 100;
        w[F_KING] = (float)r->king_value;
        w[F_MORE_KINGS] = (float)r->king_value;
        w[F_KING_MOBILITY] = 1;
        for (int s = 0; s < r->squares; s++) w[g->man_squares + s] = r->man_table[SIDE_WHITE][r->bit_of_square[s]];
    }
}

static void draughts_describe(const Variant *v, int index, char *out, size_t len)
{
    const Geometry *g = geometry_of(RULES(v));
    static const char *const scalars[] = {"tempo", "men", "king", "more kings", "king mobility", "imbalance"};
    if (index < F_IMBALANCE + 1)
        snprintf(out, len, "%s", scalars[index]);
    else if (index < g->king_squares)
        snprintf(out, len, "unused %d", index);
    else if (index < g->man_squares)
        snprintf(out, len, "king on %d", index - g->king_squares + 1);
    else if (index < g->patterns)
        snprintf(out, len, "man on %d", index - g->man_squares + 1);
    else
        snprintf(out, len, "region %d pattern %d", (index - g->patterns) / PATTERN_STATES,
                 (index - g->patterns) % PATTERN_STATES);
}

/* ------------------------------------------------------------------ the fast path
 *
 * The same sum without turning the board: a region seen by Black is the half-turned region
 * of White's view read backwards, so one pass over White's view gives both sides' indices
 * (base3_reversed); better, both weights are folded into one table of their difference, read
 * with White's index. The man squares are folded into the region tables (each square into one
 * region holding it), and each weight's two phases sit side by side in memory.
 */
typedef struct {
    WeightPair scalar[SCALARS];
    WeightPair king_square[50];
    WeightPair region[16][PATTERN_STATES];
    int mirror[16];  /* the region a half-turn brings a region to */
    /* White's region w less Black's view of the same squares (region mirror[w], read
     * backwards), by White's state of the region: one lookup a region instead of two, when
     * every difference fits in 16 bits */
    bool has_difference;
    WeightPair difference[16][PATTERN_STATES];
} Prepared;

static void *draughts_prepare(const Variant *v, const int16_t *opening, const int16_t *ending)
{
    const DraughtsRules *r = RULES(v);
    const Geometry *g = geometry_of(r);
    Prepared *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    const int16_t *weights[2] = {opening, ending};
    int32_t folded[PATTERN_STATES];
    for (int ph = 0; ph < 2; ph++) {
        for (int i = 0; i < SCALARS; i++) p->scalar[i].pair[ph] = weights[ph][i];
        for (int s = 0; s < g->squares; s++) p->king_square[s].pair[ph] = weights[ph][g->king_squares + s];
        bool placed[50] = {false};
        for (int w = 0; w < g->windows; w++) {
            for (int state = 0; state < PATTERN_STATES; state++)
                folded[state] = weights[ph][g->patterns + w * PATTERN_STATES + state];
            /* squares not yet placed in a region: add their weight wherever the region has an own man there */
            for (int j = 0; j < 8; j++) {
                int square = r->square_of_bit[g->window_shift[w][j / 2] + (j & 1)];
                if (placed[square]) continue;
                placed[square] = true;
                int weight = weights[ph][g->man_squares + square], power = 1;
                for (int k = 0; k < j; k++) power *= 3;
                for (int state = 0; state < PATTERN_STATES; state++)
                    if (state / power % 3 == 1) folded[state] += weight;
            }
            for (int state = 0; state < PATTERN_STATES; state++) {
                if (folded[state] > 32767 || folded[state] < -32768) {
                    free(p); /* too large for the fast tables: the generic sum will do */
                    return NULL;
                }
                p->region[w][state].pair[ph] = (int16_t)folded[state];
            }
        }
    }
    for (int w = 0; w < g->windows; w++) p->mirror[w] = g->windows - 1 - w;
    /* over every region content (White's men, Black's men, never on one square), the two
     * indices the evaluation would read, as draughts_evaluate_fast computes them */
    p->has_difference = true;
    for (int w = 0; w < g->windows; w++)
        for (int white8 = 0; white8 < 256; white8++)
            for (int black8 = 0; black8 < 256; black8++) {
                if (white8 & black8) continue;
                int state = base3[white8] + 2 * base3[black8];
                int turned = base3_reversed[black8] + 2 * base3_reversed[white8];
                for (int ph = 0; ph < 2; ph++) {
                    int difference = p->region[w][state].pair[ph] - p->region[p->mirror[w]][turned].pair[ph];
                    if (difference > 32767 || difference < -32768) p->has_difference = false;
                    p->difference[w][state].pair[ph] = (int16_t)difference;
                }
            }
    return p;
}

static inline void add_pair(int32_t sum[2], WeightPair w, int times)
{
    sum[0] += w.pair[0] * times;
    sum[1] += w.pair[1] * times;
}

/* One side's scalar and king features into sum, its kings given as squares of its own view;
 * its men and kings are counted into counts[0] and counts[1]. */
/* always inlined: called twice a position, a call spilled its nine arguments */
static inline __attribute__((always_inline)) void side_scalars(const DraughtsRules *r, const Geometry *g,
                                                               const Prepared *p, uint64_t men, uint64_t kings,
                                                               uint64_t empty, bool turned, int32_t sum[2],
                                                               int counts[2])
{
    int men_count = popcount64(men), king_count = kings ? popcount64(kings) : 0;
    counts[0] = men_count;
    counts[1] = king_count;
    add_pair(sum, p->scalar[F_MEN], men_count);
    if (king_count) {
        add_pair(sum, p->scalar[F_KING], 1);
        if (king_count > 1) add_pair(sum, p->scalar[F_MORE_KINGS], king_count - 1);
        add_pair(sum, p->scalar[F_KING_MOBILITY], king_reach_count(r, kings, empty));
        for (uint64_t k = kings; k;) {
            int square = r->square_of_bit[pop_lowest(&k)];
            add_pair(sum, p->king_square[turned ? g->squares - 1 - square : square], 1);
        }
    }
    int left = popcount64(men & g->left_half), right = men_count - left;
    add_pair(sum, p->scalar[F_IMBALANCE], left > right ? left - right : right - left);
}

static int draughts_evaluate_fast(const Variant *v, const Position *pos, const void *prepared)
{
    const DraughtsRules *r = RULES(v);
    const Geometry *g = geometry_of(r);
    const Prepared *p = prepared;
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t white = b->pieces[SIDE_WHITE], black = b->pieces[SIDE_BLACK];
    uint64_t white_men = white & ~b->kings, black_men = black & ~b->kings;
    uint64_t empty = r->board_mask & ~(white | black);
    int32_t sum[2][2] = {{0, 0}, {0, 0}}; /* [side][phase] */
    /* a colour's code of a region: its 8 bits in order (pext), or their gathered value; digits
     * turns either into the region's base-3 digits */
#ifdef __BMI2__
    const uint16_t *digits = base3, *digits_reversed = base3_reversed;
#else
    const uint16_t *digits = g->gathered_base3, *digits_reversed = g->gathered_base3_reversed;
    const uint64_t mask = g->gather_mask, magic = g->gather_magic;
#endif
    for (int w = 0; w < g->windows; w++) {
#ifdef __BMI2__
        /* one instruction gathers a region's 8 bits (fast on Intel from Haswell and AMD from Zen 3;
         * the Makefile leaves BMI2 out where it is microcoded) */
        int white_code = (int)_pext_u64(white_men, g->window_mask[w]);
        int black_code = (int)_pext_u64(black_men, g->window_mask[w]);
#else
        int shift = g->window_shift[w][0];
        int white_code = (int)((((white_men >> shift) & mask) * magic) >> 56);
        int black_code = (int)((((black_men >> shift) & mask) * magic) >> 56);
#endif
        if (p->has_difference)
            add_pair(sum[SIDE_WHITE], p->difference[w][digits[white_code] + 2 * digits[black_code]], 1);
        else {
            add_pair(sum[SIDE_WHITE], p->region[w][digits[white_code] + 2 * digits[black_code]], 1);
            add_pair(sum[SIDE_BLACK],
                     p->region[p->mirror[w]][digits_reversed[black_code] + 2 * digits_reversed[white_code]], 1);
        }
    }
    /* king mobility counts free squares along lines: the same from either side's view */
    int counts[2][2]; /* [side][men, kings] */
    side_scalars(r, g, p, white_men, white & b->kings, empty, false, sum[SIDE_WHITE], counts[SIDE_WHITE]);
    side_scalars(r, g, p, black_men, black & b->kings, empty, true, sum[SIDE_BLACK], counts[SIDE_BLACK]);
    int us = pos->side;
    int64_t opening = (int64_t)p->scalar[F_TEMPO].pair[0] + sum[us][0] - sum[us ^ 1][0];
    int64_t ending = (int64_t)p->scalar[F_TEMPO].pair[1] + sum[us][1] - sum[us ^ 1][1];

    int pieces[2] = {counts[us][0] + counts[us][1], counts[us ^ 1][0] + counts[us ^ 1][1]};
    int kings_of[2] = {counts[us][1], counts[us ^ 1][1]};
    int phase, scale;
    material_phase_and_scale(r, pieces, kings_of, &phase, &scale);
    int64_t blended = ((PHASE_MAX - phase) * opening + phase * ending) * scale;
    return (int)(blended / ((int64_t)PHASE_MAX * SCALE_MAX * WEIGHT_UNIT));
}

/* 8 scalars, 32 + 32 squares, 9 regions: 59,121 weights; 8 + 50 + 50 + 16 regions: 105,084 */
const FeatureSet draughts8_features = {.name = "draughts8-regions-v1", .count = 8 + 32 + 32 + 9 * PATTERN_STATES,
                                       .extract = draughts_extract, .initial = draughts_initial,
                                       .describe = draughts_describe, .prepare = draughts_prepare,
                                       .evaluate = draughts_evaluate_fast};
const FeatureSet draughts10_features = {.name = "draughts10-regions-v1", .count = 8 + 50 + 50 + 16 * PATTERN_STATES,
                                        .extract = draughts_extract, .initial = draughts_initial,
                                        .describe = draughts_describe, .prepare = draughts_prepare,
                                        .evaluate = draughts_evaluate_fast};
