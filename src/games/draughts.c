/*
 * draughts.c — the draughts family of RULES.md section 3: checkers, russian, brazilian
 * and international, one module parameterised by a DraughtsRules table per variant.
 *
 * Board layout ("ghost bits"): the dark squares are numbered 0..N-1 (PDN number − 1)
 * row by row from White's far side, and square s lives at bit s + s / (2 · per_row).
 * One unused bit after every pair of rows makes every diagonal step a plain shift by
 * per_row or per_row + 1 (4/5 on 8×8, 5/6 on 10×10): a step off a side edge lands on a
 * ghost bit or outside the board and is removed by board_mask, so no edge masks are needed.
 *
 * Directions: 0 = −short, 1 = −long (towards square 1, White's forward), 2 = +short,
 * 3 = +long (Black's forward); the opposite of d is d ^ 2.
 *
 * A move is (from, to, captured set) as RULES.md defines move identity: Move.bits holds
 * the captured bits, routes are rebuilt only when text needs them.
 */
#include "../bitops.h"
#include "../game.h"
#include "../zobrist.h"
#include "draughts.h"
#include "draughts_board.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static DraughtsRules rules_checkers = {
    .size = 8, .men_each = 12, .first_side = SIDE_BLACK, .men_capture_backwards = false,
    .flying_kings = false, .maximum_capture = false, .algebraic_input = false,
    .crown = CROWN_STOPS, .quiet_limit_plies = 80, .three_kings_limit_plies = 0, .king_value = 160,
};
static DraughtsRules rules_russian = {
    .size = 8, .men_each = 12, .first_side = SIDE_WHITE, .men_capture_backwards = true,
    .flying_kings = true, .maximum_capture = false, .algebraic_input = true,
    .crown = CROWN_GOES_ON_AS_KING, .quiet_limit_plies = 30, .three_kings_limit_plies = 30,
    .king_value = 280,
};
static DraughtsRules rules_brazilian = {
    .size = 8, .men_each = 12, .first_side = SIDE_WHITE, .men_capture_backwards = true,
    .flying_kings = true, .maximum_capture = true, .algebraic_input = true,
    .crown = CROWN_AT_END, .quiet_limit_plies = 30, .three_kings_limit_plies = 30, .king_value = 280,
};
static DraughtsRules rules_international = {
    .size = 10, .men_each = 20, .first_side = SIDE_WHITE, .men_capture_backwards = true,
    .flying_kings = true, .maximum_capture = true, .algebraic_input = false,
    .crown = CROWN_AT_END, .quiet_limit_plies = 50, .three_kings_limit_plies = 32, .king_value = 300,
};

static uint64_t piece_keys[2][2][64]; /* [side][is king][bit] */
static uint64_t side_key;


/* ---------------------------------------------------------------- geometry */

