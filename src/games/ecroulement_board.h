/*
 * ecroulement_board.h — what the ecroulement module's files share: the board, the rules
 * switch, and the evaluation terms the hand-set evaluation and the learned features both use
 * (games/ecroulement.c has the rules, games/ecroulement_eval.c the learned features).
 */
#ifndef DONJON_ECROULEMENT_BOARD_H
#define DONJON_ECROULEMENT_BOARD_H
#include "../game.h"

enum { BUILD = 0, COLLAPSE = 1 };
#define PAWNS_EACH 15

typedef struct {
    bool rapid;  /* collapses take every enemy stack they cover, nothing beyond */
} CollapseRules;

typedef struct {
    int8_t height[64];     /* + white, - black */
    uint64_t singles[2];   /* cells holding exactly one pawn, by side */
    uint64_t occupied[2];
} CollapseBoard;

_Static_assert(sizeof(CollapseBoard) <= sizeof(((Position *)0)->board), "board area too small");

#define BOARD(p) ((CollapseBoard *)(p)->board)
#define CBOARD(p) ((const CollapseBoard *)(p)->board)
#define RULES(v) ((const CollapseRules *)(v)->rules)

static inline int own_height(int h, int side) { return side == SIDE_WHITE ? h : -h; } /* > 0 when own */

typedef struct {
    int pawns, mobility, threatened, tallest, advance;
} CollapseTerms;

/* A side's pawns, moves available, enemy pawns its collapses reach, tallest stack, and how far
 * its pawns are from its home corner (pawn-steps, rows plus files). */
void collapse_terms(const CollapseRules *r, const CollapseBoard *b, int side, CollapseTerms *t);

extern const FeatureSet ecroulement_features;
void ecroulement_eval_init(void);
#endif
