/* games.c — the registry of playable variants; adding a game is one line here. */
#include "game.h"
#include "games/draughts.h"

#include <string.h>

static const Variant *const registry[] = {
    &variant_checkers,
    &variant_russian,
    &variant_brazilian,
    &variant_international,
};

#define VARIANT_COUNT (int)(sizeof registry / sizeof registry[0])

const Variant *variant_at(int index) { return index >= 0 && index < VARIANT_COUNT ? registry[index] : NULL; }

const Variant *variant_by_name(const char *name)
{
    for (int i = 0; i < VARIANT_COUNT; i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

const Variant *default_variant(void) { return &variant_international; }

void games_init(void) { draughts_init(); }
