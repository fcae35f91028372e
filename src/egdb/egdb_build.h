/*
 * egdb_build.h — building a variant's endgame databases by retrograde analysis (egdb_build.c).
 *
 * Every material of 2 .. pieces pieces is solved, smaller ones first, into
 * <directory>/<variant>/<material>.wdl (win/draw/loss, White to move) and .dtz (plies to the
 * next capture or man move). Files already there and sound are kept instead of built again,
 * so a build that was stopped resumes where it was; their values are read only when a material
 * still to build needs them (a finished set is only checked).
 */
#ifndef DONJON_EGDB_BUILD_H
#define DONJON_EGDB_BUILD_H
#include "../game.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const Variant *variant;
    int pieces;
    const char *directory;   /* the set's root; the variant's files go in a folder of its name */
    int threads;
    FILE *log;               /* progress lines */
} EgdbBuildOptions;

/* False (with the reason in err) on a write error or when out of memory. */
bool egdb_build(const EgdbBuildOptions *options, char *err, size_t errlen);
#endif
