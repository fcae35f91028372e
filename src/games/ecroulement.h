/* ecroulement.h — the tower-collapse variants (games/ecroulement.c). */
#ifndef DONJON_ECROULEMENT_H
#define DONJON_ECROULEMENT_H
#include "../game.h"
extern const Variant variant_ecroulement, variant_ecroulement_rapide;
void ecroulement_init(void);
#endif
