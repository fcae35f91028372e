/* draughts.h — the four variants of the draughts family module (games/draughts.c). */
#ifndef DONJON_DRAUGHTS_H
#define DONJON_DRAUGHTS_H
#include "../game.h"
extern const Variant variant_checkers, variant_russian, variant_brazilian, variant_international;
void draughts_init(void);
#endif
