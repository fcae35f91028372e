/*
 * egdb_search.h — how play uses the endgame databases: the score of a covered position inside the
 * search, the moves a covered root may choose from, and how both meet the move counters.
 *
 * A database gives the value ignoring the move counters and the plies to the next capture or man
 * move (dtz, when the set has it) — the very plies the counters count, since both start again at
 * a capture or a man move. So a win converts in time exactly when its dtz is below the plies the
 * counters still allow (egdb_counter_room), and play combines them so:
 *  - inside the tree a covered position is a leaf with an exact score: a draw 0; a win ±(EGDB_SCORE_WIN
 *    + progress), progress favouring fewer enemy pieces, more own kings and advanced men, so that
 *    the search heads for the simplest win; but a win whose dtz does not fit the counters scores 0;
 *  - at a covered root only the moves the database prefers are searched: a win converts (capture or
 *    man move) when dtz is 0 and otherwise steps to the smallest dtz, so each phase converts within
 *    dtz plies and a win that fits the counters is won over the board; a draw keeps to drawing
 *    moves; a loss picks the longest resistance (a dtz past the counters first).
 */
#ifndef DONJON_EGDB_SEARCH_H
#define DONJON_EGDB_SEARCH_H
#include "egdb_probe.h"

#define EGDB_SCORE_WIN 20000   /* database wins score from here up to 22000, below mate scores */

/* Plies before a move counter draws the game unless a capture or a man move comes first (a
 * large number for a variant without counters). */
int egdb_counter_room(const Variant *v, const Position *pos);

/* For the search: true when pos is covered, with its exact score for the side to move. */
bool egdb_search_score(const EgdbSet *s, const Position *pos, int *score);

/* For a covered root: the moves to search (written to kept), their number, and the root's value
 * and dtz; 0 when the root is not covered or has no move. */
typedef struct {
    int value;   /* EGDB_WIN, EGDB_DRAW, EGDB_LOSS */
    int dtz;     /* -1 when unknown */
    int room;    /* egdb_counter_room of the root */
} EgdbRootInfo;
int egdb_root_moves(const EgdbSet *s, const Position *root, Move *kept, EgdbRootInfo *info);

/* "win dtz 7", "draw", "loss dtz 40 counters 29 (...)": the line `eval` and `d` show, or NULL
 * text (false) when not covered. */
bool egdb_describe(const EgdbSet *s, const Position *pos, char *out, size_t len);
#endif
