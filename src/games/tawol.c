/*
 * tawol.c — Tawôl, towers and collared pawns on three levels (RULES.md section 4).
 *
 * Board: 64 cells, index = file + 8 · row (a1 = 0), one byte each:
 *   bits 0-1  the lower piece's type (0 none, TOWER, ONE_COLLAR, TWO_COLLAR)
 *   bit  2    the lower piece is black
 *   bits 3-4  the upper piece's type (0 none, or a pawn type); it is always of the other colour,
 *             since no piece ever stands on its own colour.
 * A pawn with an upper enemy pawn is blocked; a tower with an upper enemy pawn is taken.
 *
 * The seed lost the piece list, setup and movement tables; RULES.md fills them. Those
 * fillings live in one place each, marked FILLED-IN, so later options can vary them:
 * the setup (TAWOL_START_FEN), the reach of each pawn (pawn_reach) and the tower's
 * movement (tower_moves).
 */
#include "tawol.h"
#include "tawol_board.h"

#include "../bitops.h"
#include "grid.h"
#include "../zobrist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* FILLED-IN (RULES.md section 4): the setup. */
#define TAWOL_START_FEN "tttttttt/babababa/3ba3/8/8/3AB3/ABABABAB/TTTTTTTT w"
/* FILLED-IN: how many pieces of each type a side has (FEN validation). */
static const int pieces_each[4] = {0, 8, 5, 5};

/* FILLED-IN: a pawn with c collars has reach c. */
static inline int pawn_reach(int type) { return type == TWO_COLLAR ? 2 : 1; }

static uint64_t cell_keys[64][32];
static uint64_t side_key;
static void init_cell_class(void);

void tawol_init(void)
{
    ZobristStream zs = {0x7A401ull};
    for (int c = 0; c < 64; c++)
        for (int k = 0; k < 32; k++) cell_keys[c][k] = zobrist_next(&zs);
    side_key = zobrist_next(&zs);
    init_cell_class();
    tawol_terms_init();
    tawol_eval_init();
}


static uint64_t compute_key(const Position *pos)
{
    uint64_t key = pos->side == SIDE_BLACK ? side_key : 0;
    for (int c = 0; c < 64; c++)
        if (CBOARD(pos)->cells[c]) key ^= cell_keys[c][CBOARD(pos)->cells[c] & 31];
    return key;
}

/* ---------------------------------------------------------------- counting */

/* Adds (sign +1) or removes (sign -1) what one cell contributes to the counts. */
static void count_cell(uint8_t cell, TawolCounts *n, int sign)
{
    if (!cell) return;
    int low = lower_side(cell), up = upper_side(cell);
    if (lower_type(cell) == TOWER) {
        n->towers[low] += sign;
        if (upper_type(cell)) n->taken[low] += sign, n->on_towers[up] += sign, n->pawns[up] += sign;
    } else {
        n->pawns[low] += sign;
        if (upper_type(cell)) n->blocked_by[up] += sign, n->pawns[up] += sign;
    }
}

/* Pawns of `side` not standing on enemy towers. */
static inline int available(const TawolCounts *n, int side) { return n->pawns[side] - n->on_towers[side]; }

static bool all_towers_taken(const TawolCounts *n, int side) { return n->towers[side] > 0 && n->taken[side] == n->towers[side]; }

/* ---------------------------------------------------------------- generation */

typedef struct {
    Move *list;
    int count;
    int blocking;        /* enemy pawns the mover blocks now */
    int limit;           /* the most it may block: floor(available(enemy) / 2) */
    bool must_release;   /* over the limit at the start of the turn */
} Generator;

/* change: how the move changes the number of enemy pawns the mover blocks (-1, 0, +1);
 * releases: the move takes a blocking pawn off an enemy pawn and blocks none. */
static void add_move(Generator *g, int from, int to, bool attack, int change, bool releases)
{
    if (g->must_release ? !releases : g->blocking + change > g->limit) return;
    Move *m = &g->list[g->count++];
    memset(m, 0, sizeof *m);
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->flags = attack ? MOVE_NOISY : 0;
}

/* FILLED-IN: a tower steps one cell, in any of the 8 directions, to an empty cell; it never attacks. */
static void tower_moves(Generator *g, const TawolBoard *b, int from)
{
    for (int d = 0; d < 8; d++)
        if (grid_room[d][from] && !b->cells[from + grid_step(d)]) add_move(g, from, from + grid_step(d), false, 0, false);
}

