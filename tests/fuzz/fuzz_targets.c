/*
 * fuzz_targets.c — fuzz entry points (libFuzzer's LLVMFuzzerTestOneInput), one per build:
 *   FUZZ_FEN       every game's FEN parser; a position that parses must print, parse back to the
 *                  same FEN and key, and every legal move must print, parse back and be playable;
 *   FUZZ_MOVE      every game's move-text parser on the start and bench positions;
 *   FUZZ_PROTOCOL  the command-line parser and whole protocol sessions (the engine is built with
 *                  DONJON_FUZZING, which keeps searches, perft and allocations small).
 * The first input byte picks the variant (and position) where one is needed.
 */
#include "../../src/game.h"
#include "../../src/protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void require(int condition, const char *what)
{
    if (!condition) {
        fprintf(stderr, "fuzz check failed: %s\n", what);
        abort();
    }
}

static int variant_count(void)
{
    int n = 0;
    while (variant_at(n)) n++;
    return n;
}

static char *as_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    return text;
}

static void check_position(const Variant *v, const Position *pos)
{
    char fen[FEN_TEXT_MAX], again[FEN_TEXT_MAX], err[256];
    v->format_fen(v, pos, fen, sizeof fen);
    Position reparsed;
    require(v->parse_fen(v, fen, &reparsed, err, sizeof err), "a printed FEN parses");
    v->format_fen(v, &reparsed, again, sizeof again);
    require(strcmp(fen, again) == 0, "FEN round trip");
    require(reparsed.key == pos->key, "key of the reparsed FEN");
    static Move legal[MAX_MOVES];
    int n = v->generate(v, pos, legal);
    require(n >= 0 && n <= MAX_MOVES, "move count");
    for (int i = 0; i < n && i < 64; i++) {
        char text[MOVE_TEXT_MAX];
        v->format_move(v, pos, &legal[i], text, sizeof text);
        int index = v->parse_move(v, pos, text, legal, n, err, sizeof err);
        require(index >= 0 && move_equal(&legal[index], &legal[i]), "a printed move parses to itself");
        Position child;
        v->make_move(v, pos, &legal[i], &child);
        char board[BOARD_TEXT_MAX];
        v->print_board(v, &child, board, sizeof board);
        v->evaluate(v, &child);
    }
    bool forced;
    v->generate_noisy(v, pos, legal, &forced);
    v->evaluate(v, pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    if (!initialised) {
        games_init();
        initialised = 1;
#ifdef FUZZ_PROTOCOL
        if (!freopen("/dev/null", "w", stdout)) abort();
#endif
    }
    if (size < 1) return 0;
#if defined(FUZZ_FEN)
    const Variant *v = variant_at(data[0] % variant_count());
    char *text = as_text(data + 1, size - 1);
    Position pos;
    char err[256];
    if (v->parse_fen(v, text, &pos, err, sizeof err)) check_position(v, &pos);
    free(text);
#elif defined(FUZZ_MOVE)
    const Variant *v = variant_at(data[0] % variant_count());
    int which = size > 1 ? data[1] % 4 : 0;
    const char *fen = v->start_fen;
    for (int i = 0; i < which && v->bench_fens[i]; i++) fen = v->bench_fens[i];
    Position pos;
    char err[256];
    require(v->parse_fen(v, fen, &pos, err, sizeof err), "bench FEN");
    static Move legal[MAX_MOVES];
    int n = v->generate(v, &pos, legal);
    char *text = as_text(data + (size > 1 ? 2 : 1), size - (size > 1 ? 2 : 1));
    int index = v->parse_move(v, &pos, text, legal, n, err, sizeof err);
    require(index >= -1 && index < n, "parse_move index");
    if (index >= 0) {
        Position child;
        v->make_move(v, &pos, &legal[index], &child);
    }
    free(text);
#elif defined(FUZZ_PROTOCOL)
    FILE *in = fmemopen((void *)data, size, "r");
    if (in) {
        protocol_loop(in);
        fclose(in);
    }
#else
#error "define FUZZ_FEN, FUZZ_MOVE or FUZZ_PROTOCOL"
#endif
    return 0;
}
