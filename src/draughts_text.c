/* draughts_text.c — board letters, moves named by their squares, games put into the engine (see draughts_text.h). */
#include "draughts_text.h"

#include "games/draughts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const BoardLetters HUB_LETTERS = {'W', 'B', 'w', 'b', 'W', 'B', 'e'};
const BoardLetters DXP_LETTERS = {'W', 'Z', 'w', 'z', 'W', 'Z', 'e'};

/* Appends ",K17"-style items of one colour to a FEN list. */
static size_t append_square(char *fen, size_t used, size_t len, bool first, bool king, int square)
{
    if (used >= len) return used;
    return used + (size_t)snprintf(fen + used, len - used, "%s%s%d", first ? "" : ",", king ? "K" : "", square);
}

bool board_letters_to_fen(const Variant *v, const BoardLetters *letters, char side, const char *squares,
                          size_t length, char *fen, size_t fen_len, char *err, size_t errlen)
{
    int count = draughts_square_count(v);
    if (length != (size_t)count) {
        snprintf(err, errlen, "the %s board has %d squares, not %zu", v->name, count, length);
        return false;
    }
    if (side != letters->white_side && side != letters->black_side) {
        snprintf(err, errlen, "side to move must be '%c' or '%c'", letters->white_side, letters->black_side);
        return false;
    }
    char white[512], black[512];
    size_t white_used = 0, black_used = 0;
    white[0] = black[0] = 0;
    for (int i = 0; i < count; i++) {
        char c = squares[i];
        if (c == letters->empty) continue;
        bool is_white = c == letters->white_man || c == letters->white_king;
        bool is_black = c == letters->black_man || c == letters->black_king;
        if (!is_white && !is_black) {
            snprintf(err, errlen, "unknown letter '%c' on square %d",
                     c >= 32 && c < 127 ? c : '?', i + 1);
            return false;
        }
        bool king = c == letters->white_king || c == letters->black_king;
        if (is_white)
            white_used = append_square(white, white_used, sizeof white, white_used == 0, king, i + 1);
        else
            black_used = append_square(black, black_used, sizeof black, black_used == 0, king, i + 1);
    }
    snprintf(fen, fen_len, "%c:W%s:B%s", side == letters->white_side ? 'W' : 'B', white, black);
    /* the variant's own parser judges the board (men on their crowning row, too many pieces) */
    Position check;
    return v->parse_fen(v, fen, &check, err, errlen);
}

int find_move_by_squares(const Variant *v, const Move *legal, int count, int from, int to, const int *captured,
                         int captured_count)
{
    for (int i = 0; i < count; i++) {
        DraughtsMoveSquares squares;
        draughts_move_squares(v, &legal[i], &squares);
        if (squares.from != from || squares.to != to || squares.captured_count != captured_count) continue;
        bool same = true;
        for (int k = 0; k < captured_count && same; k++) {
            bool found = false;
            for (int j = 0; j < squares.captured_count && !found; j++) found = squares.captured[j] == captured[k];
            same = found;
        }
        /* a square named twice would match a set with a missing square: check the sizes agree */
        for (int k = 0; k < captured_count && same; k++)
            for (int j = k + 1; j < captured_count && same; j++) same = captured[k] != captured[j];
        if (same) return i;
    }
    return -1;
}

void hub_move_text(const Variant *v, const Move *m, char *out, size_t len)
{
    DraughtsMoveSquares squares;
    draughts_move_squares(v, m, &squares);
    size_t used = (size_t)snprintf(out, len, "%d%c%d", squares.from, squares.captured_count ? 'x' : '-', squares.to);
    for (int i = 0; i < squares.captured_count && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "x%d", squares.captured[i]);
}

int parse_hub_move(const Variant *v, const char *text, const Move *legal, int count, char *err, size_t errlen)
{
    int numbers[34], n = 0;
    bool capture = false;
    const char *p = text;
    for (;;) {
        if (*p < '0' || *p > '9') break;
        int value = 0, digits = 0;
        while (*p >= '0' && *p <= '9' && digits < 3) value = value * 10 + (*p++ - '0'), digits++;
        if (n == (int)(sizeof numbers / sizeof numbers[0])) break;
        numbers[n++] = value;
        if (*p == 'x' && (n == 1 || capture)) {
            capture = true;
            p++;
        } else if (*p == '-' && n == 1) {
            p++;
        } else
            break;
    }
    if (*p || n < 2 || (!capture && n != 2)) {
        snprintf(err, errlen, "'%.40s' is not a Hub move (32-28, or 28x19x23: from, to, captured squares)", text);
        return -1;
    }
    int index = find_move_by_squares(v, legal, count, numbers[0], numbers[1], numbers + 2, n - 2);
    /* a capture must name at least one captured square; a quiet move none */
    if (index < 0 || (capture && n == 2)) {
        snprintf(err, errlen, "illegal move '%.40s'", text);
        return -1;
    }
    return index;
}

void game_move_texts(const Variant *v, const char *fen, const Move *moves, int count, char (*out)[MOVE_TEXT_MAX])
{
    char err[256];
    Position pos;
    if (!v->parse_fen(v, fen, &pos, err, sizeof err)) return;
    for (int i = 0; i < count; i++) {
        v->format_move(v, &pos, &moves[i], out[i], MOVE_TEXT_MAX);
        Position next;
        v->make_move(v, &pos, &moves[i], &next);
        pos = next;
    }
}

bool engine_set_game(Engine *e, const char *fen, const Move *moves, int count, char *err, size_t errlen)
{
    const Variant *v = engine_variant(e);
    char(*texts)[MOVE_TEXT_MAX] = count ? malloc(sizeof *texts * (size_t)count) : NULL;
    char **pointers = count ? malloc(sizeof *pointers * (size_t)count) : NULL;
    if (count && (!texts || !pointers)) {
        free(texts);
        free(pointers);
        snprintf(err, errlen, "out of memory");
        return false;
    }
    game_move_texts(v, fen, moves, count, texts);
    for (int i = 0; i < count; i++) pointers[i] = texts[i];
    bool ok = engine_set_position(e, fen, pointers, count, err, errlen);
    free(texts);
    free(pointers);
    return ok;
}