/* A pawn of `side` with `reach` leaving `from`; where says what it stands on now. */
enum { ON_BOARD, ON_PAWN, ON_TOWER };
static void pawn_moves(Generator *g, const TawolBoard *b, int side, int from, int reach, int where)
{
    int leaving = where == ON_PAWN ? -1 : 0;
    for (int d = 0; d < 8; d++) {
        if (grid_room[d][from] < 1) continue;
        int cell = from;
        for (int k = 1; k <= reach && k <= grid_room[d][from]; k++) {
            cell += grid_step(d);
            uint8_t target = b->cells[cell];
            if (!target) {
                /* down to an empty cell: not from a tower ("de tour en tour" only) */
                if (where != ON_TOWER) add_move(g, from, cell, false, leaving, where == ON_PAWN);
                continue;
            }
            /* an attack goes exactly the full reach, over empty cells only */
            if (k == reach && attackable(target, side)) {
                bool tower = lower_type(target) == TOWER;
                if (where == ON_TOWER && !tower) break;
                add_move(g, from, cell, true, leaving + (tower ? 0 : 1), where == ON_PAWN && tower);
            }
            break;
        }
    }
}

static int generate_moves(const Position *pos, Move *list)
{
    const TawolBoard *b = CBOARD(pos);
    int us = pos->side, them = us ^ 1;
    const TawolCounts *n = &b->counts;
    if (all_towers_taken(n, us) || all_towers_taken(n, them)) return 0;
    Generator g = {list, 0, n->blocked_by[us], available(n, them) / 2, false};
    g.must_release = g.blocking > g.limit;
    for (uint64_t o = b->occupied; o;) {
        int c = pop_lowest(&o);
        uint8_t cell = b->cells[c];
        int type, where;
        if (upper_type(cell)) {
            if (upper_side(cell) != us) continue; /* our blocked pawn or taken tower: it cannot move */
            type = upper_type(cell), where = lower_type(cell) == TOWER ? ON_TOWER : ON_PAWN;
        } else if (lower_side(cell) != us)
            continue;
        else if (lower_type(cell) == TOWER) {
            tower_moves(&g, b, c); /* a tower never attacks */
            continue;
        } else
            type = lower_type(cell), where = ON_BOARD;
        pawn_moves(&g, b, us, c, pawn_reach(type), where);
    }
    return g.count;
}

uint8_t tawol_cell_class[32];

static void init_cell_class(void)
{
    for (int byte = 1; byte < 32; byte++) {
        uint8_t cell = (uint8_t)byte;
        if (!lower_type(cell)) continue;
        int side, k;
        if (upper_type(cell)) {
            side = upper_side(cell);
            k = (lower_type(cell) == TOWER ? ON_TOWER_1 : ON_PAWN_1) + (upper_type(cell) == TWO_COLLAR);
        } else {
            side = lower_side(cell);
            k = lower_type(cell) == TOWER ? OPEN_TOWER : LONE_1 + (lower_type(cell) == TWO_COLLAR);
        }
        tawol_cell_class[byte] = (uint8_t)(side * CLASSES_PER_SIDE + k);
    }
}

void tawol_class_sets(const TawolBoard *b, uint64_t sets[TAWOL_CELL_CLASSES])
{
    memset(sets, 0, TAWOL_CELL_CLASSES * sizeof *sets);
    for (uint64_t o = b->occupied; o;) {
        int c = pop_lowest(&o);
        sets[tawol_cell_class[b->cells[c] & 31]] |= BIT(c);
    }
}

/* The attacks alone (quiescence's moves): the attacks of generate_moves's list, in the same
 * order (tests/noisy_check.c checks it), found a direction at a time over the board's sets
 * instead of a piece at a time, as most quiescence nodes have few attacks or none. The same
 * rules as pawn_moves and add_move, with the reach of each pawn from pawn_reach. */
