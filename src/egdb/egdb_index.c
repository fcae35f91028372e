/* egdb_index.c — position numbering of the endgame databases (see egdb_index.h). */
#include "egdb_index.h"

#include "../bitops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINOMIAL_N 65
static uint64_t binomial[BINOMIAL_N][EGDB_PIECES_MAX + 2];

void egdb_index_tables_init(void)
{
    if (binomial[0][0]) return;
    for (int n = 0; n < BINOMIAL_N; n++) {
        binomial[n][0] = 1;
        for (int k = 1; k <= EGDB_PIECES_MAX + 1; k++)
            binomial[n][k] = n == 0 ? 0 : binomial[n - 1][k - 1] + binomial[n - 1][k];
    }
}

uint64_t egdb_binomial(int n, int k)
{
    if (n < 0 || k < 0 || k > EGDB_PIECES_MAX + 1 || n >= BINOMIAL_N) return 0;
    return binomial[n][k];
}

EgdbMaterial egdb_material_of(const DraughtsBoard *b)
{
    EgdbMaterial m = {popcount64(b->pieces[SIDE_WHITE] & ~b->kings), popcount64(b->pieces[SIDE_WHITE] & b->kings),
                      popcount64(b->pieces[SIDE_BLACK] & ~b->kings), popcount64(b->pieces[SIDE_BLACK] & b->kings)};
    return m;
}

void egdb_material_name(EgdbMaterial m, char *out, size_t len)
{
    snprintf(out, len, "%dK%dM-%dK%dM", m.white_kings, m.white_men, m.black_kings, m.black_men);
}

bool egdb_material_parse(const char *text, EgdbMaterial *out)
{
    int wk, wm, bk, bm, used = 0;
    if (sscanf(text, "%dK%dM-%dK%dM%n", &wk, &wm, &bk, &bm, &used) != 4 || text[used]) return false;
    if (wk < 0 || wm < 0 || bk < 0 || bm < 0 || wk + wm + bk + bm > EGDB_PIECES_MAX) return false;
    EgdbMaterial m = {wm, wk, bm, bk};
    *out = m;
    return true;
}

bool egdb_material_fits(const DraughtsRules *r, EgdbMaterial m)
{
    int men_squares = r->squares - r->per_row;
    return m.white_men <= men_squares && m.black_men <= men_squares &&
           egdb_material_pieces(m) <= r->squares && egdb_material_pieces(m) <= EGDB_PIECES_MAX;
}

/* ------------------------------------------------------------------ combinations */

/* Colex rank of k sorted coordinates. */
static inline uint64_t rank_coords(const int *c, int k)
{
    uint64_t r = 0;
    for (int i = 0; i < k; i++) r += binomial[c[i]][i + 1];
    return r;
}

/* The sorted coordinates (each below n) of colex rank r. */
static void unrank_coords(uint64_t r, int k, int n, int *c)
{
    int high = n - 1;
    for (int i = k; i >= 1; i--) {
        /* the largest x in [i-1, high] with C(x, i) <= r */
        int low = i - 1, top = high;
        while (low < top) {
            int mid = (low + top + 1) / 2;
            if (binomial[mid][i] <= r)
                low = mid;
            else
                top = mid - 1;
        }
        c[i - 1] = low;
        r -= binomial[low][i];
        high = low - 1;
    }
}

/* The bits of allowed whose positions (counted from 0 in rising order) are the sorted coords. */
static uint64_t select_bits(uint64_t allowed, const int *coords, int k)
{
    uint64_t out = 0;
    int at = 0;
    for (int i = 0; i < k; i++) {
        while (at < coords[i]) allowed &= allowed - 1, at++;
        out |= allowed & (0 - allowed);
    }
    return out;
}

/* The compressed coordinates of the pieces in set, each its square less the excluded ones below. */
static inline int coords_of(const DraughtsRules *r, uint64_t set, uint64_t excluded, int *c)
{
    int k = 0;
    while (set) {
        int bit = pop_lowest(&set);
        c[k++] = r->square_of_bit[bit] - popcount64(excluded & (BIT(bit) - 1));
    }
    return k;
}

/* ------------------------------------------------------------------ the index */

/* Squares where men of each side may stand: all but their crowning row. */
static inline uint64_t men_squares(const DraughtsRules *r, int side) { return r->board_mask & ~r->crown_row[side]; }

