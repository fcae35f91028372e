/*
 * weights_builtin.c — the learned weights compiled into the binary: each file
 * src/weights/<variant>.djw is embedded with the assembler's .incbin (the build runs from the
 * repository root) and checked once at start-up like any EvalFile. A variant without a file
 * plays with its hand-set evaluation.
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

static const EmbeddedWeights embedded[] = {
    {NULL, NULL, NULL},
};

static EvalWeights builtin[VARIANT_LIMIT];
static bool builtin_valid[VARIANT_LIMIT];

void eval_weights_init(void)
{
    for (int i = 0; embedded[i].variant; i++) {
        const Variant *v = variant_by_name(embedded[i].variant);
        char err[256];
        if (!v) continue;
        int index = variant_index(v);
        builtin_valid[index] = eval_weights_parse(v, embedded[i].start, (size_t)(embedded[i].end - embedded[i].start),
                                                  "built in", &builtin[index], err, sizeof err);
        /* a build whose embedded file does not match its features plays the hand-set evaluation */
        if (!builtin_valid[index]) fprintf(stderr, "donjon: built-in weights refused: %s\n", err);
    }
}

const EvalWeights *eval_weights_builtin(const Variant *v)
{
    int index = variant_index(v);
    return index >= 0 && builtin_valid[index] ? &builtin[index] : NULL;
}