static void derive_rules(DraughtsRules *r)
{
    r->per_row = r->size / 2;
    r->squares = r->per_row * r->size;
    r->shift_short = r->per_row;
    r->shift_long = r->per_row + 1;
    r->delta[0] = -r->shift_short;
    r->delta[1] = -r->shift_long;
    r->delta[2] = r->shift_short;
    r->delta[3] = r->shift_long;
    memset(r->square_of_bit, -1, sizeof r->square_of_bit);
    memset(r->bit_of_square, -1, sizeof r->bit_of_square);
    memset(r->row_from_bottom, -1, sizeof r->row_from_bottom);
    memset(r->file_of_bit, -1, sizeof r->file_of_bit);
    r->board_mask = 0;
    r->crown_row[0] = r->crown_row[1] = r->back_row[0] = r->back_row[1] = 0;
    for (int s = 0; s < r->squares; s++) {
        int b = s + s / (2 * r->per_row);
        int row_from_top = s / r->per_row;
        r->bit_of_square[s] = (int8_t)b;
        r->square_of_bit[b] = (int8_t)s;
        r->row_from_bottom[b] = (int8_t)(r->size - 1 - row_from_top);
        r->file_of_bit[b] = (int8_t)(2 * (s % r->per_row) + (row_from_top % 2 == 0 ? 1 : 0));
        r->board_mask |= BIT(b);
        if (row_from_top == 0) r->crown_row[SIDE_WHITE] |= BIT(b), r->back_row[SIDE_BLACK] |= BIT(b);
        if (row_from_top == r->size - 1)
            r->crown_row[SIDE_BLACK] |= BIT(b), r->back_row[SIDE_WHITE] |= BIT(b);
    }
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 64; b++) {
            int t = b + r->delta[d];
            r->neighbor[d][b] =
                (r->square_of_bit[b] >= 0 && t >= 0 && t < 64 && (r->board_mask & BIT(t))) ? (int8_t)t : -1;
        }
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 64; b++) {
            int over = r->neighbor[d][b], land = over >= 0 ? r->neighbor[d][over] : -1;
            r->jump_over[d][b] = land >= 0 ? BIT(over) : 0;
            r->jump_land[d][b] = land >= 0 ? BIT(land) : 0;
        }
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 64; b++) {
            r->ray[d][b] = 0;
            for (int t = r->neighbor[d][b]; t >= 0; t = r->neighbor[d][t]) r->ray[d][b] |= BIT(t);
        }
    /* evaluation tables: advancement, centre, back-row guard */
    for (int b = 0; b < 64; b++) {
        if (r->square_of_bit[b] < 0) continue;
        int file = r->file_of_bit[b];
        int centre = 2 * file - (r->size - 1);
        if (centre < 0) centre = -centre;
        int centre_bonus = (r->size - 1 - centre) * 2;  /* 0 on the edges */
        for (int side = 0; side < 2; side++) {
            int adv = side == SIDE_WHITE ? r->row_from_bottom[b] : r->size - 1 - r->row_from_bottom[b];
            int v = adv * 4 + (adv >= r->size - 3 ? (adv - (r->size - 4)) * 6 : 0) + centre_bonus;
            if (adv == 0) v += 8; /* a man on the back row guards the crowning squares */
            r->man_table[side][b] = (int16_t)v;
        }
    }
    /* runaway cones: every square a man's forward diagonals could still reach */
    for (int side = 0; side < 2; side++)
        for (int b = 0; b < 64; b++) {
            r->runaway_cone[side][b] = 0;
            if (r->square_of_bit[b] < 0) continue;
            uint64_t frontier = BIT(b), cone = 0;
            int d0 = side == SIDE_WHITE ? 0 : 2;
            while (frontier) {
                uint64_t next = 0;
                for (uint64_t f = frontier; f;) {
                    int x = pop_lowest(&f);
                    for (int d = d0; d < d0 + 2; d++)
                        if (r->neighbor[d][x] >= 0) next |= BIT(r->neighbor[d][x]);
                }
                cone |= next;
                frontier = next;
            }
            r->runaway_cone[side][b] = cone;
        }
}

void draughts_init(void)
{
    derive_rules(&rules_checkers);
    derive_rules(&rules_russian);
    derive_rules(&rules_brazilian);
    derive_rules(&rules_international);
    draughts_eval_init(&rules_checkers);
    draughts_eval_init(&rules_international);
    ZobristStream zs = {0xD1A6A7F5ull};
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++)
            for (int b = 0; b < 64; b++) piece_keys[s][k][b] = zobrist_next(&zs);
    side_key = zobrist_next(&zs);
}

static uint64_t compute_key(const Position *pos)
{
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t key = pos->side == SIDE_BLACK ? side_key : 0;
    for (int s = 0; s < 2; s++)
        for (uint64_t x = b->pieces[s]; x;) {
            int i = pop_lowest(&x);
            key ^= piece_keys[s][(b->kings >> i) & 1][i];
        }
    return key;
}

/* ---------------------------------------------------------------- captures */

typedef struct {
    const DraughtsRules *r;
    int side;
    int from;
    uint64_t enemy;     /* enemy pieces; captured ones stay until the move ends */
    uint64_t empty;     /* empty squares, the mover's origin included */
    Move *list;
    int count;
    int best;           /* largest capture found so far (maximum-capture rule) */
    /* route mode: rebuild or check the landing squares of one move */
    const Move *target;
    const int *wanted_route; /* landing bits to match, or NULL to take any route */
    int wanted_length;
    int depth;
    int *route_out;
    int route_length;
    bool done;
    int path[64];       /* landing squares so far (last: start_capture_search leaves it uncleared) */
} CaptureSearch;

static void record_capture(CaptureSearch *cs, int to, uint64_t captured, bool promotes)
{
    if (cs->target) {
        if (to != cs->target->to || captured != cs->target->bits) return;
        if (cs->wanted_route) {
            if (cs->depth != cs->wanted_length) return;
            for (int i = 0; i < cs->depth; i++)
                if (cs->path[i] != cs->wanted_route[i]) return;
        }
        if (cs->route_out) memcpy(cs->route_out, cs->path, sizeof(int) * (size_t)cs->depth);
        cs->route_length = cs->depth;
        cs->done = true;
        return;
    }
    if (cs->r->maximum_capture) {
        int n = popcount64(captured);
        if (n < cs->best) return;
        if (n > cs->best) cs->best = n, cs->count = 0;
    }
    for (int i = 0; i < cs->count; i++)
        if (cs->list[i].to == to && cs->list[i].bits == captured && cs->list[i].from == cs->from) return;
    if (cs->count >= MAX_MOVES) return;
    Move *m = &cs->list[cs->count++];
    memset(m, 0, sizeof *m);
    m->from = (uint8_t)cs->from;
    m->to = (uint8_t)to;
    m->bits = captured;
    m->flags = MOVE_NOISY | (promotes ? MOVE_PROMOTES : 0);
}

