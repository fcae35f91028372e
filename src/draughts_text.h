/*
 * draughts_text.h — the draughts text the Hub and DXP front-ends share: a board written one
 * letter per square, a move named by its squares (from, to and every captured square, as both
 * protocols name moves), and a game put into the engine facade from its start and its moves.
 */
#ifndef DONJON_DRAUGHTS_TEXT_H
#define DONJON_DRAUGHTS_TEXT_H
#include "engine.h"

/* The letters a protocol writes for a board: the side to move, then one letter per square. */
typedef struct {
    char white_side, black_side;
    char white_man, black_man, white_king, black_king, empty;
} BoardLetters;

extern const BoardLetters HUB_LETTERS;  /* W/B side; w b W B e */
extern const BoardLetters DXP_LETTERS;  /* W/Z side; w z W Z e */

/* The FEN of the board `side` + `squares` (exactly the variant's square count of letters).
 * false, with err filled, on a wrong length, an unknown letter or a board the variant refuses. */
bool board_letters_to_fen(const Variant *v, const BoardLetters *letters, char side, const char *squares,
                          size_t length, char *fen, size_t fen_len, char *err, size_t errlen);

/* Index into legal[] of the move with these from/to squares and this set of captured squares
 * (in any order), or -1. Squares are PDN numbers. */
int find_move_by_squares(const Variant *v, const Move *legal, int count, int from, int to, const int *captured,
                         int captured_count);

/* Hub notation: `32-28`, or `28x19x23` (from, to, then every captured square). */
void hub_move_text(const Variant *v, const Move *m, char *out, size_t len);
/* Index into legal[] of the move `text` names in Hub notation, or -1 with err filled. */
int parse_hub_move(const Variant *v, const char *text, const Move *legal, int count, char *err, size_t errlen);

/* Puts the game (start FEN, moves already checked legal) into the engine: its position and its
 * history for repetitions. false with err filled when the engine refuses it. */
bool engine_set_game(Engine *e, const char *fen, const Move *moves, int count, char *err, size_t errlen);

/* The engine's own text (PDN) of each move of the game, written to out[i] (MOVE_TEXT_MAX each). */
void game_move_texts(const Variant *v, const char *fen, const Move *moves, int count, char (*out)[MOVE_TEXT_MAX]);
#endif
