/* games.c — the registry of playable variants; adding a game is one line here. */
#include "game.h"
#include "eval_weights.h"
#include "games/draughts.h"
#include "games/ecroulement.h"
#include "games/gounki.h"
#include "games/grid.h"
#include "games/tawol.h"

#include <string.h>

static const Variant *const registry[] = {
    &variant_gounki,
    &variant_ecroulement,
    &variant_ecroulement_rapide,
    &variant_checkers,
    &variant_russian,
    &variant_brazilian,
    &variant_international,
    &variant_tawol,
};

#define VARIANT_COUNT (int)(sizeof registry / sizeof registry[0])

const Variant *variant_at(int index) { return index >= 0 && index < VARIANT_COUNT ? registry[index] : NULL; }

const Variant *variant_by_name(const char *name)
{
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

const Variant *default_variant(void) { return &variant_gounki; }

int variant_index(const Variant *v)
{
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (registry[i] == v) return i;
    return -1;
}

void games_init(void)
{
    _Static_assert(VARIANT_COUNT <= VARIANT_LIMIT, "raise VARIANT_LIMIT");
    draughts_init();
    gounki_init();
    grid_init(); /* geometry used by ecroulement and tawol */
    ecroulement_init();
    tawol_init();
    eval_weights_init(); /* checks the built-in weights against the features just set up */
}