/* Whether a king on sq can take one of `jumpable`: on some ray the first piece it meets is one
 * of them, with an empty square behind it. */
static inline bool king_has_capture(const DraughtsRules *r, int sq, uint64_t jumpable, uint64_t empty)
{
    uint64_t occupied = r->board_mask & ~empty;
    for (int d = 0; d < 4; d++) {
        int t = r->flying_kings ? nearest_on_ray(r, d, sq, occupied) : r->neighbor[d][sq];
        if (t < 0 || !(jumpable & BIT(t))) continue;
        int land = r->neighbor[d][t];
        if (land >= 0 && (empty & BIT(land))) return true;
    }
    return false;
}

/* Within a capture: whether the king can go on (pieces already captured cannot be jumped again). */
static bool king_can_capture(const CaptureSearch *cs, int sq, uint64_t captured)
{
    return king_has_capture(cs->r, sq, cs->enemy & ~captured, cs->empty);
}

static void king_captures(CaptureSearch *cs, int sq, uint64_t captured, bool promotes)
{
    const DraughtsRules *r = cs->r;
    uint64_t occupied = r->board_mask & ~cs->empty;
    for (int d = 0; d < 4 && !cs->done; d++) {
        int t = r->flying_kings ? nearest_on_ray(r, d, sq, occupied) : r->neighbor[d][sq];
        if (t < 0 || !(cs->enemy & BIT(t)) || (captured & BIT(t))) continue;
        uint64_t after = captured | BIT(t);
        int lands[16], n = 0;
        for (int l = r->neighbor[d][t]; l >= 0 && (cs->empty & BIT(l));
             l = r->flying_kings ? r->neighbor[d][l] : -1)
            lands[n++] = l;
        if (n == 0) continue;
        bool goes_on[16], any_goes_on = false;
        for (int i = 0; i < n; i++) {
            goes_on[i] = king_can_capture(cs, lands[i], after);
            any_goes_on |= goes_on[i];
        }
        for (int i = 0; i < n && !cs->done; i++) {
            if (any_goes_on && !goes_on[i]) continue; /* must land where the capture continues */
            cs->path[cs->depth++] = lands[i];
            if (goes_on[i])
                king_captures(cs, lands[i], after, promotes);
            else
                record_capture(cs, lands[i], after, promotes);
            cs->depth--;
        }
    }
}

static void man_captures(CaptureSearch *cs, int sq, uint64_t captured)
{
    const DraughtsRules *r = cs->r;
    bool any = false;
    int forward = cs->side == SIDE_WHITE ? 0 : 2;
    uint64_t jumpable = cs->enemy & ~captured;
    for (int d = 0; d < 4 && !cs->done; d++) {
        if (!r->men_capture_backwards && (d & 2) != forward) continue;
        uint64_t over = r->jump_over[d][sq], land_bit = r->jump_land[d][sq];
        if (!(jumpable & over) || !(cs->empty & land_bit)) continue;
        int land = lowest_bit(land_bit);
        any = true;
        uint64_t after = captured | over;
        cs->path[cs->depth++] = land;
        if (r->crown_row[cs->side] & land_bit) {
            if (r->crown == CROWN_STOPS)
                record_capture(cs, land, after, true);
            else if (r->crown == CROWN_GOES_ON_AS_KING) {
                if (king_can_capture(cs, land, after))
                    king_captures(cs, land, after, true);
                else
                    record_capture(cs, land, after, true);
            } else
                man_captures(cs, land, after);
        } else
            man_captures(cs, land, after);
        cs->depth--;
    }
    if (!any && captured) record_capture(cs, sq, captured, (r->crown_row[cs->side] & BIT(sq)) != 0);
}

/* Men of `side` that have a capture available (a quick bitboard test). */
static uint64_t men_that_can_capture(const DraughtsRules *r, uint64_t men, uint64_t enemy, uint64_t empty,
                                     int side)
{
    uint64_t result = 0;
    int forward = side == SIDE_WHITE ? 0 : 2;
    for (int d = 0; d < 4; d++) {
        if (!r->men_capture_backwards && (d & 2) != forward) continue;
        int back = d ^ 2;
        result |= men & shift_dir(r, enemy & shift_dir(r, empty, back), back);
    }
    return result;
}

static void start_capture_search(CaptureSearch *cs, const DraughtsRules *r, const Position *pos)
{
    const DraughtsBoard *b = CBOARD(pos);
    memset(cs, 0, offsetof(CaptureSearch, path));
    cs->r = r;
    cs->side = pos->side;
    cs->enemy = b->pieces[pos->side ^ 1];
    cs->route_length = -1;
}

