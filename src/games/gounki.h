/* gounki.h — the gounki variant (games/gounki.c). */
#ifndef DONJON_GOUNKI_H
#define DONJON_GOUNKI_H
#include "../game.h"
extern const Variant variant_gounki;
void gounki_init(void);
#endif
