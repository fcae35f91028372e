/*
 * weights_builtin.c — the learned weights compiled into the binary: each file
 * src/weights/<variant>.djw is embedded with the assembler's .incbin (the build runs from the
 * repository root) and checked once at start-up like any EvalFile. Every variant has its file;
 * an empty one means no weights yet: that variant plays its hand-set evaluation.
 */
#include "eval_weights.h"

#include <stdio.h>
#include <string.h>

#define EMBED(symbol, path)                                                                      \
    __asm__(".section .rodata\n.balign 16\n.global " #symbol "\n" #symbol ":\n.incbin \"" path  \
            "\"\n.global " #symbol "_end\n" #symbol "_end:\n.previous\n");                       \
    extern const unsigned char symbol[], symbol##_end[]

typedef struct {
    const char *variant;
    const unsigned char *start, *end;
} EmbeddedWeights;

EMBED(weights_gounki, "src/weights/gounki.djw");
EMBED(weights_ecroulement, "src/weights/ecroulement.djw");
EMBED(weights_ecroulement_rapide, "src/weights/ecroulement-rapide.djw");
EMBED(weights_checkers, "src/weights/checkers.djw");
EMBED(weights_russian, "src/weights/russian.djw");
EMBED(weights_brazilian, "src/weights/brazilian.djw");
EMBED(weights_international, "src/weights/international.djw");
EMBED(weights_tawol, "src/weights/tawol.djw");

static const EmbeddedWeights embedded[] = {
    {"gounki", weights_gounki, weights_gounki_end},
    {"ecroulement", weights_ecroulement, weights_ecroulement_end},
    {"ecroulement-rapide", weights_ecroulement_rapide, weights_ecroulement_rapide_end},
    {"checkers", weights_checkers, weights_checkers_end},
    {"russian", weights_russian, weights_russian_end},
    {"brazilian", weights_brazilian, weights_brazilian_end},
    {"international", weights_international, weights_international_end},
    {"tawol", weights_tawol, weights_tawol_end},
    {NULL, NULL, NULL},
};

static EvalWeights builtin[VARIANT_LIMIT];
static bool builtin_valid[VARIANT_LIMIT];

void eval_weights_init(void)
{
    for (int i = 0; embedded[i].variant; i++) {
        const Variant *v = variant_by_name(embedded[i].variant);
        char err[256];
        size_t size = (size_t)(embedded[i].end - embedded[i].start);
        if (!v || size == 0) continue;
        int index = variant_index(v);
        builtin_valid[index] = eval_weights_parse(v, embedded[i].start, size, "built in", &builtin[index], err, sizeof err);
        /* a build whose embedded file does not match its features plays the hand-set evaluation */
        if (!builtin_valid[index]) fprintf(stderr, "donjon: built-in weights refused: %s\n", err);
    }
}

const EvalWeights *eval_weights_builtin(const Variant *v)
{
    int index = variant_index(v);
    return index >= 0 && builtin_valid[index] ? &builtin[index] : NULL;
}
