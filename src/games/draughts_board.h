/*
 * draughts_board.h — what the draughts module's files share: the rules table of a variant
 * and the board (games/draughts.c has the rules, games/draughts_eval.c the learned features,
 * src/egdb the endgame databases).
 * Square numbering and the ghost-bit layout are explained at the top of draughts.c.
 */
#ifndef DONJON_DRAUGHTS_BOARD_H
#define DONJON_DRAUGHTS_BOARD_H
#include "../bitops.h"
#include "../game.h"

typedef enum {
    CROWN_STOPS,            /* checkers: crowned, the move ends */
    CROWN_GOES_ON_AS_KING,  /* russian: crowned at once, captures on as a king */
    CROWN_AT_END,           /* brazilian, international: crowned only where the move ends */
} CrownRule;

typedef struct DraughtsRules {
    int size;                     /* 8 or 10 */
    int men_each;                 /* 12 or 20 */
    int first_side;               /* who moves first from the start position */
    bool men_capture_backwards;
    bool flying_kings;
    bool maximum_capture;
    bool algebraic_input;
    CrownRule crown;
    int quiet_limit_plies;        /* no man move and no capture: draw after this many plies */
    int three_kings_limit_plies;  /* 3 kings vs a lone king: draw after this many plies; 0 = none */
    int king_value;               /* evaluation: a king in men*100 units */

    /* derived at start-up by draughts_init() */
    int per_row, squares, shift_short, shift_long;
    uint64_t board_mask;
    uint64_t crown_row[2];        /* where men of each side are crowned */
    uint64_t back_row[2];
    int delta[4];
    int8_t neighbor[4][64];       /* bit one step in direction d, or -1 */
    uint64_t jump_over[4][64];    /* a short jump from a bit in direction d: the jumped square ... */
    uint64_t jump_land[4][64];    /* ... and the landing square (both 0 when the jump leaves the board) */
    uint64_t ray[4][64];          /* every square beyond a bit in direction d, to the edge */
    int8_t square_of_bit[64];     /* 0-based square, -1 for a ghost */
    int8_t bit_of_square[64];
    int8_t row_from_bottom[64];   /* 0 = White's home row */
    int8_t file_of_bit[64];
    int16_t man_table[2][64];     /* evaluation: a man's placement bonus by side */
    uint64_t runaway_cone[2][64]; /* squares that must be free for a man to run to the crown */
} DraughtsRules;

typedef struct {
    uint64_t pieces[2];  /* by side */
    uint64_t kings;      /* kings of either side */
} DraughtsBoard;

_Static_assert(sizeof(DraughtsBoard) <= sizeof(((Position *)0)->board), "board area too small");

#define BOARD(p) ((DraughtsBoard *)(p)->board)
#define CBOARD(p) ((const DraughtsBoard *)(p)->board)
#define RULES(v) ((const DraughtsRules *)(v)->rules)

/* The learned evaluation's features (draughts_eval.c); draughts_eval_init derives its tables. */
extern const FeatureSet draughts8_features, draughts10_features;
void draughts_eval_init(const DraughtsRules *r);

/* For the endgame databases: a position (its key computed, counters zero) from its bitboards; the
 * quiet moves of the side to move whatever the capture rule says (a king's quiet move is its own
 * inverse, so these are also the moves that led to a position); and whether the side to move
 * has a capture (cheaper than generating them: without one, the quiet moves are the legal moves). */
void draughts_setup(const Variant *v, Position *pos, uint64_t white, uint64_t black, uint64_t kings, int side);
int draughts_quiet_moves(const Variant *v, const Position *pos, Move *list);
bool draughts_has_capture(const Variant *v, const Position *pos);

/* The set bb moved one step in direction d, restricted to the board. */
static inline uint64_t shift_dir(const DraughtsRules *r, uint64_t bb, int d)
{
    uint64_t moved = d < 2 ? bb >> -r->delta[d] : bb << r->delta[d];
    return moved & r->board_mask;
}

/* The nearest bit of `occupied` on the ray from `from` in direction d, or -1: a flying king's
 * first obstacle in one lookup, where walking the line square by square cost a loop per king
 * and direction at every node (directions 0 and 1 run towards lower bits). */
static inline int nearest_on_ray(const DraughtsRules *r, int d, int from, uint64_t occupied)
{
    uint64_t hits = r->ray[d][from] & occupied;
    if (!hits) return -1;
    return d < 2 ? 63 - __builtin_clzll(hits) : __builtin_ctzll(hits);
}

/* The squares a flying king on `from` reaches in direction d before the first obstacle. */
static inline uint64_t free_on_ray(const DraughtsRules *r, int d, int from, uint64_t occupied)
{
    int stop = nearest_on_ray(r, d, from, occupied);
    return stop < 0 ? r->ray[d][from] : r->ray[d][from] & ~(r->ray[d][stop] | BIT(stop));
}

/* The squares reached from `from` in direction d over squares of `through` only (an occluded
 * fill: doubling steps of 1, 2, 4 and 8, enough for the longest line of 9), `from` included. */
static inline uint64_t fill_through(const DraughtsRules *r, uint64_t from, uint64_t through, int d)
{
    if (d < 2) {
        int s = -r->delta[d];
        from |= through & (from >> s), through &= through >> s;
        from |= through & (from >> 2 * s), through &= through >> 2 * s;
        from |= through & (from >> 4 * s), through &= through >> 4 * s;
        return from | (through & (from >> 8 * s));
    }
    int s = r->delta[d];
    from |= through & (from << s), through &= through << s;
    from |= through & (from << 2 * s), through &= through << 2 * s;
    from |= through & (from << 4 * s), through &= through << 4 * s;
    return from | (through & (from << 8 * s));
}

/* The kings' quiet moves counted per direction as the union of the squares they reach (a square
 * two kings reach in one direction counts once): the move count's kings and the evaluation's
 * king mobility are this one sum. Several flying kings: all of a side's kings filled along a
 * direction at once, where a ray lookup a king and direction cost more from the second king on. */
static inline int king_reach_count(const DraughtsRules *r, uint64_t kings, uint64_t empty)
{
    int count = 0;
    if (!kings) return 0;
    if (r->flying_kings && !(kings & (kings - 1))) {
        /* one king: its four rays, a lookup each, cost less than four fills */
        int from = lowest_bit(kings);
        uint64_t occupied = r->board_mask & ~empty;
        for (int d = 0; d < 4; d++) count += popcount64(free_on_ray(r, d, from, occupied));
        return count;
    }
    if (r->flying_kings) {
        for (int d = 0; d < 4; d++) count += popcount64(fill_through(r, kings, empty, d) & ~kings);
        return count;
    }
    for (int d = 0; d < 4; d++) count += popcount64(shift_dir(r, kings, d) & empty);
    return count;
}
#endif
