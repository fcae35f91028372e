/*
 * ecroulement.c — the tower-collapse game of RULES.md section 2, plain and rapide.
 *
 * Board: 64 signed heights, index = file + 8 · row (a1 = 0): +h a white stack of h pawns,
 * −h a black one, 0 empty. Bitboards of each side's singles (height 1) make builds, which
 * gather runs of own singles, quick to find.
 *
 * Moves: kind BUILD (the run from..to gathered onto `to`) or COLLAPSE (the stack on `from`
 * spread towards `to`, its last cell). Move.bits holds the cells whose enemy pawns the move
 * takes (the cell beyond in the plain game; every covered enemy stack in rapide).
 */
#include "ecroulement.h"
#include "ecroulement_board.h"

#include "../bitops.h"
#include "grid.h"
#include "../zobrist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const CollapseRules rules_plain = {false}, rules_rapid = {true};

static uint64_t height_keys[64][31]; /* [cell][height + 15] */
static uint64_t side_key;

void ecroulement_init(void)
{
    ZobristStream zs = {0xEC201ull};
    for (int c = 0; c < 64; c++)
        for (int h = 0; h < 31; h++) height_keys[c][h] = zobrist_next(&zs);
    side_key = zobrist_next(&zs);
    ecroulement_eval_init();
}

static inline int side_of(int h) { return h > 0 ? SIDE_WHITE : SIDE_BLACK; }

static void set_height(CollapseBoard *b, uint64_t *key, int cell, int h)
{
    *key ^= height_keys[cell][b->height[cell] + 15] ^ height_keys[cell][h + 15];
    b->height[cell] = (int8_t)h;
    uint64_t bit = BIT(cell);
    for (int s = 0; s < 2; s++) b->singles[s] &= ~bit, b->occupied[s] &= ~bit;
    if (h) {
        int s = side_of(h);
        b->occupied[s] |= bit;
        if (h == 1 || h == -1) b->singles[s] |= bit;
    }
}

static uint64_t compute_key(const Position *pos)
{
    uint64_t key = pos->side == SIDE_BLACK ? side_key : 0;
    for (int c = 0; c < 64; c++) key ^= height_keys[c][CBOARD(pos)->height[c] + 15];
    return key;
}

/* ---------------------------------------------------------------- generation */

static inline void add_move(Move *list, int *count, int kind, int from, int to, uint64_t taken)
{
    Move *m = &list[(*count)++];
    memset(m, 0, sizeof *m);
    m->kind = (uint8_t)kind;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->bits = taken;
    m->flags = taken ? MOVE_NOISY : 0;
}

static int generate_moves(const CollapseRules *r, const Position *pos, Move *list, bool noisy_only)
{
    const CollapseBoard *b = CBOARD(pos);
    int us = pos->side, them = us ^ 1, count = 0;
    if (!noisy_only) {
        /* builds: every run of two or more own singles, gathered onto either end */
        for (uint64_t s = b->singles[us]; s;) {
            int from = pop_lowest(&s);
            for (int d = 0; d < 8; d++) {
                int cell = from;
                for (int n = 0; n < grid_room[d][from]; n++) {
                    cell += grid_step(d);
                    if (!(b->singles[us] & BIT(cell))) break;
                    add_move(list, &count, BUILD, from, cell, 0);
                }
            }
        }
    }
    /* collapses: the base stays, one pawn on each of the next h-1 cells */
    for (uint64_t s = b->occupied[us] & ~b->singles[us]; s;) {
        int from = pop_lowest(&s);
        int h = own_height(b->height[from], us);
        for (int d = 0; d < 8; d++) {
            if (grid_room[d][from] < h - 1) continue;
            int cell = from, step = grid_step(d);
            uint64_t taken = 0;
            bool legal = true;
            for (int n = 1; n < h && legal; n++) {
                cell += step;
                int there = own_height(b->height[cell], us);
                if (there > 1)
                    legal = false; /* never onto an own stack */
                else if (there < 0) {
                    if (r->rapid)
                        taken |= BIT(cell);
                    else
                        legal = false; /* never onto an enemy pawn in the plain game */
                }
            }
            if (!legal) continue;
            if (!r->rapid && grid_room[d][from] >= h && (b->occupied[them] & BIT(cell + step))) taken = BIT(cell + step);
            if (!noisy_only || taken) add_move(list, &count, COLLAPSE, from, cell, taken);
        }
    }
    return count;
}

static int ecroulement_generate(const Variant *v, const Position *pos, Move *list)
{
    return generate_moves(RULES(v), pos, list, false);
}

