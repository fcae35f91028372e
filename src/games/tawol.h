/* tawol.h — the tawol variant (games/tawol.c). */
#ifndef DONJON_TAWOL_H
#define DONJON_TAWOL_H
#include "../game.h"
extern const Variant variant_tawol;
void tawol_init(void);
#endif