bool egdb_index_init(EgdbIndex *ix, const DraughtsRules *r, EgdbMaterial m)
{
    egdb_index_tables_init();
    memset(ix, 0, sizeof *ix);
    ix->rules = r;
    ix->material = m;
    int white_region = popcount64(men_squares(r, SIDE_WHITE)), black_region = popcount64(men_squares(r, SIDE_BLACK));
    ix->white_men_combos = binomial[white_region][m.white_men];
    ix->black_men_offset = malloc(sizeof(uint64_t) * (size_t)(ix->white_men_combos + 1));
    if (!ix->black_men_offset) return false;
    uint64_t total = 0;
    for (uint64_t w = 0; w < ix->white_men_combos; w++) {
        int c[EGDB_PIECES_MAX];
        unrank_coords(w, m.white_men, white_region, c);
        uint64_t white = select_bits(men_squares(r, SIDE_WHITE), c, m.white_men);
        ix->black_men_offset[w] = total;
        total += binomial[black_region - popcount64(white & men_squares(r, SIDE_BLACK))][m.black_men];
    }
    ix->black_men_offset[ix->white_men_combos] = total;
    ix->men_configs = total;
    ix->free_squares = r->squares - m.white_men - m.black_men;
    ix->white_king_combos = binomial[ix->free_squares][m.white_kings];
    ix->black_king_combos = binomial[ix->free_squares - m.white_kings][m.black_kings];
    ix->king_configs = ix->white_king_combos * ix->black_king_combos;
    ix->size = ix->men_configs * ix->king_configs;
    return true;
}

void egdb_index_free(EgdbIndex *ix)
{
    free(ix->black_men_offset);
    ix->black_men_offset = NULL;
}

uint64_t egdb_men_index(const EgdbIndex *ix, uint64_t white_men, uint64_t black_men)
{
    const DraughtsRules *r = ix->rules;
    int c[EGDB_PIECES_MAX];
    /* white men: every square of their region is a coordinate, the first row excluded */
    int k = coords_of(r, white_men, r->crown_row[SIDE_WHITE], c);
    uint64_t white_rank = rank_coords(c, k);
    /* black men: their region starts at square 0; white men in it are excluded */
    k = coords_of(r, black_men, white_men, c);
    return ix->black_men_offset[white_rank] + rank_coords(c, k);
}

uint64_t egdb_king_index(const EgdbIndex *ix, uint64_t men, uint64_t white_kings, uint64_t black_kings)
{
    const DraughtsRules *r = ix->rules;
    int c[EGDB_PIECES_MAX];
    int k = coords_of(r, white_kings, men, c);
    uint64_t white_rank = rank_coords(c, k);
    k = coords_of(r, black_kings, men | white_kings, c);
    return white_rank * ix->black_king_combos + rank_coords(c, k);
}

uint64_t egdb_index_of(const EgdbIndex *ix, const DraughtsBoard *b)
{
    uint64_t white_men = b->pieces[SIDE_WHITE] & ~b->kings, black_men = b->pieces[SIDE_BLACK] & ~b->kings;
    return egdb_men_index(ix, white_men, black_men) * ix->king_configs +
           egdb_king_index(ix, white_men | black_men, b->pieces[SIDE_WHITE] & b->kings, b->pieces[SIDE_BLACK] & b->kings);
}

void egdb_men_of(const EgdbIndex *ix, uint64_t men_index, uint64_t *white_men, uint64_t *black_men)
{
    const DraughtsRules *r = ix->rules;
    const EgdbMaterial m = ix->material;
    /* the white rank: the last offset not above men_index */
    uint64_t low = 0, high = ix->white_men_combos - 1;
    while (low < high) {
        uint64_t mid = (low + high + 1) / 2;
        if (ix->black_men_offset[mid] <= men_index)
            low = mid;
        else
            high = mid - 1;
    }
    int c[EGDB_PIECES_MAX];
    uint64_t white_region = men_squares(r, SIDE_WHITE);
    unrank_coords(low, m.white_men, popcount64(white_region), c);
    *white_men = select_bits(white_region, c, m.white_men);
    uint64_t black_region = men_squares(r, SIDE_BLACK) & ~*white_men;
    unrank_coords(men_index - ix->black_men_offset[low], m.black_men, popcount64(black_region), c);
    *black_men = select_bits(black_region, c, m.black_men);
}

void egdb_kings_of(const EgdbIndex *ix, uint64_t men, uint64_t king_index, uint64_t *white_kings, uint64_t *black_kings)
{
    const DraughtsRules *r = ix->rules;
    const EgdbMaterial m = ix->material;
    int c[EGDB_PIECES_MAX];
    uint64_t free_squares = r->board_mask & ~men;
    unrank_coords(king_index / ix->black_king_combos, m.white_kings, ix->free_squares, c);
    *white_kings = select_bits(free_squares, c, m.white_kings);
    unrank_coords(king_index % ix->black_king_combos, m.black_kings, ix->free_squares - m.white_kings, c);
    *black_kings = select_bits(free_squares & ~*white_kings, c, m.black_kings);
}

void egdb_board_of(const EgdbIndex *ix, uint64_t index, DraughtsBoard *out)
{
    uint64_t white_men, black_men, white_kings, black_kings;
    egdb_men_of(ix, index / ix->king_configs, &white_men, &black_men);
    egdb_kings_of(ix, white_men | black_men, index % ix->king_configs, &white_kings, &black_kings);
    out->pieces[SIDE_WHITE] = white_men | white_kings;
    out->pieces[SIDE_BLACK] = black_men | black_kings;
    out->kings = white_kings | black_kings;
}

