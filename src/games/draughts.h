/* draughts.h — the four variants of the draughts family module (games/draughts.c). */
#ifndef DONJON_DRAUGHTS_H
#define DONJON_DRAUGHTS_H
#include "../game.h"
extern const Variant variant_checkers, variant_russian, variant_brazilian, variant_international;
void draughts_init(void);

/* How the Hub and DXP protocols name a draughts move: the PDN numbers of its from and to squares
 * and of every square it captures, in ascending order. */
typedef struct {
    int from, to;
    int captured_count;
    int captured[32];
} DraughtsMoveSquares;

bool draughts_is_variant(const Variant *v);
int draughts_square_count(const Variant *v);  /* 32 or 50 */
void draughts_move_squares(const Variant *v, const Move *m, DraughtsMoveSquares *out);
#endif