static int generate_attacks(const TawolBoard *b, int us, Move *list)
{
    const TawolCounts *n = &b->counts;
    int blocking = n->blocked_by[us], limit = available(n, us ^ 1) / 2;
    bool must_release = blocking > limit;
    uint64_t sets[TAWOL_CELL_CLASSES];
    tawol_class_sets(b, sets);
    const uint64_t *own = &sets[us * CLASSES_PER_SIDE], *enemy = &sets[(us ^ 1) * CLASSES_PER_SIDE];
    /* attackable: an untaken tower or a pawn with nothing on it and under it */
    uint64_t towers = enemy[OPEN_TOWER], everything = towers | enemy[LONE_1] | enemy[LONE_2];
    if (!everything) return 0;
    /* the targets each kind of pawn may attack under the blocking limit (see add_move): from the
     * board, a pawn blocks one more; from a pawn onto a pawn, as many; onto a tower, one fewer
     * (the only moves left once over the limit); from a tower, towers only */
    uint64_t board_targets = must_release ? 0 : blocking + 1 <= limit ? everything : towers;
    uint64_t on_pawn_targets = must_release ? towers : everything;
    uint64_t on_tower_targets = must_release ? 0 : towers;
    /* by pawn type (one collar, two): the pawns whose targets are all of them, or towers only */
    uint64_t to_all[2] = {0}, to_towers[2] = {0};
    const uint64_t kinds[3][2] = {{own[LONE_1], own[LONE_2]}, {own[ON_PAWN_1], own[ON_PAWN_2]},
                                  {own[ON_TOWER_1], own[ON_TOWER_2]}};
    const uint64_t kind_targets[3] = {board_targets, on_pawn_targets, on_tower_targets};
    for (int k = 0; k < 3; k++)
        for (int two = 0; two < 2; two++) {
            if (kind_targets[k] == everything) to_all[two] |= kinds[k][two];
            else if (kind_targets[k] == towers) to_towers[two] |= kinds[k][two];
        }
    uint64_t empty = ~b->occupied, two_collar = own[LONE_2] | own[ON_PAWN_2] | own[ON_TOWER_2];
    const int reach[2] = {pawn_reach(ONE_COLLAR), pawn_reach(TWO_COLLAR)};
    uint64_t from[8], attackers = 0;
#pragma GCC unroll 8 /* each direction's shift then is a constant one */
    for (int d = 0; d < 8; d++) {
        int back = (d + 4) & 7;
        from[d] = 0;
        for (int two = 0; two < 2; two++) {
            /* the cells `reach` steps back from a target, over empty cells */
            uint64_t all_from = grid_shift(everything, back), towers_from = grid_shift(towers, back);
            for (int k = 1; k < reach[two]; k++) {
                all_from = grid_shift(all_from & empty, back);
                towers_from = grid_shift(towers_from & empty, back);
            }
            from[d] |= (to_all[two] & all_from) | (to_towers[two] & towers_from);
        }
        attackers |= from[d];
    }
    int count = 0;
    while (attackers) {
        int c = pop_lowest(&attackers);
        int steps = reach[(two_collar & BIT(c)) != 0];
        for (int d = 0; d < 8; d++)
            if (from[d] & BIT(c)) {
                Move *m = &list[count++];
                memset(m, 0, sizeof *m);
                m->from = (uint8_t)c;
                m->to = (uint8_t)(c + steps * grid_step(d));
                m->flags = MOVE_NOISY;
            }
    }
    return count;
}

static int tawol_generate(const Variant *v, const Position *pos, Move *list)
{
    (void)v;
    return generate_moves(pos, list);
}

/* Quiescence may stand pat but at the game's end: an attack is never compulsory. */
static bool tawol_may_stand_pat(const Variant *v, const Position *pos)
{
    (void)v;
    const TawolCounts *n = &CBOARD(pos)->counts;
    return !all_towers_taken(n, pos->side) && !all_towers_taken(n, pos->side ^ 1);
}

static int tawol_generate_noisy(const Variant *v, const Position *pos, Move *list, bool *forced)
{
    /* the game is over: quiescence must see the end, not stand pat */
    *forced = !tawol_may_stand_pat(v, pos);
    return *forced ? 0 : generate_attacks(CBOARD(pos), pos->side, list);
}

/* ---------------------------------------------------------------- make */

static void set_cell(TawolBoard *b, uint64_t *key, int cell, uint8_t value)
{
    if (b->cells[cell]) *key ^= cell_keys[cell][b->cells[cell] & 31];
    count_cell(b->cells[cell], &b->counts, -1);
    b->cells[cell] = value;
    b->occupied = value ? b->occupied | BIT(cell) : b->occupied & ~BIT(cell);
    count_cell(value, &b->counts, +1);
    if (value) *key ^= cell_keys[cell][value & 31];
}

static bool tawol_board_valid(const Variant *v, const Position *pos)
{
    (void)v;
    const TawolBoard *b = CBOARD(pos);
    TawolBoard rebuilt;
    memset(&rebuilt, 0, sizeof rebuilt);
    uint64_t key = 0;
    int kinds[2][4] = {{0}};
    for (int c = 0; c < 64; c++) {
        uint8_t cell = b->cells[c];
        if (!cell) continue;
        /* five bits: a lower piece, and maybe a pawn of the other side on it */
        if ((cell & ~31) || lower_type(cell) == NONE || upper_type(cell) == TOWER) return false;
        set_cell(&rebuilt, &key, c, cell);
        kinds[lower_side(cell)][lower_type(cell)]++;
        if (upper_type(cell)) kinds[upper_side(cell)][upper_type(cell)]++;
    }
    for (int s = 0; s < 2; s++)
        for (int t = 1; t < 4; t++)
            if (kinds[s][t] > pieces_each[t]) return false;
    return b->occupied == rebuilt.occupied && memcmp(&b->counts, &rebuilt.counts, sizeof b->counts) == 0;
}