static void captures_from(CaptureSearch *cs, const Position *pos, int sq)
{
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t occupied = b->pieces[0] | b->pieces[1];
    cs->from = sq;
    cs->empty = (cs->r->board_mask & ~occupied) | BIT(sq);
    cs->depth = 0;
    if (b->kings & BIT(sq))
        king_captures(cs, sq, 0, false);
    else
        man_captures(cs, sq, 0);
}

static int generate_captures(const DraughtsRules *r, const Position *pos, Move *list)
{
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side;
    uint64_t own = b->pieces[us];
    uint64_t empty = r->board_mask & ~(b->pieces[0] | b->pieces[1]);
    /* a king enters the capture walk only when it has a capture: most nodes have none */
    uint64_t kings = 0;
    for (uint64_t k = own & b->kings; k;) {
        int sq = pop_lowest(&k);
        if (king_has_capture(r, sq, b->pieces[us ^ 1], empty)) kings |= BIT(sq);
    }
    uint64_t candidates = men_that_can_capture(r, own & ~b->kings, b->pieces[us ^ 1], empty, us) | kings;
    if (!candidates) return 0;
    CaptureSearch cs;
    start_capture_search(&cs, r, pos);
    cs.list = list;
    while (candidates) captures_from(&cs, pos, pop_lowest(&candidates));
    return cs.count;
}

/* ---------------------------------------------------------------- quiet moves */

static void add_quiet(Move *list, int *count, int from, int to, bool promotes)
{
    Move *m = &list[(*count)++];
    memset(m, 0, sizeof *m);
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->flags = promotes ? MOVE_PROMOTES : 0;
}

static int generate_quiet(const DraughtsRules *r, const Position *pos, Move *list)
{
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side, count = 0;
    uint64_t empty = r->board_mask & ~(b->pieces[0] | b->pieces[1]);
    uint64_t men = b->pieces[us] & ~b->kings, kings = b->pieces[us] & b->kings;
    int forward = us == SIDE_WHITE ? 0 : 2;
    for (int d = forward; d < forward + 2; d++)
        for (uint64_t targets = shift_dir(r, men, d) & empty; targets;) {
            int to = pop_lowest(&targets);
            add_quiet(list, &count, to - r->delta[d], to, (r->crown_row[us] & BIT(to)) != 0);
        }
    while (kings) {
        int from = pop_lowest(&kings);
        for (int d = 0; d < 4; d++)
            for (int t = r->neighbor[d][from]; t >= 0 && (empty & BIT(t));
                 t = r->flying_kings ? r->neighbor[d][t] : -1)
                add_quiet(list, &count, from, t, false);
    }
    return count;
}

static int draughts_generate(const Variant *v, const Position *pos, Move *list)
{
    const DraughtsRules *r = RULES(v);
    int n = generate_captures(r, pos, list);
    return n ? n : generate_quiet(r, pos, list);
}

static int draughts_generate_noisy(const Variant *v, const Position *pos, Move *list, bool *forced)
{
    int n = generate_captures(RULES(v), pos, list);
    *forced = n > 0;
    return n;
}

static int draughts_count_moves(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    Move list[MAX_MOVES];
    int n = generate_captures(r, pos, list);
    if (n) return n;
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side;
    uint64_t empty = r->board_mask & ~(b->pieces[0] | b->pieces[1]);
    uint64_t men = b->pieces[us] & ~b->kings, kings = b->pieces[us] & b->kings;
    int forward = us == SIDE_WHITE ? 0 : 2;
    n = popcount64(shift_dir(r, men, forward) & empty) + popcount64(shift_dir(r, men, forward + 1) & empty);
    n += king_reach_count(r, kings, empty);
    return n;
}

/* ---------------------------------------------------------------- make */

static inline bool three_kings_against_one(const DraughtsBoard *b)
{
    if (popcount64(b->pieces[0] | b->pieces[1]) != 4) return false; /* one test for most positions */
    for (int s = 0; s < 2; s++) {
        uint64_t strong = b->pieces[s], weak = b->pieces[s ^ 1];
        /* a lone king first: one bit, and it is a king (cheap, and rarely true) */
        if (weak && !(weak & (weak - 1)) && (weak & b->kings) && !(strong & ~b->kings) && popcount64(strong) == 3)
            return true;
    }
    return false;
}

/* The child's key after a move of side us from `from` to `to` taking `captured` (of which
 * captured_kings were kings), the moving piece a king before the move or not and after it. */
