/* engine.c — the engine facade (see engine.h). */
#include "engine.h"

#include "egdb/egdb_probe.h"
#include "egdb/egdb_search.h"
#include "eval_weights.h"
#include "games/draughts.h"
#include "outcome.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A long command other than a search (perft, bench) runs in a thread of its own, so the
 * protocol keeps answering; stop ends it like a search and every state change waits for it. */
typedef struct {
    pthread_t thread;
    bool running;              /* input thread only */
    atomic_bool stop;
    EngineJob run;
    void *argument;
} BackgroundJob;

struct Engine {
    const Variant *variant;
    Position position;
    uint64_t *game_keys;       /* keys of the positions before the current one */
    int game_key_count;
    int game_key_capacity;
    TranspositionTable tt;
    ThreadPool *pool;
    SearchShared shared;       /* the search in progress or the last one */
    SearchCallbacks callbacks;
    BackgroundJob job;
    const EvalWeights *weights[VARIANT_LIMIT]; /* each variant's learned weights, or NULL */
    EvalWeights *loaded[VARIANT_LIMIT];        /* those read from an EvalFile (owned) */
    int option_value[VARIANT_LIMIT]; /* each variant's rule option (index into option_values) */
    EgdbSet *egdb[VARIANT_LIMIT];    /* each draughts variant's endgame databases, or NULL */
    bool egdb_opened[VARIANT_LIMIT]; /* whether opening them was tried (since the path was set) */
    char egdb_path[4096];            /* "" = egdb beside the executable */
};

Engine *engine_new(const SearchCallbacks *callbacks)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->callbacks = *callbacks;
    e->pool = pool_new(1);
    for (int i = 0; variant_at(i); i++) e->weights[i] = eval_weights_builtin(variant_at(i));
    if (!e->pool || !tt_resize(&e->tt, 16)) {
        engine_free(e);
        return NULL;
    }
    /* the default table's pages now, at start-up: mapped lazily, the first search would pay for
     * them (and for the kernel's huge-page compaction, tens of ms at times) in its thinking time.
     * A table resized later is faulted by its first search or by ucinewgame's clear. */
    tt_clear(&e->tt);
    engine_set_variant(e, default_variant());
    return e;
}

void engine_free(Engine *e)
{
    if (!e) return;
    if (e->pool) {
        engine_stop(e);
        engine_wait(e);
        pool_free(e->pool);
    }
    tt_free(&e->tt);
    for (int i = 0; i < VARIANT_LIMIT; i++) eval_weights_free(e->loaded[i]), egdb_close(e->egdb[i]);
    free(e->game_keys);
    free(e);
}

const Variant *engine_variant(const Engine *e) { return e->variant; }
const Position *engine_position(const Engine *e) { return &e->position; }

static void stop_and_wait(Engine *e)
{
    engine_stop(e);
    engine_wait(e);
}

static void apply_variant_option(Engine *e, const Variant *v, Position *pos, bool from_start)
{
    if (v->apply_option) v->apply_option(v, pos, e->option_value[variant_index(v)], from_start);
}

void engine_set_variant(Engine *e, const Variant *v)
{
    stop_and_wait(e);
    e->variant = v;
    char err[256];
    Position start;
    if (v->parse_fen(v, v->start_fen, &start, err, sizeof err)) {
        apply_variant_option(e, v, &start, true);
        e->position = start;
    }
    e->game_key_count = 0;
}

void engine_set_variant_option(Engine *e, const Variant *v, int value)
{
    stop_and_wait(e);
    e->option_value[variant_index(v)] = value;
}

