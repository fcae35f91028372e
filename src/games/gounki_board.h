/*
 * gounki_board.h — what the gounki module's files share: the board, the stack codes, and the
 * evaluation terms the hand-set evaluation and the learned features both use
 * (games/gounki.c has the rules, games/gounki_eval.c the learned features).
 */
#ifndef DONJON_GOUNKI_BOARD_H
#define DONJON_GOUNKI_BOARD_H
#include "../game.h"

enum { EXIT_WHITE = 64, EXIT_BLACK = 72 };
enum { DISPLACEMENT = 0, DEPLOYMENT = 1 };
enum { RULE_CENTER = 1 };
enum { BLACK_BIT = 16 };

typedef struct {
    uint8_t cells[64];
    uint64_t occupied[2]; /* cells holding each side's stacks (kept by put) */
    uint8_t finished;     /* the previous move exited: the game is won by the side not to move */
    uint8_t pieces[2];    /* pieces on the board per side */
} GounkiBoard;

_Static_assert(sizeof(GounkiBoard) <= sizeof(((Position *)0)->board), "board area too small");

#define BOARD(p) ((GounkiBoard *)(p)->board)
#define CBOARD(p) ((const GounkiBoard *)(p)->board)

static inline int stack_rounds(uint8_t c) { return (c >> 2) & 3; }
static inline int stack_squares(uint8_t c) { return c & 3; }
static inline int stack_size(uint8_t c) { return stack_rounds(c) + stack_squares(c); }
static inline int stack_side(uint8_t c) { return (c & BLACK_BIT) ? SIDE_BLACK : SIDE_WHITE; }
static inline uint8_t make_stack(int side, int rounds, int squares)
{
    return (uint8_t)((side == SIDE_BLACK ? BLACK_BIT : 0) | rounds << 2 | squares);
}

typedef struct {
    int material, advancement, best_race, race_sum, mixed_triples;
} GounkiSideTerms;

/* One side's material, advancement, race (the fewest moves a stack needs to exit on an empty
 * road, and a sum over near-exit stacks), and mixed triples. */
void gounki_side_terms(const GounkiBoard *b, int side, GounkiSideTerms *t);
/* Stacks of `side` that can exit on its next move (win threats). */
int gounki_exit_threats(const Position *pos, int side);

extern const FeatureSet gounki_features;
void gounki_eval_init(void);
#endif