static inline uint64_t child_key(uint64_t key, int us, int from, int to, bool was_king, bool is_king,
                                 uint64_t captured, uint64_t captured_kings)
{
    key ^= piece_keys[us][was_king][from] ^ piece_keys[us][is_king][to] ^ side_key;
    for (uint64_t c = captured; c;) {
        int i = pop_lowest(&c);
        key ^= piece_keys[us ^ 1][(captured_kings >> i) & 1][i];
    }
    return key;
}

/* The child's key, the move not made (the search prefetches table entries with it). */
static uint64_t draughts_key_after(const Variant *v, const Position *pos, const Move *m)
{
    (void)v;
    const DraughtsBoard *b = CBOARD(pos);
    bool was_king = (b->kings & BIT(m->from)) != 0;
    return child_key(pos->key, pos->side, m->from, m->to, was_king, was_king || (m->flags & MOVE_PROMOTES), m->bits,
                     b->kings & m->bits);
}

static void draughts_make_move(const Variant *v, const Position *pos, const Move *m, Position *out)
{
    /* copy the header and this module's part of the board only: the rest is unused */
    memcpy(out, pos, offsetof(Position, board) + sizeof(DraughtsBoard));
    DraughtsBoard *b = BOARD(out);
    int us = pos->side, them = us ^ 1, from = m->from, to = m->to;
    uint64_t from_bit = BIT(from), to_bit = BIT(to), captured = m->bits;
    bool was_king = (b->kings & from_bit) != 0;
    bool is_king = was_king || (m->flags & MOVE_PROMOTES);
    uint64_t captured_kings = b->kings & captured;
    b->pieces[us] = (b->pieces[us] & ~from_bit) | to_bit;
    b->kings &= ~from_bit;
    if (is_king) b->kings |= to_bit;
    b->pieces[them] &= ~captured;
    b->kings &= ~captured;
    out->key = child_key(pos->key, us, from, to, was_king, is_king, captured, captured_kings);
    out->side = (uint8_t)them;
    out->reversible_plies = (captured || !was_king) ? 0 : (uint16_t)(pos->reversible_plies + 1);
    if (RULES(v)->three_kings_limit_plies && three_kings_against_one(b))
        out->counter = three_kings_against_one(CBOARD(pos)) ? (uint16_t)(pos->counter + 1) : 0;
    else
        out->counter = 0;
}

/* ---------------------------------------------------------------- endgame databases */

void draughts_setup(const Variant *v, Position *pos, uint64_t white, uint64_t black, uint64_t kings, int side)
{
    (void)v;
    memset(pos, 0, offsetof(Position, board) + sizeof(DraughtsBoard));
    DraughtsBoard *b = BOARD(pos);
    b->pieces[SIDE_WHITE] = white;
    b->pieces[SIDE_BLACK] = black;
    b->kings = kings;
    pos->side = (uint8_t)side;
    pos->key = compute_key(pos);
}

int draughts_quiet_moves(const Variant *v, const Position *pos, Move *list)
{
    return generate_quiet(RULES(v), pos, list);
}

bool draughts_has_capture(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side;
    uint64_t own = b->pieces[us], empty = r->board_mask & ~(b->pieces[0] | b->pieces[1]);
    if (men_that_can_capture(r, own & ~b->kings, b->pieces[us ^ 1], empty, us)) return true;
    CaptureSearch cs;
    start_capture_search(&cs, r, pos);
    cs.empty = empty;
    for (uint64_t kings = own & b->kings; kings;)
        if (king_can_capture(&cs, pop_lowest(&kings), 0)) return true;
    return false;
}

/* ---------------------------------------------------------------- draws and ends */

static const char *draughts_counter_draw(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    if (r->quiet_limit_plies && pos->reversible_plies >= r->quiet_limit_plies)
        return "move counter (no man move and no capture)";
    if (r->three_kings_limit_plies && pos->counter >= r->three_kings_limit_plies)
        return "move counter (three kings against one king)";
    return NULL;
}

static const char *draughts_game_end(const Variant *v, const Position *pos, int *winner)
{
    (void)v;
    *winner = pos->side ^ 1; /* in draughts only the side to move can be out of moves */
    return CBOARD(pos)->pieces[pos->side] ? "no legal move" : "no pieces left";
}

/* ---------------------------------------------------------------- evaluation */