bool engine_set_position(Engine *e, const char *fen, char **moves, int move_count, char *err, size_t errlen)
{
    const Variant *v = e->variant;
    Position pos;
    if (!v->parse_fen(v, fen ? fen : v->start_fen, &pos, err, errlen)) return false;
    apply_variant_option(e, v, &pos, fen == NULL);
    uint64_t *keys = NULL;
    int count = 0, capacity = 0;
    for (int i = 0; i < move_count; i++) {
        Move legal[MAX_MOVES];
        int n = v->generate(v, &pos, legal);
        char why[256];
        int index = n ? v->parse_move(v, &pos, moves[i], legal, n, why, sizeof why) : -1;
        if (index < 0) {
            if (!n) snprintf(why, sizeof why, "the game is over");
            snprintf(err, errlen, "move %d '%.40s': %s", i + 1, moves[i], why);
            free(keys);
            return false;
        }
        if (!game_keys_push(&keys, &count, &capacity, pos.key)) {
            snprintf(err, errlen, "out of memory");
            free(keys);
            return false;
        }
        Position next;
        v->make_move(v, &pos, &legal[index], &next);
        pos = next;
    }
    stop_and_wait(e);
    free(e->game_keys);
    e->game_keys = keys;
    e->game_key_count = count;
    e->game_key_capacity = capacity;
    e->position = pos;
    return true;
}

bool engine_set_threads(Engine *e, int threads, char *err, size_t errlen)
{
    stop_and_wait(e);
    if (threads == pool_size(e->pool)) return true;
    ThreadPool *pool = pool_new(threads);
    if (!pool) {
        snprintf(err, errlen, "cannot start %d threads; keeping %d", threads, pool_size(e->pool));
        return false;
    }
    pool_free(e->pool);
    e->pool = pool;
    return true;
}

bool engine_set_hash(Engine *e, size_t megabytes, char *err, size_t errlen)
{
    stop_and_wait(e);
    if (!tt_resize(&e->tt, megabytes)) {
        snprintf(err, errlen, "cannot allocate %zu MB of hash; keeping %zu MB", megabytes, e->tt.megabytes);
        return false;
    }
    return true;
}

bool engine_set_eval_file(Engine *e, const char *path, char *err, size_t errlen)
{
    const Variant *v = e->variant;
    int index = variant_index(v);
    EvalWeights *loaded = NULL;
    bool builtin = !path || !*path || strcmp(path, "<built-in>") == 0;
    if (!builtin && !eval_weights_load(v, path, &loaded, err, errlen)) return false;
    stop_and_wait(e);
    eval_weights_free(e->loaded[index]);
    e->loaded[index] = loaded;
    e->weights[index] = builtin ? eval_weights_builtin(v) : loaded;
    return true;
}

const EvalWeights *engine_weights(const Engine *e) { return e->weights[variant_index(e->variant)]; }

void engine_set_egdb_path(Engine *e, const char *path)
{
    stop_and_wait(e);
    bool default_path = !path || !*path || strcmp(path, "<default>") == 0;
    snprintf(e->egdb_path, sizeof e->egdb_path, "%s", default_path ? "" : path);
    for (int i = 0; i < VARIANT_LIMIT; i++) {
        egdb_close(e->egdb[i]);
        e->egdb[i] = NULL;
        e->egdb_opened[i] = false;
    }
}

bool engine_open_egdb(Engine *e, char *message, size_t len)
{
    int index = variant_index(e->variant);
    if (e->egdb_opened[index] || !draughts_is_variant(e->variant)) return false;
    /* no search of this variant can be using a set that was never opened */
    stop_and_wait(e);
    char directory[4096];
    if (e->egdb_path[0])
        snprintf(directory, sizeof directory, "%s", e->egdb_path);
    else
        egdb_default_directory(directory, sizeof directory);
    e->egdb[index] = egdb_open(e->variant, directory, message, len);
    e->egdb_opened[index] = true;
    return true;
}

const EgdbSet *engine_egdb(const Engine *e) { return e->egdb[variant_index(e->variant)]; }