/* Quiescence may stand pat unless the side to move has no pawn left (it has lost). */
static bool ecroulement_may_stand_pat(const Variant *v, const Position *pos)
{
    (void)v;
    return CBOARD(pos)->occupied[pos->side] != 0;
}

static int ecroulement_generate_noisy(const Variant *v, const Position *pos, Move *list, bool *forced)
{
    int n = generate_moves(RULES(v), pos, list, true);
    /* a side without pawns has lost: make the quiescence see the end */
    *forced = !ecroulement_may_stand_pat(v, pos);
    return n;
}

/* ---------------------------------------------------------------- make */

static int direction_between(int from, int to, int *steps)
{
    int df = (to & 7) - (from & 7), dr = (to >> 3) - (from >> 3);
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    *steps = abs(df) > abs(dr) ? abs(df) : abs(dr);
    for (int d = 0; d < 8; d++)
        if (grid_file_steps[d] == sf && grid_row_steps[d] == sr) return d;
    return 0;
}

static void ecroulement_make_move(const Variant *v, const Position *pos, const Move *m, Position *out)
{
    memcpy(out, pos, offsetof(Position, board) + sizeof(CollapseBoard));
    CollapseBoard *b = BOARD(out);
    int us = pos->side, sign = us == SIDE_WHITE ? 1 : -1;
    uint64_t key = out->key;
    int steps, d = direction_between(m->from, m->to, &steps), step = grid_step(d);
    if (m->kind == BUILD) {
        for (int n = 0; n < steps; n++) set_height(b, &key, m->from + n * step, 0);
        set_height(b, &key, m->to, sign * (steps + 1));
    } else {
        int h = own_height(b->height[m->from], us);
        set_height(b, &key, m->from, sign);
        for (int n = 1; n < h; n++) {
            int cell = m->from + n * step;
            int there = own_height(b->height[cell], us);
            set_height(b, &key, cell, sign * (there == 1 ? 2 : 1)); /* an own single becomes a muret */
        }
        if (m->bits && !RULES(v)->rapid) {
            int cell = m->from + h * step;
            int there = b->height[cell];
            set_height(b, &key, cell, there > 0 ? there - 1 : there + 1); /* the top pawn is taken */
        }
    }
    out->key = key ^ side_key;
    out->side = (uint8_t)(us ^ 1);
    out->reversible_plies = m->bits ? 0 : (uint16_t)(pos->reversible_plies + 1);
}

/* ---------------------------------------------------------------- end, draws */

static const char *ecroulement_game_end(const Variant *v, const Position *pos, int *winner)
{
    (void)v;
    *winner = pos->side ^ 1;
    return CBOARD(pos)->occupied[pos->side] ? "no legal move" : "no pawns left";
}

/* ---------------------------------------------------------------- evaluation */

void collapse_terms(const CollapseRules *r, const CollapseBoard *b, int side, CollapseTerms *t)
{
    memset(t, 0, sizeof *t);
    int them = side ^ 1;
    for (uint64_t s = b->occupied[side]; s;) {
        int c = pop_lowest(&s);
        int h = own_height(b->height[c], side);
        t->pawns += h;
        /* steps from the home corner (a1 for White, h8 for Black) */
        int steps = (c >> 3) + (c & 7);
        t->advance += h * (side == SIDE_WHITE ? steps : 14 - steps);
        if (h > t->tallest) t->tallest = h;
    }
    /* builds: pairs of own singles side by side (east, north-east, north, north-west of the
     * lower one), each a build either way */
    uint64_t singles = b->singles[side];
    t->mobility += 2 * (popcount64(singles & GRID_NOT_FILE_H & singles >> 1) +
                        popcount64(singles & GRID_NOT_FILE_H & singles >> 9) + popcount64(singles & singles >> 8) +
                        popcount64(singles & GRID_NOT_FILE_A & singles >> 7));
    for (uint64_t s = b->occupied[side] & ~b->singles[side]; s;) {
        int c = pop_lowest(&s);
        int h = own_height(b->height[c], side);
        for (int d = 0; d < 8; d++) {
            if (grid_room[d][c] < h - 1) continue;
            int cell = c;
            bool legal = true;
            int reached = 0;
            for (int n = 1; n < h && legal; n++) {
                cell += grid_step(d);
                int there = own_height(b->height[cell], side);
                if (there > 1 || (there < 0 && !r->rapid)) legal = false;
                if (there < 0) reached += -there;
            }
            if (!legal) continue;
            t->mobility++;
            if (!r->rapid && grid_room[d][c] >= h && (b->occupied[them] & BIT(cell + grid_step(d)))) reached++;
            t->threatened += reached;
        }
    }
}