/* What the move leaves on its two cells: the origin keeps the piece below the moving pawn (free
 * again), if any; the target holds the pawn, on whatever it attacks. */
static inline void moved_cells(const TawolBoard *b, int side, const Move *m, uint8_t *from_after, uint8_t *to_after)
{
    uint8_t from = b->cells[m->from], target = b->cells[m->to];
    int type = upper_type(from) ? upper_type(from) : lower_type(from);
    *from_after = upper_type(from) ? (uint8_t)(from & 7) : 0;
    *to_after = target ? with_upper(target, type) : single_piece(side, type);
}

/* The child's key, the move not made (the search prefetches table entries with it). */
static uint64_t tawol_key_after(const Variant *v, const Position *pos, const Move *m)
{
    (void)v;
    const TawolBoard *b = CBOARD(pos);
    uint8_t from_after, to_after;
    moved_cells(b, pos->side, m, &from_after, &to_after);
    uint64_t key = pos->key ^ side_key ^ cell_keys[m->from][b->cells[m->from] & 31] ^
                   cell_keys[m->to][to_after & 31];
    if (from_after) key ^= cell_keys[m->from][from_after & 31];
    if (b->cells[m->to]) key ^= cell_keys[m->to][b->cells[m->to] & 31];
    return key;
}

static void tawol_make_move(const Variant *v, const Position *pos, const Move *m, Position *out)
{
    (void)v;
    memcpy(out, pos, offsetof(Position, board) + sizeof(TawolBoard));
    TawolBoard *b = BOARD(out);
    uint64_t key = out->key;
    uint8_t from = b->cells[m->from], target = b->cells[m->to], from_after, to_after;
    moved_cells(b, pos->side, m, &from_after, &to_after);
    bool from_tower = upper_type(from) && lower_type(from) == TOWER;
    set_cell(b, &key, m->from, from_after);
    bool onto_tower = target && lower_type(target) == TOWER;
    set_cell(b, &key, m->to, to_after);
    out->key = key ^ side_key;
    out->side = (uint8_t)(pos->side ^ 1);
    /* a pawn that climbs onto a tower from elsewhere never comes down: that cannot be undone */
    out->reversible_plies = (onto_tower && !from_tower) ? 0 : (uint16_t)(pos->reversible_plies + 1);
}

/* ---------------------------------------------------------------- end */

static const char *tawol_game_end(const Variant *v, const Position *pos, int *winner)
{
    (void)v;
    const TawolCounts *n = &CBOARD(pos)->counts;
    if (all_towers_taken(n, pos->side)) {
        *winner = pos->side ^ 1;
        return "all towers taken";
    }
    if (all_towers_taken(n, pos->side ^ 1)) {
        *winner = pos->side;
        return "all towers taken";
    }
    *winner = pos->side ^ 1;
    return "no legal move";
}

/* ---------------------------------------------------------------- text */

static void tawol_format_move(const Variant *v, const Position *pos, const Move *m, char *out, size_t len)
{
    (void)v, (void)pos;
    grid_format_from_to(m, (m->flags & MOVE_NOISY) != 0, out, len);
}

static int tawol_parse_move(const Variant *v, const Position *pos, const char *text, const Move *legal, int count,
                            char *err, size_t errlen)
{
    (void)v, (void)pos;
    return grid_parse_from_to(text, legal, count, err, errlen);
}

static const char piece_letters[2][4] = {{0, 'T', 'A', 'B'}, {0, 't', 'a', 'b'}};

static bool letter_piece(char c, int *side, int *type)
{
    for (int s = 0; s < 2; s++)
        for (int t = 1; t < 4; t++)
            if (piece_letters[s][t] == c) {
                *side = s, *type = t;
                return true;
            }
    return false;
}

static bool fen_fail(char *err, size_t errlen, const char *what, const char *where)
{
    snprintf(err, errlen, "bad FEN: %s at '%.20s'", what, where);
    return false;
}