static int evaluate_side(const DraughtsRules *r, const DraughtsBoard *b, int side)
{
    uint64_t own = b->pieces[side], men = own & ~b->kings;
    uint64_t occupied = b->pieces[0] | b->pieces[1];
    int score = popcount64(men) * 100 + popcount64(own & b->kings) * r->king_value;
    bool enemy_has_kings = (b->pieces[side ^ 1] & b->kings) != 0;
    for (uint64_t x = men; x;) {
        int i = pop_lowest(&x);
        score += r->man_table[side][i];
        /* a runaway: nothing stands in the man's forward cone */
        if (!(r->runaway_cone[side][i] & occupied) && !enemy_has_kings) {
            int adv = side == SIDE_WHITE ? r->row_from_bottom[i] : r->size - 1 - r->row_from_bottom[i];
            score += 40 + adv * 8;
        }
    }
    /* mobility of the men */
    uint64_t empty = r->board_mask & ~occupied;
    int forward = side == SIDE_WHITE ? 0 : 2;
    score += 2 * (popcount64(shift_dir(r, men, forward) & empty) + popcount64(shift_dir(r, men, forward + 1) & empty));
    /* kings on the long diagonal-rich centre are stronger */
    for (uint64_t k = own & b->kings; k;) {
        int i = pop_lowest(&k);
        for (int d = 0; d < 4; d++)
            for (int t = r->neighbor[d][i]; t >= 0 && (empty & BIT(t)); t = r->neighbor[d][t]) score += 1;
    }
    return score;
}

static int draughts_evaluate(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    int us = pos->side;
    int score = evaluate_side(r, b, us) - evaluate_side(r, b, us ^ 1);
    return score + 5; /* the side to move has the tempo */
}

/* ---------------------------------------------------------------- text */

static int square_number(const DraughtsRules *r, int bit) { return r->square_of_bit[bit] + 1; }

/* Parses a square: a PDN number, or for russian/brazilian an algebraic cell. Returns a bit or -1. */
static int parse_square(const DraughtsRules *r, const char *text, size_t len)
{
    if (len == 0 || len > 3) return -1;
    if (isdigit((unsigned char)text[0])) {
        int n = 0;
        for (size_t i = 0; i < len; i++) {
            if (!isdigit((unsigned char)text[i])) return -1;
            n = n * 10 + (text[i] - '0');
        }
        return n >= 1 && n <= r->squares ? r->bit_of_square[n - 1] : -1;
    }
    if (!r->algebraic_input || len != 2) return -1;
    int file = tolower((unsigned char)text[0]) - 'a', row = text[1] - '0';
    if (file < 0 || file >= r->size || row < 1 || row > r->size) return -1;
    if ((file + row) % 2 == 0) return -1; /* a light square */
    int row_from_top = r->size - row;
    return r->bit_of_square[row_from_top * r->per_row + file / 2];
}

/* Rebuilds the landing squares of capture m (any legal route, or check the wanted one). */
static int capture_route(const DraughtsRules *r, const Position *pos, const Move *m, const int *wanted,
                         int wanted_length, int *route)
{
    CaptureSearch cs;
    start_capture_search(&cs, r, pos);
    cs.target = m;
    cs.wanted_route = wanted;
    cs.wanted_length = wanted_length;
    cs.route_out = route;
    captures_from(&cs, pos, m->from);
    return cs.done ? cs.route_length : -1;
}

static void draughts_format_move(const Variant *v, const Position *pos, const Move *m, char *out, size_t len)
{
    const DraughtsRules *r = RULES(v);
    if (!m->bits) {
        snprintf(out, len, "%d-%d", square_number(r, m->from), square_number(r, m->to));
        return;
    }
    Move list[MAX_MOVES];
    int n = generate_captures(r, pos, list);
    bool ambiguous = false;
    for (int i = 0; i < n; i++)
        if (list[i].from == m->from && list[i].to == m->to && list[i].bits != m->bits) ambiguous = true;
    int route[64], length = ambiguous ? capture_route(r, pos, m, NULL, 0, route) : -1;
    if (length <= 0) {
        snprintf(out, len, "%dx%d", square_number(r, m->from), square_number(r, m->to));
        return;
    }
    size_t used = (size_t)snprintf(out, len, "%d", square_number(r, m->from));
    for (int i = 0; i < length && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "x%d", square_number(r, route[i]));
}

bool draughts_is_variant(const Variant *v) { return v->format_move == draughts_format_move; }

int draughts_square_count(const Variant *v) { return RULES(v)->squares; }

void draughts_move_squares(const Variant *v, const Move *m, DraughtsMoveSquares *out)
{
    const DraughtsRules *r = RULES(v);
    out->from = square_number(r, m->from);
    out->to = square_number(r, m->to);
    out->captured_count = 0;
    /* bits rise with square numbers, so the list comes out ascending */
    for (uint64_t captured = m->bits; captured && out->captured_count < 32;)
        out->captured[out->captured_count++] = square_number(r, pop_lowest(&captured));
}