static int ecroulement_evaluate(const Variant *v, const Position *pos)
{
    const CollapseRules *r = RULES(v);
    const CollapseBoard *b = CBOARD(pos);
    CollapseTerms mine, theirs;
    collapse_terms(r, b, pos->side, &mine);
    collapse_terms(r, b, pos->side ^ 1, &theirs);
    int score = 100 * (mine.pawns - theirs.pawns) + 6 * (mine.mobility - theirs.mobility);
    /* the side to move cashes its threats first; the opponent's are only dangers */
    score += 25 * mine.threatened - 15 * theirs.threatened;
    /* a side almost out of moves is close to losing */
    if (theirs.mobility <= 2) score += 150 * (3 - theirs.mobility);
    if (mine.mobility <= 2) score -= 150 * (3 - mine.mobility);
    return score;
}

/* ---------------------------------------------------------------- text */

static void ecroulement_format_move(const Variant *v, const Position *pos, const Move *m, char *out, size_t len)
{
    (void)v, (void)pos;
    grid_format_from_to(m, m->bits != 0, out, len);
}

static int ecroulement_parse_move(const Variant *v, const Position *pos, const char *text, const Move *legal,
                                  int count, char *err, size_t errlen)
{
    (void)v, (void)pos;
    return grid_parse_from_to(text, legal, count, err, errlen);
}

static bool ecroulement_board_valid(const Variant *v, const Position *pos)
{
    (void)v;
    const CollapseBoard *b = CBOARD(pos);
    CollapseBoard rebuilt;
    memset(&rebuilt, 0, sizeof rebuilt);
    uint64_t key = 0;
    int pawns[2] = {0, 0};
    for (int c = 0; c < 64; c++) {
        int h = b->height[c];
        if (h < -PAWNS_EACH || h > PAWNS_EACH) return false;
        if (!h) continue;
        set_height(&rebuilt, &key, c, h);
        pawns[side_of(h)] += h > 0 ? h : -h;
    }
    for (int s = 0; s < 2; s++)
        if (pawns[s] > PAWNS_EACH || b->singles[s] != rebuilt.singles[s] || b->occupied[s] != rebuilt.occupied[s])
            return false;
    return true;
}

static bool fen_fail(char *err, size_t errlen, const char *what, const char *where)
{
    snprintf(err, errlen, "bad FEN: %s at '%.20s'", what, where);
    return false;
}

static bool ecroulement_parse_fen(const Variant *v, const char *text, Position *out, char *err, size_t errlen)
{
    (void)v;
    Position pos;
    memset(&pos, 0, sizeof pos);
    CollapseBoard *b = BOARD(&pos);
    uint64_t ignored = 0;
    int pawns[2] = {0, 0};
    const char *p = text;
    while (*p == ' ') p++;
    for (int row = 7; row >= 0; row--) {
        int file = 0;
        while (*p && *p != '/' && *p != ' ') {
            if (*p >= '1' && *p <= '8') {
                file += *p++ - '0';
                if (file > 8) return fen_fail(err, errlen, "row too long", p - 1);
                continue;
            }
            if (*p != 'W' && *p != 'B') return fen_fail(err, errlen, "unknown piece (W, B, W(n), B(n))", p);
            if (file > 7) return fen_fail(err, errlen, "row too long", p);
            int side = *p == 'W' ? SIDE_WHITE : SIDE_BLACK, h = 1;
            const char *start = p++;
            if (*p == '(') {
                p++;
                if (!isdigit((unsigned char)*p)) return fen_fail(err, errlen, "bad stack height", start);
                h = 0;
                while (isdigit((unsigned char)*p) && h < 100) h = h * 10 + (*p++ - '0');
                if (*p != ')') return fen_fail(err, errlen, "bad stack height", start);
                p++;
                if (h < 1 || h > PAWNS_EACH) return fen_fail(err, errlen, "a stack holds 1 to 15 pawns", start);
            }
            set_height(b, &ignored, file + 8 * row, side == SIDE_WHITE ? h : -h);
            pawns[side] += h;
            file++;
        }
        if (file != 8) return fen_fail(err, errlen, "row too short", p);
        if (row > 0) {
            if (*p != '/') return fen_fail(err, errlen, "expected '/'", p);
            p++;
        }
    }
    if (pawns[0] > PAWNS_EACH || pawns[1] > PAWNS_EACH)
        return fen_fail(err, errlen, "more than 15 pawns for a side", text);
    while (*p == ' ') p++;
    if ((*p != 'w' && *p != 'b') || (p[1] && p[1] != ' ')) return fen_fail(err, errlen, "side must be w or b", p);
    pos.side = *p == 'w' ? SIDE_WHITE : SIDE_BLACK;
    p++;
    while (*p == ' ') p++;
    if (*p) return fen_fail(err, errlen, "unexpected text", p);
    pos.key = compute_key(&pos);
    *out = pos;
    return true;
}