static bool tawol_parse_fen(const Variant *v, const char *text, Position *out, char *err, size_t errlen)
{
    (void)v;
    Position pos;
    memset(&pos, 0, sizeof pos);
    TawolBoard *b = BOARD(&pos);
    int counts[2][4] = {{0}};
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
            if (file > 7) return fen_fail(err, errlen, "row too long", p);
            int side, type;
            uint8_t cell;
            if (*p == '[') {
                const char *start = p;
                int up_side, up_type;
                if (!letter_piece(p[1], &side, &type) || !letter_piece(p[2], &up_side, &up_type) || p[3] != ']')
                    return fen_fail(err, errlen, "a two-level cell is [lower upper], e.g. [tA]", start);
                if (up_type == TOWER) return fen_fail(err, errlen, "a tower never stands on a piece", start);
                if (up_side == side) return fen_fail(err, errlen, "a piece never stands on its own colour", start);
                cell = with_upper(single_piece(side, type), up_type);
                counts[up_side][up_type]++;
                p += 4;
            } else {
                if (!letter_piece(*p, &side, &type)) return fen_fail(err, errlen, "unknown piece", p);
                cell = single_piece(side, type);
                p++;
            }
            counts[side][type]++;
            b->cells[file + 8 * row] = cell;
            b->occupied |= BIT(file + 8 * row);
            count_cell(cell, &b->counts, +1);
            file++;
        }
        if (file != 8) return fen_fail(err, errlen, "row too short", p);
        if (row > 0) {
            if (*p != '/') return fen_fail(err, errlen, "expected '/'", p);
            p++;
        }
    }
    for (int s = 0; s < 2; s++)
        for (int t = 1; t < 4; t++)
            if (counts[s][t] > pieces_each[t]) return fen_fail(err, errlen, "more pieces of a kind than a side has", text);
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

static bool tawol_cell_text(const void *board, int index, char *out)
{
    uint8_t cell = ((const TawolBoard *)board)->cells[index];
    if (!cell) return false;
    if (!upper_type(cell)) {
        out[0] = piece_letters[lower_side(cell)][lower_type(cell)];
        out[1] = 0;
    } else {
        out[0] = '[';
        out[1] = piece_letters[lower_side(cell)][lower_type(cell)];
        out[2] = piece_letters[upper_side(cell)][upper_type(cell)];
        out[3] = ']';
        out[4] = 0;
    }
    return true;
}

static void tawol_format_fen(const Variant *v, const Position *pos, char *out, size_t len)
{
    (void)v;
    size_t used = grid_format_fen_rows(CBOARD(pos), tawol_cell_text, out, len);
    if (used < len) snprintf(out + used, len - used, " %c", pos->side == SIDE_WHITE ? 'w' : 'b');
}

static void tawol_print_board(const Variant *v, const Position *pos, char *out, size_t len)
{
    (void)v;
    size_t used = grid_print_rows(CBOARD(pos), tawol_cell_text, 4, out, len);
    if (used < len) snprintf(out + used, len - used, "%s to move\n", pos->side == SIDE_WHITE ? "White" : "Black");
}

/* positions reached by seeded random play from the start (12 and 30 plies) */
static const char *const tawol_bench[] = {
    "tttttttt/ba2baba/2a5/2b5/3[Ba]1B2/3A[bA]2A/ABABTB2/TTT1TTTT w",
    "tttttttt/ba1b2ba/3[Ba]a3/8/3BAB2/B1[bA]4A/A1AT2B1/TT[Ta]1TT[Tb]T w",
    NULL,
};

const Variant variant_tawol = {
    .name = "tawol", .cols = 8, .rows = 8, .start_fen = TAWOL_START_FEN, .board_bytes = sizeof(TawolBoard),
    .features = &tawol_features, .board_valid = tawol_board_valid,
    .parse_fen = tawol_parse_fen, .format_fen = tawol_format_fen,
    .generate = tawol_generate, .generate_noisy = tawol_generate_noisy, .may_stand_pat = tawol_may_stand_pat,
    .make_move = tawol_make_move, .key_after = tawol_key_after, .evaluate = tawol_hand_evaluate,
    .game_end = tawol_game_end,
    .format_move = tawol_format_move, .parse_move = tawol_parse_move,
    .print_board = tawol_print_board, .bench_fens = tawol_bench, .bench_depth = 7, .aspiration_delta = 30,
    /* shallow verification: depth 7 from the shipped openings in half the nodes, and won its SPRT */
    .verify_margin = 20,
    /* dozens of quiet moves a node: a logarithmic reduction, ln(depth)·ln(moves searched)/1.6 */
    .lmr_log_divisor_tenths = 16,
};