static int draughts_parse_move(const Variant *v, const Position *pos, const char *text, const Move *legal,
                               int count, char *err, size_t errlen)
{
    const DraughtsRules *r = RULES(v);
    int squares[64], n = 0;
    const char *p = text;
    while (*p) {
        const char *start = p;
        while (*p && *p != '-' && *p != 'x' && *p != 'X' && *p != ':') p++;
        if (n == 64) {
            snprintf(err, errlen, "too many squares in move '%s'", text);
            return -1;
        }
        int bit = parse_square(r, start, (size_t)(p - start));
        if (bit < 0) {
            snprintf(err, errlen, "bad square '%.*s' in move '%s'", (int)(p - start), start, text);
            return -1;
        }
        squares[n++] = bit;
        if (*p) {
            p++;
            if (!*p) {
                snprintf(err, errlen, "move '%s' ends with a separator", text);
                return -1;
            }
        }
    }
    if (n < 2) {
        snprintf(err, errlen, "move '%s' needs a from and a to square", text);
        return -1;
    }
    int found = -1, matches = 0;
    for (int i = 0; i < count; i++) {
        const Move *m = &legal[i];
        if (m->from != squares[0] || m->to != squares[n - 1]) continue;
        if (n > 2) {
            if (!m->bits || capture_route(r, pos, m, squares + 1, n - 1, NULL) < 0) continue;
        }
        matches++;
        if (found < 0) found = i;
    }
    if (matches == 1) return found;
    if (matches > 1)
        snprintf(err, errlen, "move '%s' is ambiguous: give its full route", text);
    else
        snprintf(err, errlen, "illegal move '%s'", text);
    return -1;
}

static void draughts_format_fen(const Variant *v, const Position *pos, char *out, size_t len)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    size_t used = (size_t)snprintf(out, len, "%c", pos->side == SIDE_WHITE ? 'W' : 'B');
    for (int s = 0; s < 2 && used < len; s++) {
        used += (size_t)snprintf(out + used, len - used, ":%c", s == SIDE_WHITE ? 'W' : 'B');
        bool first = true;
        for (int sq = 0; sq < r->squares && used < len; sq++) {
            int bit = r->bit_of_square[sq];
            if (!(b->pieces[s] & BIT(bit))) continue;
            used += (size_t)snprintf(out + used, len - used, "%s%s%d", first ? "" : ",",
                                     (b->kings & BIT(bit)) ? "K" : "", sq + 1);
            first = false;
        }
    }
}

static bool fen_fail(char *err, size_t errlen, const char *what, const char *where)
{
    snprintf(err, errlen, "bad FEN: %s at '%.20s'", what, where);
    return false;
}

static bool draughts_parse_fen(const Variant *v, const char *text, Position *out, char *err, size_t errlen)
{
    const DraughtsRules *r = RULES(v);
    Position pos;
    memset(&pos, 0, sizeof pos);
    DraughtsBoard *b = BOARD(&pos);
    const char *p = text;
    while (*p == ' ') p++;
    char side = (char)toupper((unsigned char)*p);
    if (side != 'W' && side != 'B') return fen_fail(err, errlen, "side to move must be W or B", p);
    pos.side = side == 'W' ? SIDE_WHITE : SIDE_BLACK;
    p++;
    bool seen[2] = {false, false};
    while (*p == ':') {
        p++;
        char colour = (char)toupper((unsigned char)*p);
        if (colour != 'W' && colour != 'B') {
            /* other PDN fields (H0, F1, ...) carry nothing this engine needs */
            while (*p && *p != ':' && *p != ' ') p++;
            continue;
        }
        int s = colour == 'W' ? SIDE_WHITE : SIDE_BLACK;
        if (seen[s]) return fen_fail(err, errlen, "a colour is listed twice", p);
        seen[s] = true;
        p++;
        while (*p && *p != ':' && *p != ' ' && *p != '.') {
            bool king = false;
            if (*p == 'K' || *p == 'k') king = true, p++;
            if (!isdigit((unsigned char)*p)) return fen_fail(err, errlen, "expected a square number", p);
            const char *start = p;
            long first = strtol(p, (char **)&p, 10), last = first;
            if (*p == '-') {
                p++;
                if (!isdigit((unsigned char)*p)) return fen_fail(err, errlen, "bad range", start);
                last = strtol(p, (char **)&p, 10);
            }
            if (first < 1 || last > r->squares || first > last)
                return fen_fail(err, errlen, "square out of range", start);
            for (long n = first; n <= last; n++) {
                int bit = r->bit_of_square[n - 1];
                if ((b->pieces[0] | b->pieces[1]) & BIT(bit))
                    return fen_fail(err, errlen, "a square is given twice", start);
                if (!king && (r->crown_row[s] & BIT(bit)))
                    return fen_fail(err, errlen, "a man stands on its crowning row", start);
                b->pieces[s] |= BIT(bit);
                if (king) b->kings |= BIT(bit);
            }
            if (*p == ',') {
                p++;
                if (!*p || *p == ':') return fen_fail(err, errlen, "empty list item", start);
            }
        }
    }
    while (*p == '.' || *p == ' ' || *p == '\r' || *p == '\n') p++;
    if (*p) return fen_fail(err, errlen, "unexpected text", p);
    for (int s = 0; s < 2; s++)
        if (popcount64(b->pieces[s]) > r->men_each)
            return fen_fail(err, errlen, s == SIDE_WHITE ? "too many white pieces" : "too many black pieces", text);
    pos.key = compute_key(&pos);
    *out = pos;
    return true;
}