/* A covered root searches only the moves the databases prefer (the user's searchmoves among them). */
static void keep_database_moves(const EgdbSet *db, const Position *root, SearchLimits *limits)
{
    Move kept[MAX_MOVES];
    int n = egdb_root_moves(db, root, kept, NULL);
    if (!n) return;
    if (!limits->searchmoves_count) {
        memcpy(limits->searchmoves, kept, sizeof(Move) * (size_t)n);
        limits->searchmoves_count = n;
        return;
    }
    int both = 0;
    for (int i = 0; i < limits->searchmoves_count; i++)
        for (int j = 0; j < n; j++)
            if (move_equal(&limits->searchmoves[i], &kept[j])) {
                limits->searchmoves[both++] = limits->searchmoves[i];
                break;
            }
    if (both) limits->searchmoves_count = both; /* none preferred: the user's list stands */
}

void engine_new_game(Engine *e)
{
    stop_and_wait(e);
    tt_clear(&e->tt);
    for (int i = 0; i < pool_size(e->pool); i++) search_thread_clear(pool_thread(e->pool, i));
}

void engine_go(Engine *e, const SearchLimits *limits, int64_t move_overhead)
{
    char message[1024];
    engine_open_egdb(e, message, sizeof message); /* the protocol opened it already and told why */
    stop_and_wait(e);
    SearchShared *s = &e->shared;
    s->variant = e->variant;
    s->root = e->position;
    s->game_keys = e->game_keys;
    s->game_key_count = e->game_key_count;
    s->limits = *limits;
    s->tt = &e->tt;
    s->callbacks = e->callbacks;
    s->quiet = false;
    atomic_store(&s->stop, false);
    atomic_store(&s->pondering, limits->ponder);
    atomic_store(&s->ponder_hit, false);
    s->external_stop = NULL;
    s->weights = e->weights[variant_index(e->variant)];
    /* a weakened search plays its endgames by itself */
    s->egdb = limits->weakened ? NULL : e->egdb[variant_index(e->variant)];
    if (s->egdb) keep_database_moves(s->egdb, &e->position, &s->limits);
    s->start_ms = now_ms();
    int side = e->position.side;
    s->budget = time_budget(limits->movetime, limits->clock[side], limits->increment[side], limits->moves_to_go,
                            move_overhead);
    tt_new_search(&e->tt);
    pool_start(e->pool, s);
}

void engine_stop(Engine *e)
{
    atomic_store(&e->shared.stop, true);
    atomic_store(&e->job.stop, true);
}

void engine_ponderhit(Engine *e)
{
    /* the order matters: the search reads pondering first, then the time of the hit */
    if (!atomic_load(&e->shared.pondering)) return;
    atomic_store(&e->shared.ponderhit_ms, now_ms());
    atomic_store(&e->shared.ponder_hit, true);
    atomic_store(&e->shared.pondering, false);
}

void engine_finish_job(Engine *e)
{
    if (e->job.running) {
        pthread_join(e->job.thread, NULL);
        e->job.running = false;
    }
}

void engine_wait(Engine *e)
{
    pool_wait_idle(e->pool);
    engine_finish_job(e);
}

static void *job_main(void *opaque)
{
    BackgroundJob *job = opaque;
    job->run(job->argument, &job->stop);
    return NULL;
}

bool engine_run_job(Engine *e, EngineJob run, void *argument)
{
    stop_and_wait(e);
    e->job.run = run;
    e->job.argument = argument;
    atomic_store(&e->job.stop, false);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 8u << 20);
    e->job.running = pthread_create(&e->job.thread, &attr, job_main, &e->job) == 0;
    pthread_attr_destroy(&attr);
    return e->job.running;
}

void engine_result(Engine *e, char *out, size_t len)
{
    const char *reason;
    OutcomeKind outcome = game_outcome(e->variant, &e->position, e->game_keys, e->game_key_count, &reason);
    static const char *const names[] = {"none", "white", "black", "draw"};
    if (outcome == OUTCOME_NONE)
        snprintf(out, len, "none");
    else
        snprintf(out, len, "%s %s", names[outcome], reason);
}
