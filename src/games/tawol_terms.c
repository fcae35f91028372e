/*
 * tawol_terms.c — what Tawôl's evaluations know: the terms of a position for both sides
 * (towers held, blocks, free pawns, attacks, closeness, the race to the last towers), read by
 * the hand-set evaluation here and by the learned evaluation's features (tawol_eval.c).
 */
#include "tawol_board.h"

#include "../bitops.h"
#include "grid.h"

#include <string.h>

/* The cells within king-move distance 1 of a set (the set included). */
static inline uint64_t king_dilate(uint64_t s)
{
    uint64_t row = s | ((s << 1) & GRID_NOT_FILE_A) | ((s >> 1) & GRID_NOT_FILE_H);
    return row | row << 8 | row >> 8;
}

/* Over the pawns of two sets (one-collar, two-collar), the (pawn, direction) pairs whose exact
 * reach, on a clear path, lands in `targets`: the attacks they could make next move. With
 * `zone`, also every cell they could attack next move (next to a one-collar pawn, two cells
 * away in a line over an empty cell from a two-collar pawn). */
static inline int attacks_on(uint64_t one_collar, uint64_t two_collar, uint64_t empty, uint64_t targets,
                             uint64_t *zone)
{
    int count = 0;
    uint64_t reached = 0;
    for (int d = 0; d < 8; d++) {
        uint64_t reach = grid_shift(one_collar, d) | grid_shift(grid_shift(two_collar, d) & empty, d);
        count += popcount64(reach & targets);
        reached |= reach;
    }
    if (zone) *zone = reached;
    return count;
}

static uint64_t king_area[64]; /* king_dilate of each cell alone */

void tawol_terms_init(void)
{
    for (int c = 0; c < 64; c++) king_area[c] = king_dilate(BIT(c));
}

/* The chase of the untaken towers: the empty cells they reach (a king's step a move, through
 * empty cells) before the hunters' attack zone, which grows a king's step a move, covers
 * them. It is the room the hunters still have to take away: a tower with none is caught,
 * and the fewer cells, the nearer the catch. At most 8 moves are looked at. */
#define CHASE_MOVES 8
static int chase_room(uint64_t towers, uint64_t hunters_zone, uint64_t empty)
{
    uint64_t reached = towers, front = towers, covered = hunters_zone;
    int room = 0;
    for (int k = 0; k < CHASE_MOVES && front; k++) {
        front = king_dilate(front) & empty & ~covered & ~reached;
        reached |= front;
        room += popcount64(front);
        covered = king_dilate(covered);
    }
    return room;
}

void tawol_terms(const TawolBoard *b, const uint64_t sets[TAWOL_CELL_CLASSES], TawolSideTerms terms[2])
{
    const TawolCounts *n = &b->counts;
    memset(terms, 0, 2 * sizeof *terms);
    uint64_t open_towers[2], lone_pawns[2]; /* untaken towers; pawns on the board with nothing on them */
    /* the pawns that can move, by side and reach: all of them, and the free ones (on the board
     * or on an enemy pawn, not on a tower) */
    uint64_t movers[2][2], free_movers[2][2];
    for (int side = 0; side < 2; side++) {
        const uint64_t *own = &sets[side * CLASSES_PER_SIDE];
        open_towers[side] = own[OPEN_TOWER];
        lone_pawns[side] = own[LONE_1] | own[LONE_2];
        for (int two = 0; two < 2; two++) {
            free_movers[side][two] = own[LONE_1 + two] | own[ON_PAWN_1 + two];
            movers[side][two] = free_movers[side][two] | own[ON_TOWER_1 + two];
        }
        terms[side].plain_pawns = popcount64(lone_pawns[side]);
        terms[side].plain_one_collar = popcount64(own[LONE_1]);
    }
    uint64_t empty = ~b->occupied;
    for (int side = 0; side < 2; side++) {
        TawolSideTerms *t = &terms[side];
        t->taken = n->taken[side ^ 1];
        t->blocking = n->blocked_by[side];
        t->free_pawns = n->pawns[side] - n->on_towers[side] - n->blocked_by[side ^ 1];
        for (uint64_t o = open_towers[side]; o;) {
            int room = popcount64(king_area[pop_lowest(&o)] & empty);
            t->tower_room += room;
            t->towers_trapped += room == 0;
        }
        /* closeness: over free pawns, 8 less the distance d to the nearest target, is the
         * number of k in 0..7 with the pawn within k of a target (d <= 7 on this board) */
        uint64_t free_pawns = free_movers[side][0] | free_movers[side][1];
        uint64_t targets = open_towers[side ^ 1];
        if (targets)
            for (int k = 0; k < 8; k++, targets = king_dilate(targets)) {
                /* once every free pawn is within k, each later k counts them all */
                if (!(free_pawns & ~targets)) {
                    t->closeness += (8 - k) * popcount64(free_pawns);
                    break;
                }
                t->closeness += popcount64(free_pawns & targets);
            }
        /* a pawn on a tower can only hop to another tower; a free one threatens towers and pawns */
        t->tower_attacks = attacks_on(movers[side][0], movers[side][1], empty, open_towers[side ^ 1], NULL);
        uint64_t hunters_zone; /* where the free pawns could attack next move */
        t->free_threats = attacks_on(free_movers[side][0], free_movers[side][1], empty,
                                     open_towers[side ^ 1] | lone_pawns[side ^ 1], &hunters_zone);
        t->chase_room = chase_room(open_towers[side ^ 1], hunters_zone, empty);
    }
}

int tawol_hand_evaluate(const Variant *v, const Position *pos)
{
    (void)v;
    const TawolBoard *b = CBOARD(pos);
    const TawolCounts *n = &b->counts;
    int score[2];
    uint64_t sets[TAWOL_CELL_CLASSES];
    tawol_class_sets(b, sets);
    TawolSideTerms terms[2];
    tawol_terms(b, sets, terms);
    for (int side = 0; side < 2; side++) {
        const TawolSideTerms t = terms[side];
        score[side] = 300 * t.taken + 60 * t.blocking + 40 * t.free_pawns + 45 * t.tower_attacks + 10 * t.free_threats +
                      4 * t.closeness;
        /* the last towers flee one cell at a time: a two-collar pawn cannot attack a tower next
         * to it, so the one-collar pawns still on the board are the ones that finish a game,
         * and they matter the more towers are already held */
        score[side] += 40 * t.plain_one_collar * t.taken / 8;
    }
    int us = pos->side;
    int total = score[us] - score[us ^ 1];
    /* a lead with no pawn on the board is a lock: every pawn holds a tower or a pawn and
     * must let something go before it can take another tower; such leads were drawn (600
     * plies of shuffling) against a one-ply opponent, so they count half */
    if (total > 0 && terms[us].plain_pawns == 0) total /= 2;
    if (total < 0 && terms[us ^ 1].plain_pawns == 0) total /= 2;
    /* a tower short of the last: the race to take the final towers decides the game */
    if (n->towers[us ^ 1] - n->taken[us ^ 1] == 1) total += 200;
    if (n->towers[us] - n->taken[us] == 1) total -= 200;
    return total;
}