void egdb_king_frame(uint64_t board_mask, uint64_t men, EgdbKingFrame *f)
{
    memset(f->coord, -1, sizeof f->coord);
    f->free_count = 0;
    for (uint64_t x = board_mask & ~men; x;) {
        int bit = pop_lowest(&x);
        f->coord[bit] = (int8_t)f->free_count;
        f->free_bit[f->free_count++] = (int8_t)bit;
    }
}

uint64_t egdb_frame_king_index(const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t white_kings, uint64_t black_kings)
{
    int white[EGDB_PIECES_MAX], k = 0;
    uint64_t white_rank = 0, black_rank = 0;
    for (uint64_t x = white_kings; x; k++) {
        white[k] = f->coord[pop_lowest(&x)];
        white_rank += binomial[white[k]][k + 1];
    }
    int j = 0;
    for (uint64_t x = black_kings; x; j++) {
        int c = f->coord[pop_lowest(&x)];
        /* white kings below it are not coordinates of black kings */
        int below = 0;
        for (int i = 0; i < k; i++) below += white[i] < c;
        black_rank += binomial[c - below][j + 1];
    }
    return white_rank * ix->black_king_combos + black_rank;
}

void egdb_frame_kings_of(const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t king_index, uint64_t *white_kings,
                         uint64_t *black_kings)
{
    const EgdbMaterial m = ix->material;
    int white[EGDB_PIECES_MAX], black[EGDB_PIECES_MAX];
    unrank_coords(king_index / ix->black_king_combos, m.white_kings, f->free_count, white);
    unrank_coords(king_index % ix->black_king_combos, m.black_kings, f->free_count - m.white_kings, black);
    uint64_t w = 0, b = 0;
    for (int i = 0; i < m.white_kings; i++) w |= BIT(f->free_bit[white[i]]);
    for (int i = 0; i < m.black_kings; i++) {
        /* the c-th free square that no white king holds: step over the white kings at or below */
        int c = black[i];
        for (int k = 0; k < m.white_kings; k++) c += white[k] <= c;
        b |= BIT(f->free_bit[c]);
    }
    *white_kings = w;
    *black_kings = b;
}

void egdb_king_walk_start(EgdbKingWalk *w, const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t king_index)
{
    w->ix = ix;
    w->frame = f;
    unrank_coords(king_index / ix->black_king_combos, ix->material.white_kings, f->free_count, w->white);
    unrank_coords(king_index % ix->black_king_combos, ix->material.black_kings, f->free_count - ix->material.white_kings,
                  w->black);
}

/* The next combination in colex order; false (and the first one) after the last. */
static bool next_combination(int *c, int k, int n)
{
    for (int i = 0; i < k; i++) {
        int limit = i + 1 < k ? c[i + 1] : n;
        if (c[i] + 1 < limit) {
            c[i]++;
            for (int j = 0; j < i; j++) c[j] = j;
            return true;
        }
    }
    for (int j = 0; j < k; j++) c[j] = j;
    return false;
}

void egdb_king_walk_next(EgdbKingWalk *w)
{
    const EgdbMaterial m = w->ix->material;
    if (!next_combination(w->black, m.black_kings, w->frame->free_count - m.white_kings))
        next_combination(w->white, m.white_kings, w->frame->free_count);
}

void egdb_king_walk_kings(const EgdbKingWalk *w, uint64_t *white_kings, uint64_t *black_kings)
{
    const EgdbMaterial m = w->ix->material;
    const EgdbKingFrame *f = w->frame;
    uint64_t white = 0, black = 0;
    for (int i = 0; i < m.white_kings; i++) white |= BIT(f->free_bit[w->white[i]]);
    for (int i = 0; i < m.black_kings; i++) {
        int c = w->black[i];
        for (int k = 0; k < m.white_kings; k++) c += w->white[k] <= c;
        black |= BIT(f->free_bit[c]);
    }
    *white_kings = white;
    *black_kings = black;
}

/* ------------------------------------------------------------------ mirror */

static inline uint64_t reverse_bits(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    return __builtin_bswap64(x);
}

void egdb_mirror(const DraughtsRules *r, const DraughtsBoard *in, DraughtsBoard *out)
{
    /* square s and square N-1-s sit at bits b and top-b (the ghost bits fall in place too,
     * see draughts.c), so turning the board is reversing the bits below top */
    int shift = 63 - r->bit_of_square[r->squares - 1];
    DraughtsBoard turned = {{reverse_bits(in->pieces[SIDE_BLACK]) >> shift, reverse_bits(in->pieces[SIDE_WHITE]) >> shift},
                            reverse_bits(in->kings) >> shift};
    *out = turned;
}

int egdb_men_advancement(const DraughtsRules *r, uint64_t white_men, uint64_t black_men)
{
    int total = 0;
    while (white_men) total += r->row_from_bottom[pop_lowest(&white_men)];
    while (black_men) total += r->size - 1 - r->row_from_bottom[pop_lowest(&black_men)];
    return total;
}