static bool draughts_board_valid(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t all = b->pieces[0] | b->pieces[1];
    if ((b->pieces[0] & b->pieces[1]) || (all & ~r->board_mask) || (b->kings & ~all)) return false;
    for (int s = 0; s < 2; s++)
        if (popcount64(b->pieces[s]) > r->men_each || (b->pieces[s] & ~b->kings & r->crown_row[s])) return false;
    return true;
}

static void draughts_print_board(const Variant *v, const Position *pos, char *out, size_t len)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    size_t used = 0;
    for (int row = r->size - 1; row >= 0 && used < len; row--) {
        used += (size_t)snprintf(out + used, len - used, "%3d ", row + 1);
        for (int file = 0; file < r->size && used < len; file++) {
            char c = ' ';
            if ((file + row) % 2 == 0) {
                int row_from_top = r->size - 1 - row;
                int bit = r->bit_of_square[row_from_top * r->per_row + file / 2];
                c = '.';
                if (b->pieces[SIDE_WHITE] & BIT(bit)) c = (b->kings & BIT(bit)) ? 'W' : 'w';
                if (b->pieces[SIDE_BLACK] & BIT(bit)) c = (b->kings & BIT(bit)) ? 'B' : 'b';
            }
            used += (size_t)snprintf(out + used, len - used, " %c", c);
        }
        /* the square numbers of the row, as PDN counts them */
        int first = (r->size - 1 - row) * r->per_row + 1;
        used += (size_t)snprintf(out + used, len - used, "    %d-%d\n", first, first + r->per_row - 1);
    }
    used += (size_t)snprintf(out + used, len - used, "    ");
    for (int file = 0; file < r->size && used < len; file++)
        used += (size_t)snprintf(out + used, len - used, " %c", 'a' + file);
    if (used < len) snprintf(out + used, len - used, "\n%s to move\n", pos->side == SIDE_WHITE ? "White" : "Black");
}

/* ---------------------------------------------------------------- variants */

static const char *const bench_8x8[] = {
    "W:W18,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,6,7,8,9,10,11,13,15",
    "B:W17,20,21,22,24,25,27,28,29,31,32:B1,2,3,5,6,7,9,10,11,12,14",
    "W:WK10,22,25,26,29:B3,12,14,K27",
    NULL,
};
static const char *const bench_10x10[] = {
    "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:W6,7,8,9,10:B41,42,43,44,45",
    "W:WK47,32,33:B18,19,K3",
    NULL,
};

#define DRAUGHTS_VARIANT(NAME, RULES_TABLE, COLS, START, BENCH)                                        \
    {                                                                                                \
        .name = NAME, .cols = COLS, .rows = COLS, .start_fen = START, .rules = &RULES_TABLE,         \
        .parse_fen = draughts_parse_fen, .format_fen = draughts_format_fen,                          \
        .generate = draughts_generate, .generate_noisy = draughts_generate_noisy,                    \
        .count_moves = draughts_count_moves, .make_move = draughts_make_move, .key_after = draughts_key_after,                        \
        .evaluate = draughts_evaluate, .counter_draw = draughts_counter_draw,                        \
        .game_end = draughts_game_end, .format_move = draughts_format_move,                    \
        .parse_move = draughts_parse_move, .print_board = draughts_print_board, .bench_fens = BENCH, .bench_depth = 12, \
        .aspiration_delta = 20, .verify_margin = 5, .lmr_step_early = COLS == 10, .iir_depth_min = COLS == 10 ? 3 : 0, .board_bytes = sizeof(DraughtsBoard), .board_valid = draughts_board_valid,                                \
        .features = COLS == 10 ? &draughts10_features : &draughts8_features,                         \
    }

const Variant variant_checkers = DRAUGHTS_VARIANT("checkers", rules_checkers, 8, "B:W21-32:B1-12", bench_8x8);
const Variant variant_russian = DRAUGHTS_VARIANT("russian", rules_russian, 8, "W:W21-32:B1-12", bench_8x8);
const Variant variant_brazilian = DRAUGHTS_VARIANT("brazilian", rules_brazilian, 8, "W:W21-32:B1-12", bench_8x8);
const Variant variant_international =
    DRAUGHTS_VARIANT("international", rules_international, 10, "W:W31-50:B1-20", bench_10x10);
