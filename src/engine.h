/*
 * engine.h — the engine facade: the current variant, the game (its positions and keys),
 * the options, the transposition table and the thread pool. The protocol layer talks
 * only to this; the search reports back through the SearchCallbacks it was given.
 */
#ifndef DONJON_ENGINE_H
#define DONJON_ENGINE_H
#include "search.h"
#include "threads.h"

#define HASH_MAX_MB (1 << 20)
#define THREADS_MAX 512

typedef struct Engine Engine;

Engine *engine_new(const SearchCallbacks *callbacks);
void engine_free(Engine *e);

const Variant *engine_variant(const Engine *e);
const Position *engine_position(const Engine *e);

/* All of these stop a running search first (its bestmove is still reported). */
void engine_set_variant(Engine *e, const Variant *v);
/* fen NULL = the variant's start. All or nothing: on error the game is unchanged. */
bool engine_set_position(Engine *e, const char *fen, char **moves, int move_count, char *err, size_t errlen);
bool engine_set_threads(Engine *e, int threads, char *err, size_t errlen);
bool engine_set_hash(Engine *e, size_t megabytes, char *err, size_t errlen);
void engine_new_game(Engine *e);
/* Loads a weights file for the current variant (NULL, "" or "<built-in>": the compiled-in
 * weights); on error the current weights stay and err says why. */
bool engine_set_eval_file(Engine *e, const char *path, char *err, size_t errlen);
/* The current variant's learned weights, or NULL (its hand-set evaluation). */
const struct EvalWeights *engine_weights(const Engine *e);
/* The value (index into option_values) of variant v's rule option; used by later positions. */
void engine_set_variant_option(Engine *e, const Variant *v, int value);

/* Endgame databases (src/egdb): the folder of the sets (NULL, "" or "<default>": egdb beside the
 * executable). Each draughts variant's set is opened when first wanted. */
void engine_set_egdb_path(Engine *e, const char *path);
/* Opens the current variant's set unless that was done: true then, with what happened in message. */
bool engine_open_egdb(Engine *e, char *message, size_t len);
/* The current variant's set, or NULL. */
const struct EgdbSet *engine_egdb(const Engine *e);

/* A search of the current position. When the position is in the endgame databases (and the play
 * is not weakened), only the moves they prefer are searched (src/egdb/egdb_search.h). */
void engine_go(Engine *e, const SearchLimits *limits, int64_t move_overhead);
void engine_stop(Engine *e);       /* returns at once; bestmove follows from the search */
void engine_ponderhit(Engine *e);
void engine_wait(Engine *e);       /* until no search and no job runs */

/* A long command (perft, bench) run in a thread of its own after any search stopped: the
 * protocol keeps answering meanwhile. run() must return soon once *stop is set (engine_stop).
 * false when no thread could be started (nothing ran). */
typedef void (*EngineJob)(void *argument, const atomic_bool *stop);
bool engine_run_job(Engine *e, EngineJob run, void *argument);
/* Waits for a running job to end by itself (nothing is stopped). */
void engine_finish_job(Engine *e);

/* "none", or "white <reason>", "black <reason>", "draw <reason>" for the game so far. */
void engine_result(Engine *e, char *out, size_t len);
#endif