static bool collapse_cell_text(const void *board, int cell, char *text)
{
    int h = ((const CollapseBoard *)board)->height[cell];
    if (!h) return false;
    if (abs(h) == 1)
        snprintf(text, 16, "%c", h > 0 ? 'W' : 'B');
    else
        snprintf(text, 16, "%c(%d)", h > 0 ? 'W' : 'B', abs(h));
    return true;
}

static void ecroulement_format_fen(const Variant *v, const Position *pos, char *out, size_t len)
{
    (void)v;
    size_t used = grid_format_fen_rows(CBOARD(pos), collapse_cell_text, out, len);
    if (used < len) snprintf(out + used, len - used, " %c", pos->side == SIDE_WHITE ? 'w' : 'b');
}

static void ecroulement_print_board(const Variant *v, const Position *pos, char *out, size_t len)
{
    (void)v;
    size_t used = grid_print_rows(CBOARD(pos), collapse_cell_text, 5, out, len);
    if (used < len) snprintf(out + used, len - used, "%s to move\n", pos->side == SIDE_WHITE ? "White" : "Black");
}

/* ---------------------------------------------------------------- variants */

/* positions reached by seeded random play from the start (10 and 24 plies) */
static const char *const plain_bench[] = {
    "5B(3)B1/4B(2)BBB(2)/6BB/6BB/1W5B/W(2)7/WW(2)W(3)W4/WW1W(2)W3 w",
    "4BBB1/4BBB(3)B(2)/4BB1B(2)/8/1W(2)W4B/W(2)1W5/W(2)W1W4/W2W(2)W(2)3 w",
    NULL,
};
static const char *const rapid_bench[] = {
    "3B3B(4)/4BB(2)B1/5B(2)B1/W(5)3B1B1/3B4/1WW(2)5/1WW(2)W(2)4/2WW4 w",
    "4B(2)B(2)B(2)1/4B1B(2)1/5B(2)B1/W3B(2)1B1/W7/WWWW4/WWW(2)W4/W1WWW3 w",
    NULL,
};

#define COLLAPSE_VARIANT(NAME, RULES_TABLE, BENCH, LMR_LOG)                                                               \
    {                                                                                                     \
        .name = NAME, .cols = 8, .rows = 8, .board_bytes = sizeof(CollapseBoard),                          \
        .features = &ecroulement_features, .board_valid = ecroulement_board_valid,                        \
        .start_fen = "3BBBBB/4BBBB/5BBB/W5BB/WW5B/WWW5/WWWW4/WWWWW3 w",                                   \
        .rules = &RULES_TABLE, .parse_fen = ecroulement_parse_fen, .format_fen = ecroulement_format_fen,    \
        .generate = ecroulement_generate, .generate_noisy = ecroulement_generate_noisy, .may_stand_pat = ecroulement_may_stand_pat,                   \
        .make_move = ecroulement_make_move, .evaluate = ecroulement_evaluate,                              \
        .game_end = ecroulement_game_end,                        \
        .format_move = ecroulement_format_move, .parse_move = ecroulement_parse_move,                      \
        .print_board = ecroulement_print_board, .bench_fens = BENCH, .bench_depth = 6,         \
        .aspiration_delta = 30, .verify_margin = 20, .lmr_log_divisor_tenths = LMR_LOG,                   \
    }

/* both variants verify at margin 20 a ply (COLLAPSE_VARIANT): ecroulement reaches depth 7 from the
 * shipped openings in 63 k nodes instead of 418 k (geometric mean), and each variant won its SPRT */
/* ecroulement-rapide reduces late quiet moves by the logarithmic rule, as tawol (its SPRT: the
 * commit that set it); ecroulement keeps the step rule until measured */
const Variant variant_ecroulement = COLLAPSE_VARIANT("ecroulement", rules_plain, plain_bench, 0);
const Variant variant_ecroulement_rapide = COLLAPSE_VARIANT("ecroulement-rapide", rules_rapid, rapid_bench, 16);
