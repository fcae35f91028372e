/*
 * egdb_probe.h — a variant's endgame databases loaded for play: which materials they cover, and
 * the value and conversion distance of a position. Read-only once open, so every search thread
 * may probe at once.
 */
#ifndef DONJON_EGDB_PROBE_H
#define DONJON_EGDB_PROBE_H
#include "../game.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct EgdbSet EgdbSet;

/* Opens the files of <directory>/<variant>/ for every material up to the most pieces at which all
 * are present and sound. NULL when nothing is usable; message (always written) says what was
 * loaded, or what is missing or damaged, in words for an info string. */
EgdbSet *egdb_open(const Variant *v, const char *directory, char *message, size_t len);
void egdb_close(EgdbSet *s);

const Variant *egdb_variant(const EgdbSet *s);
int egdb_pieces(const EgdbSet *s);      /* every position of up to this many pieces is covered */
bool egdb_has_dtz(const EgdbSet *s);    /* conversion distances too (not only win/draw/loss) */

/* EGDB_WIN, EGDB_DRAW or EGDB_LOSS for the side to move (egdb_file.h), ignoring the move
 * counters, or EGDB_UNKNOWN when the position is not covered. */
int egdb_probe_wdl(const EgdbSet *s, const Position *pos);
/* For a won or lost position: plies to the next capture or man move under best play (the
 * winner hurries, the loser delays; 255 = 255 or more), or -1 when unknown. */
int egdb_probe_dtz(const EgdbSet *s, const Position *pos);

/* The largest dtz of the position's material (a bound that saves probing), or -1. */
int egdb_longest_dtz(const EgdbSet *s, const Position *pos);

/* Where the engine looks when told nothing: the folder egdb beside the executable, or the one the
 * environment variable DONJON_EGDB names. */
void egdb_default_directory(char *out, size_t len);
#endif
