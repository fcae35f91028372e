/*
 * egdb_build.c — retrograde analysis of the draughts endgames (see egdb_build.h).
 *
 * Materials are solved in an order where everything a move leads to is already known: fewer
 * pieces first (captures), then fewer men (a crowning turns a man into a king). A material is
 * solved with both sides to move; its Black-to-move half becomes its colour mirror's table.
 * Inside a material the men configurations go from the most advanced down (men only go forward),
 * so a configuration depends on itself through king moves only:
 *
 *  1. first look: each position's moves come from the engine's own generator; a move that leaves
 *     the configuration (a capture, a man move, a crowning) has a known value, a king's quiet move
 *     stays inside and is only counted;
 *  2. positions that decides (a winning exit, no legal move, no king move and no winning exit)
 *     seed a breadth-first queue; each dequeued win or loss visits its predecessors by a king
 *     move (a king's quiet move is its own inverse, so the quiet moves of the side that just
 *     moved find them): a loss makes a predecessor won, a win takes one from the predecessor's
 *     count of undecided moves and at zero it is lost (drawn when an exit draws);
 *  3. what is still undecided is drawn: neither side can force more than repetition.
 * In that queue order the depth at which a position is decided is its distance to the next
 * capture or man move under best play (dtz): the winner takes the shortest way, the loser the
 * longest — what the move counters of the rules measure.
 *
 * Threads share a material's arrays: a men configuration is written by one thread only (or, for
 * a large one, its first look is split by king placement), and what it reads was finished before.
 */
#include "egdb_build.h"

#include "../bitops.h"
#include "../games/draughts_board.h"
#include "egdb_file.h"
#include "egdb_index.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { UNDECIDED = 3 };            /* besides EGDB_LOSS, EGDB_DRAW, EGDB_WIN */
#define CAPTURES 4                 /* value flag: the side to move must capture (the files need not
                                    * hold such a position's value: a probe finds it through the captures) */
static inline int value_of(uint8_t v) { return v & 3; }
#define DRAWING_EXIT 0x80          /* aux while undecided: an exit draws; low bits: undecided moves */
#define SMALL_CONFIG (1u << 19)    /* king placements under which a configuration is one thread's job */

typedef struct {
    EgdbIndex index;
    uint8_t *wdl;                  /* 2-bit values, White to move */
} Solved;

typedef struct {
    const EgdbBuildOptions *options;
    const Variant *variant;
    const DraughtsRules *rules;
    char directory[4096];
    Solved *solved[EGDB_MATERIAL_CODES];
    const EgdbMaterial *units;     /* the materials to solve, in order (one of each mirror pair) */
    uint64_t work_total, work_done, work_built;
    double started, unit_started, last_report;
    double build_seconds;          /* spent on materials this run built, before the current one */
    int unit_number, unit_count;
} Builder;

typedef struct {
    Builder *b;
    EgdbMaterial material;
    EgdbIndex *ix;
    uint8_t *value[2];             /* by side to move: EGDB_LOSS/DRAW/WIN or UNDECIDED, | CAPTURES */
    uint8_t *aux[2];               /* undecided: DRAWING_EXIT | moves left; decided: dtz */
} Unit;

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int get2(const uint8_t *packed, uint64_t i) { return (packed[i >> 2] >> ((i & 3) * 2)) & 3; }

/* The value of a position of a solved material (its side to move may have no piece left). */
static int solved_value(const Builder *b, const DraughtsBoard *board, int side)
{
    if (!board->pieces[side]) return EGDB_LOSS;
    DraughtsBoard turned;
    if (side == SIDE_BLACK) {
        egdb_mirror(b->rules, board, &turned);
        board = &turned;
    }
    const Solved *s = b->solved[egdb_material_code(egdb_material_of(board))];
    if (!s) {
        /* the order of materials guarantees this never happens */
        fprintf(stderr, "egdb build: internal error: a move leads to an unsolved material\n");
        abort();
    }
    return get2(s->wdl, egdb_index_of(&s->index, board));
}

/* ------------------------------------------------------------------ threads */

typedef struct {
    void (*work)(void *context, int thread, uint64_t begin, uint64_t end);
    void *context;
    uint64_t count, chunk;
    atomic_ullong next;
    int id;
} ParallelJob;

typedef struct {
    ParallelJob *job;
    int thread;
} ParallelWorker;

static void *parallel_worker(void *opaque)
{
    ParallelWorker *w = opaque;
    ParallelJob *job = w->job;
    for (;;) {
        uint64_t begin = atomic_fetch_add(&job->next, job->chunk);
        if (begin >= job->count) break;
        uint64_t end = begin + job->chunk < job->count ? begin + job->chunk : job->count;
        job->work(job->context, w->thread, begin, end);
    }
    return NULL;
}

/* Runs work over [0, count) in chunks on `threads` threads (the caller is thread 0). */
static void parallel_for(int threads, uint64_t count, uint64_t chunk, void (*work)(void *, int, uint64_t, uint64_t),
                         void *context)
{
    ParallelJob job = {work, context, count, chunk ? chunk : 1, 0, 0};
    atomic_store(&job.next, 0);
    pthread_t ids[64];
    ParallelWorker workers[64];
    if (threads > 64) threads = 64;
    int started = 1;
    for (int i = 1; i < threads && (uint64_t)i * job.chunk < count; i++) {
        workers[i] = (ParallelWorker){&job, i};
        if (pthread_create(&ids[i], NULL, parallel_worker, &workers[i]) != 0) break;
        started++;
    }
    workers[0] = (ParallelWorker){&job, 0};
    parallel_worker(&workers[0]);
    for (int i = 1; i < started; i++) pthread_join(ids[i], NULL);
}

/* ------------------------------------------------------------------ solving a configuration */

typedef struct {
    uint32_t *queue;               /* king index · 2 + side */
    Move moves[MAX_MOVES];
} Scratch;

/* Step 1 for one position. */
static void first_look(Unit *u, uint64_t index, const DraughtsBoard *board, int side, Move *list)
{
    const Variant *v = u->b->variant;
    Position pos;
    draughts_setup(v, &pos, board->pieces[SIDE_WHITE], board->pieces[SIDE_BLACK], board->kings, side);
    bool captures = draughts_has_capture(v, &pos);
    int n = captures ? v->generate(v, &pos, list) : draughts_quiet_moves(v, &pos, list);
    int inside = 0, flags = captures ? CAPTURES : 0;
    bool draw = false;
    for (int i = 0; i < n; i++) {
        const Move *m = &list[i];
        if (!m->bits && (board->kings & BIT(m->from))) {
            inside++;
            continue;
        }
        Position child;
        v->make_move(v, &pos, m, &child);
        int value = !m->bits && !(m->flags & MOVE_PROMOTES)
                        ? value_of(u->value[side ^ 1][egdb_index_of(u->ix, CBOARD(&child))]) /* a man's step */
                        : solved_value(u->b, CBOARD(&child), side ^ 1);
        if (value == EGDB_LOSS) {
            u->value[side][index] = (uint8_t)(EGDB_WIN | flags);
            u->aux[side][index] = 0;
            return;
        }
        if (value == UNDECIDED) {
            fprintf(stderr, "egdb build: internal error: a man move leads to an unsolved configuration\n");
            abort();
        }
        draw |= value == EGDB_DRAW;
    }
    if (!inside) {
        u->value[side][index] = (uint8_t)((draw ? EGDB_DRAW : EGDB_LOSS) | flags);
        u->aux[side][index] = 0;
        return;
    }
    if (inside >= DRAWING_EXIT) {
        /* 127 king moves: more kings than any table this format is meant for */
        fprintf(stderr, "egdb build: too many king moves in one position (%d)\n", inside);
        abort();
    }
    u->value[side][index] = UNDECIDED;
    u->aux[side][index] = (uint8_t)(inside | (draw ? DRAWING_EXIT : 0));
}

typedef struct {
    Unit *u;
    uint64_t men_index, white_men, black_men;
    Scratch **scratch;
} ConfigJob;

static void first_look_range(Unit *u, uint64_t men_index, uint64_t white_men, uint64_t black_men, uint64_t begin,
                             uint64_t end, Move *list)
{
    uint64_t base = men_index * u->ix->king_configs;
    EgdbKingFrame frame;
    egdb_king_frame(u->b->rules->board_mask, white_men | black_men, &frame);
    EgdbKingWalk walk;
    egdb_king_walk_start(&walk, u->ix, &frame, begin);
    for (uint64_t k = begin; k < end; k++, egdb_king_walk_next(&walk)) {
        uint64_t white_kings, black_kings;
        egdb_king_walk_kings(&walk, &white_kings, &black_kings);
        DraughtsBoard board = {{white_men | white_kings, black_men | black_kings}, white_kings | black_kings};
        first_look(u, base + k, &board, SIDE_WHITE, list);
        first_look(u, base + k, &board, SIDE_BLACK, list);
    }
}

static void first_look_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    ConfigJob *job = context;
    first_look_range(job->u, job->men_index, job->white_men, job->black_men, begin, end, job->scratch[thread]->moves);
}

/* Steps 2 and 3 for one configuration whose first look is done. */
static void settle(Unit *u, uint64_t men_index, uint64_t white_men, uint64_t black_men, Scratch *scratch)
{
    const Variant *v = u->b->variant;
    const EgdbIndex *ix = u->ix;
    uint64_t kings = ix->king_configs, base = men_index * kings;
    uint32_t *queue = scratch->queue;
    EgdbKingFrame frame;
    egdb_king_frame(u->b->rules->board_mask, white_men | black_men, &frame);
    uint64_t head = 0, tail = 0;
    for (uint64_t k = 0; k < kings; k++)
        for (int side = 0; side < 2; side++)
            if (value_of(u->value[side][base + k]) == EGDB_WIN || value_of(u->value[side][base + k]) == EGDB_LOSS)
                queue[tail++] = (uint32_t)(k * 2 + (uint64_t)side);
    if (ix->material.white_kings + ix->material.black_kings > 0) {
        while (head < tail) {
            uint32_t entry = queue[head++];
            uint64_t k = entry >> 1;
            int side = entry & 1, mover = side ^ 1;
            int value = value_of(u->value[side][base + k]);
            int depth = u->aux[side][base + k];
            int next_depth = depth < EGDB_DTZ_MAX ? depth + 1 : EGDB_DTZ_MAX;
            uint64_t kings_of[2];
            egdb_frame_kings_of(ix, &frame, k, &kings_of[SIDE_WHITE], &kings_of[SIDE_BLACK]);
            if (!kings_of[mover]) continue;
            Position pos;
            draughts_setup(v, &pos, white_men | kings_of[SIDE_WHITE], black_men | kings_of[SIDE_BLACK],
                           kings_of[SIDE_WHITE] | kings_of[SIDE_BLACK], mover);
            int n = draughts_quiet_moves(v, &pos, scratch->moves);
            for (int i = 0; i < n; i++) {
                const Move *m = &scratch->moves[i];
                if (!(kings_of[mover] & BIT(m->from))) continue;
                uint64_t before[2] = {kings_of[0], kings_of[1]};
                before[mover] ^= BIT(m->from) | BIT(m->to);
                uint64_t p = base + egdb_frame_king_index(ix, &frame, before[SIDE_WHITE], before[SIDE_BLACK]);
                if (value_of(u->value[mover][p]) != UNDECIDED) continue;
                if (value == EGDB_LOSS) {
                    u->value[mover][p] = EGDB_WIN;
                    u->aux[mover][p] = (uint8_t)next_depth;
                    queue[tail++] = (uint32_t)((p - base) * 2 + (uint64_t)mover);
                    continue;
                }
                uint8_t aux = u->aux[mover][p];
                if ((aux & ~DRAWING_EXIT) > 1) {
                    u->aux[mover][p] = (uint8_t)(aux - 1);
                } else if (aux & DRAWING_EXIT) {
                    u->value[mover][p] = EGDB_DRAW;
                    u->aux[mover][p] = 0;
                } else {
                    u->value[mover][p] = EGDB_LOSS;
                    u->aux[mover][p] = (uint8_t)next_depth;
                    queue[tail++] = (uint32_t)((p - base) * 2 + (uint64_t)mover);
                }
            }
        }
    }
    for (uint64_t k = 0; k < kings; k++)
        for (int side = 0; side < 2; side++)
            if (value_of(u->value[side][base + k]) == UNDECIDED) {
                u->value[side][base + k] = EGDB_DRAW;
                u->aux[side][base + k] = 0;
            }
}

typedef struct {
    Unit *u;
    const uint64_t *configs;
    Scratch **scratch;
} LevelJob;

static void small_configs_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    LevelJob *job = context;
    for (uint64_t i = begin; i < end; i++) {
        uint64_t white_men, black_men;
        egdb_men_of(job->u->ix, job->configs[i], &white_men, &black_men);
        first_look_range(job->u, job->configs[i], white_men, black_men, 0, job->u->ix->king_configs,
                         job->scratch[thread]->moves);
        settle(job->u, job->configs[i], white_men, black_men, job->scratch[thread]);
    }
}

/* ------------------------------------------------------------------ progress */

static void format_duration(double seconds, char *out, size_t len)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(out, len, "%ldm%02lds", s / 60, s % 60);
    else
        snprintf(out, len, "%lds", s);
}

static void format_count(double n, char *out, size_t len)
{
    if (n >= 1e9)
        snprintf(out, len, "%.2fG", n / 1e9);
    else if (n >= 1e6)
        snprintf(out, len, "%.1fM", n / 1e6);
    else if (n >= 1e3)
        snprintf(out, len, "%.1fk", n / 1e3);
    else
        snprintf(out, len, "%.0f", n);
}

/* "62% done, 3m10s so far, about 2m05s to go" from the rate of what this run built. */
static void progress_text(const Builder *b, uint64_t extra_done, char *out, size_t len)
{
    double now = seconds_now(), done = (double)(b->work_done + extra_done);
    double built = (double)(b->work_built + extra_done), spent = b->build_seconds + (now - b->unit_started);
    char elapsed[32], eta[32];
    format_duration(now - b->started, elapsed, sizeof elapsed);
    if (built > 0 && spent > 0.5) {
        format_duration(((double)b->work_total - done) * spent / built, eta, sizeof eta);
        snprintf(out, len, "%.0f%% done, %s so far, about %s to go", 100.0 * done / (double)b->work_total, elapsed, eta);
    } else
        snprintf(out, len, "%.0f%% done, %s so far", 100.0 * done / (double)b->work_total, elapsed);
}

/* ------------------------------------------------------------------ materials */

static void material_path(const Builder *b, EgdbMaterial m, const char *extension, char *out, size_t len)
{
    char name[64];
    egdb_material_name(m, name, sizeof name);
    snprintf(out, len, "%s/%s.%s", b->directory, name, extension);
}

static Solved *solved_new(const DraughtsRules *r, EgdbMaterial m)
{
    Solved *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (!egdb_index_init(&s->index, r, m) || !(s->wdl = calloc(1, (size_t)(s->index.size + 3) / 4 + 1))) {
        egdb_index_free(&s->index);
        free(s);
        return NULL;
    }
    return s;
}

static void solved_free(Solved *s)
{
    if (!s) return;
    egdb_index_free(&s->index);
    free(s->wdl);
    free(s);
}

/* A file leaves free the value of a position that must capture: a resumed build finds it again
 * from the captures (smaller materials, already complete). Over ranges of whole bytes. */
typedef struct {
    Builder *b;
    Solved *s;
} Completion;

static void complete_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    (void)thread;
    Completion *c = context;
    const Variant *v = c->b->variant;
    const EgdbIndex *ix = &c->s->index;
    Move list[MAX_MOVES];
    uint64_t config = UINT64_MAX, white_men = 0, black_men = 0;
    EgdbKingFrame frame;
    EgdbKingWalk walk;
    for (uint64_t i = begin; i < end; i++) {
        if (i / ix->king_configs != config) {
            config = i / ix->king_configs;
            egdb_men_of(ix, config, &white_men, &black_men);
            egdb_king_frame(c->b->rules->board_mask, white_men | black_men, &frame);
            egdb_king_walk_start(&walk, ix, &frame, i % ix->king_configs);
        } else
            egdb_king_walk_next(&walk);
        uint64_t white_kings, black_kings;
        egdb_king_walk_kings(&walk, &white_kings, &black_kings);
        Position pos;
        draughts_setup(v, &pos, white_men | white_kings, black_men | black_kings, white_kings | black_kings, SIDE_WHITE);
        if (!draughts_has_capture(v, &pos)) continue;
        int n = v->generate(v, &pos, list);
        int best = EGDB_LOSS;
        for (int k = 0; k < n && best != EGDB_WIN; k++) {
            Position child;
            v->make_move(v, &pos, &list[k], &child);
            int value = solved_value(c->b, CBOARD(&child), SIDE_BLACK);
            if (value == EGDB_LOSS) best = EGDB_WIN;
            if (value == EGDB_DRAW) best = EGDB_DRAW;
        }
        c->s->wdl[i >> 2] = (uint8_t)((c->s->wdl[i >> 2] & ~(3 << ((i & 3) * 2))) | best << ((i & 3) * 2));
    }
}

/* Whether the material's files are there and sound (a resumed build), its values left unread. */
static bool files_finished(Builder *b, EgdbMaterial m)
{
    EgdbIndex ix;
    if (!egdb_index_init(&ix, b->rules, m)) return false;
    uint64_t size = ix.size;
    egdb_index_free(&ix);
    static const struct {
        const char *extension;
        EgdbKind kind;
    } files[2] = {{"dtz", EGDB_KIND_DTZ}, {"wdl", EGDB_KIND_WDL}};
    for (int f = 0; f < 2; f++) {
        char path[4200], err[512];
        EgdbTableFile t;
        material_path(b, m, files[f].extension, path, sizeof path);
        if (!egdb_table_read(&t, path, files[f].kind, b->variant->name, m, size, err, sizeof err)) return false;
        egdb_table_free(&t);
    }
    return true;
}

/* Reads the material's finished files (a resumed build); false when they are not all there and sound. */
static bool read_finished(Builder *b, EgdbMaterial m)
{
    Solved *s = solved_new(b->rules, m);
    if (!s) return false;
    char path[4200], err[512];
    EgdbTableFile wdl, dtz;
    material_path(b, m, "dtz", path, sizeof path);
    if (!egdb_table_read(&dtz, path, EGDB_KIND_DTZ, b->variant->name, m, s->index.size, err, sizeof err)) {
        solved_free(s);
        return false;
    }
    egdb_table_free(&dtz);
    material_path(b, m, "wdl", path, sizeof path);
    bool ok = egdb_table_read(&wdl, path, EGDB_KIND_WDL, b->variant->name, m, s->index.size, err, sizeof err) &&
              egdb_table_unpack(&wdl, s->wdl);
    egdb_table_free(&wdl);
    if (!ok) {
        solved_free(s);
        return false;
    }
    Completion c = {b, s};
    parallel_for(b->options->threads, s->index.size, 1 << 16, complete_work, &c);
    b->solved[egdb_material_code(m)] = s;
    return true;
}

/* The unit's values turned into a White-to-move table: of the material itself (its White-to-move
 * half) or of its mirror (its Black-to-move half, each position turned). */
typedef struct {
    const Unit *u;
    const EgdbIndex *target;
    uint8_t *value;        /* a byte each, by the target's numbers */
    uint8_t *dtz;
    uint8_t *packed;       /* the values 2 bits each */
    atomic_ullong mismatches;
} Extract;

static void copy_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    (void)thread;
    Extract *x = context;
    memcpy(x->value + begin, x->u->value[SIDE_WHITE] + begin, (size_t)(end - begin));
    memcpy(x->dtz + begin, x->u->aux[SIDE_WHITE] + begin, (size_t)(end - begin));
}

/* Over men configurations of the unit, each position turned into its colour mirror: either the
 * Black-to-move value goes to the mirror material's number (every target number is written
 * once, so threads never share a byte), or, for a symmetric material, it is checked against the
 * White-to-move value of the mirror position — a check of the whole solution. */
static void turned_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    (void)thread;
    Extract *x = context;
    const Unit *u = x->u;
    const EgdbIndex *ix = u->ix;
    bool checking = x->target == ix;
    uint64_t wrong = 0;
    for (uint64_t c = begin; c < end; c++) {
        uint64_t white_men, black_men;
        egdb_men_of(ix, c, &white_men, &black_men);
        EgdbKingFrame frame;
        egdb_king_frame(u->b->rules->board_mask, white_men | black_men, &frame);
        EgdbKingWalk walk;
        egdb_king_walk_start(&walk, ix, &frame, 0);
        for (uint64_t k = 0; k < ix->king_configs; k++, egdb_king_walk_next(&walk)) {
            uint64_t white_kings, black_kings;
            egdb_king_walk_kings(&walk, &white_kings, &black_kings);
            DraughtsBoard board = {{white_men | white_kings, black_men | black_kings}, white_kings | black_kings}, turned;
            egdb_mirror(u->b->rules, &board, &turned);
            uint64_t i = c * ix->king_configs + k, j = egdb_index_of(x->target, &turned);
            if (checking)
                wrong += u->value[SIDE_BLACK][j] != u->value[SIDE_WHITE][i] || u->aux[SIDE_BLACK][j] != u->aux[SIDE_WHITE][i];
            else {
                x->value[j] = u->value[SIDE_BLACK][i];
                x->dtz[j] = u->aux[SIDE_BLACK][i];
            }
        }
    }
    if (wrong) atomic_fetch_add(&x->mismatches, wrong);
}

static void pack_work(void *context, int thread, uint64_t begin, uint64_t end)
{
    (void)thread;
    Extract *x = context;
    /* chunks are multiples of 4 positions: whole bytes */
    for (uint64_t i = begin; i < end; i++) x->packed[i >> 2] |= (uint8_t)(value_of(x->value[i]) << ((i & 3) * 2));
}

/* The files of one material (White to move). What a probe finds in a move or two is left free,
 * which makes the runs long: the value of a position that must capture (a probe plays the
 * captures), and the dtz of all but the won positions that take a king move to convert (a lost
 * position's dtz follows from its king moves, a win by a capture or man move is 0, a draw has
 * none). */
static bool write_tables(Builder *b, EgdbMaterial m, const Solved *s, const uint8_t *value, const uint8_t *dtz, char *err,
                         size_t errlen)
{
    char path[4200];
    EgdbWriter w;
    if (!egdb_writer_start(&w, EGDB_KIND_DTZ, s->index.size)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int longest = 0;
    for (uint64_t i = 0; i < s->index.size; i++) {
        if (value_of(value[i]) != EGDB_DRAW && dtz[i] > longest) longest = dtz[i];
        egdb_writer_put(&w, value_of(value[i]) != EGDB_WIN || dtz[i] == 0 || (value[i] & CAPTURES) ? EGDB_ANY : dtz[i]);
    }
    w.longest = longest;
    material_path(b, m, "dtz", path, sizeof path);
    if (!egdb_writer_finish(&w, path, b->variant->name, m, err, errlen)) return false;
    if (!egdb_writer_start(&w, EGDB_KIND_WDL, s->index.size)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (uint64_t i = 0; i < s->index.size; i++) egdb_writer_put(&w, (value[i] & CAPTURES) ? EGDB_ANY : value_of(value[i]));
    /* the wdl file last: it is what marks the material finished */
    material_path(b, m, "wdl", path, sizeof path);
    return egdb_writer_finish(&w, path, b->variant->name, m, err, errlen);
}

/* Solves material m (and its mirror) and writes their files. */
static bool build_unit(Builder *b, EgdbMaterial m, char *err, size_t errlen)
{
    const int threads = b->options->threads;
    Unit unit = {.b = b, .material = m};
    Unit *u = &unit;
    EgdbIndex ix;
    if (!egdb_index_init(&ix, b->rules, m)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    u->ix = &ix;
    uint64_t size = ix.size;
    bool ok = true;
    uint64_t *configs = NULL, *level_start = NULL;
    Scratch **scratch = calloc((size_t)threads, sizeof *scratch);
    for (int side = 0; side < 2; side++) {
        u->value[side] = malloc((size_t)size + 1);
        u->aux[side] = malloc((size_t)size + 1);
        if (!u->value[side] || !u->aux[side]) ok = false;
    }
    /* men configurations by advancement, highest first */
    const int level_count = EGDB_PIECES_MAX * 10 + 1;
    configs = malloc(sizeof *configs * (size_t)ix.men_configs);
    level_start = calloc((size_t)level_count + 1, sizeof *level_start);
    uint8_t *level_of = malloc((size_t)ix.men_configs + 1);
    bool small = ix.king_configs <= SMALL_CONFIG;
    for (int t = 0; ok && scratch && t < threads; t++) {
        scratch[t] = malloc(sizeof **scratch);
        if (!scratch[t]) {
            ok = false;
            break;
        }
        scratch[t]->queue = t == 0 || small ? malloc(sizeof(uint32_t) * 2 * (size_t)ix.king_configs) : NULL;
        if ((t == 0 || small) && !scratch[t]->queue) ok = false;
    }
    if (!ok || !scratch || !configs || !level_start || !level_of) {
        snprintf(err, errlen, "out of memory for %" PRIu64 " positions", size);
        ok = false;
        goto done;
    }
    for (uint64_t c = 0; c < ix.men_configs; c++) {
        uint64_t white_men, black_men;
        egdb_men_of(&ix, c, &white_men, &black_men);
        level_of[c] = (uint8_t)(level_count - 1 - egdb_men_advancement(b->rules, white_men, black_men));
        level_start[level_of[c] + 1]++;
    }
    for (int l = 0; l < level_count; l++) level_start[l + 1] += level_start[l];
    {
        uint64_t *fill = calloc((size_t)level_count, sizeof *fill);
        if (!fill) {
            snprintf(err, errlen, "out of memory");
            ok = false;
            goto done;
        }
        for (uint64_t c = 0; c < ix.men_configs; c++) configs[level_start[level_of[c]] + fill[level_of[c]]++] = c;
        free(fill);
    }
    for (int l = 0; l < level_count; l++) {
        uint64_t first = level_start[l], count = level_start[l + 1] - first;
        if (!count) continue;
        if (small) {
            LevelJob job = {u, configs + first, scratch};
            parallel_for(threads, count, count / (uint64_t)(threads * 8) + 1, small_configs_work, &job);
        } else
            for (uint64_t i = 0; i < count; i++) {
                ConfigJob job = {u, configs[first + i], 0, 0, scratch};
                egdb_men_of(&ix, job.men_index, &job.white_men, &job.black_men);
                parallel_for(threads, ix.king_configs, 4096, first_look_work, &job);
                settle(u, job.men_index, job.white_men, job.black_men, scratch[0]);
                if (seconds_now() - b->last_report > 30) {
                    char name[64], progress[160];
                    egdb_material_name(m, name, sizeof name);
                    progress_text(b, 2 * ix.king_configs * (first + i + 1), progress, sizeof progress);
                    fprintf(b->options->log, "  %s %s: %.0f%% of the material; %s\n", b->variant->name, name,
                            100.0 * (double)(first + i + 1) / (double)ix.men_configs, progress);
                    fflush(b->options->log);
                    b->last_report = seconds_now();
                }
            }
    }

    /* the tables of m and of its mirror, and their files */
    EgdbMaterial mirror = egdb_material_mirror(m);
    bool symmetric = egdb_material_equal(m, mirror);
    for (int half = 0; half < (symmetric ? 1 : 2) && ok; half++) {
        EgdbMaterial target = half == 0 ? m : mirror;
        Solved *s = solved_new(b->rules, target);
        uint8_t *dtz = malloc((size_t)size + 1);
        if (!s || !dtz) {
            snprintf(err, errlen, "out of memory");
            solved_free(s);
            free(dtz);
            ok = false;
            break;
        }
        uint8_t *value = malloc((size_t)size + 1);
        Extract x = {u, &s->index, value, dtz, s->wdl, 0};
        atomic_store(&x.mismatches, 0);
        if (!value) {
            snprintf(err, errlen, "out of memory");
            ok = false;
        } else if (half == 0)
            parallel_for(threads, size, 1 << 20, copy_work, &x);
        else
            parallel_for(threads, ix.men_configs, ix.men_configs / (uint64_t)(threads * 16) + 1, turned_work, &x);
        if (ok) parallel_for(threads, size, 1 << 20, pack_work, &x);
        if (ok && symmetric) {
            x.target = &ix;
            parallel_for(threads, ix.men_configs, ix.men_configs / (uint64_t)(threads * 16) + 1, turned_work, &x);
            if (atomic_load(&x.mismatches)) {
                char name[64];
                egdb_material_name(m, name, sizeof name);
                snprintf(err, errlen, "internal error: %s: %" PRIu64 " positions differ from their colour mirror", name,
                         (uint64_t)atomic_load(&x.mismatches));
                ok = false;
            }
        }
        if (ok) ok = write_tables(b, target, s, value, dtz, err, errlen);
        free(value);
        free(dtz);
        if (ok) {
            /* (a resumed build may have read one half of the pair) */
            solved_free(b->solved[egdb_material_code(target)]);
            b->solved[egdb_material_code(target)] = s;
        } else
            solved_free(s);
    }
done:
    for (int t = 0; scratch && t < threads; t++) {
        if (scratch[t]) free(scratch[t]->queue);
        free(scratch[t]);
    }
    free(scratch);
    free(configs);
    free(level_start);
    free(level_of);
    for (int side = 0; side < 2; side++) {
        free(u->value[side]);
        free(u->aux[side]);
    }
    egdb_index_free(&ix);
    return ok;
}

/* ------------------------------------------------------------------ the whole build */

/* The materials of a build in solving order: pieces, then men, rising; one of each mirror pair. */
static int list_units(const DraughtsRules *r, int pieces, EgdbMaterial *out, int max)
{
    int count = 0;
    for (int n = 2; n <= pieces; n++)
        for (int men = 0; men <= n; men++)
            for (int white = 1; white < n; white++)
                for (int wm = 0; wm <= white; wm++) {
                    int bm = men - wm, black = n - white;
                    if (bm < 0 || bm > black) continue;
                    EgdbMaterial m = {wm, white - wm, bm, black - bm};
                    EgdbMaterial mirror = egdb_material_mirror(m);
                    /* the pair once: the one whose mirror does not sort before it */
                    if (egdb_material_code(mirror) < egdb_material_code(m)) continue;
                    if (!egdb_material_fits(r, m) || count == max) continue;
                    out[count++] = m;
                }
    return count;
}

static bool make_directory(const char *path)
{
    char partial[4096];
    snprintf(partial, sizeof partial, "%s", path);
    for (char *p = partial + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(partial, 0777) != 0 && errno != EEXIST) return false;
            *p = '/';
        }
    return mkdir(partial, 0777) == 0 || errno == EEXIST;
}

/* The positions of a unit, both sides to move (0 when out of memory: counted by the caller). */
static uint64_t unit_work(const Builder *b, EgdbMaterial m)
{
    EgdbIndex ix;
    if (!egdb_index_init(&ix, b->rules, m)) return 0;
    uint64_t work = 2 * ix.size;
    egdb_index_free(&ix);
    return work;
}

/* Builds unit i of the list (and its mirror) and says how it went. */
static bool build_and_report(Builder *b, int i, char *err, size_t errlen)
{
    const EgdbBuildOptions *options = b->options;
    EgdbMaterial m = b->units[i], mirror = egdb_material_mirror(m);
    bool symmetric = egdb_material_equal(m, mirror);
    uint64_t work = unit_work(b, m);
    char name[64], mirror_name[64], progress[160], rate[32], positions[32];
    egdb_material_name(m, name, sizeof name);
    egdb_material_name(mirror, mirror_name, sizeof mirror_name);
    double started = seconds_now();
    b->unit_started = b->last_report = started;
    bool ok = build_unit(b, m, err, errlen);
    double spent = seconds_now() - started;
    b->build_seconds += spent;
    b->unit_started = seconds_now();
    b->work_done += work;
    b->work_built += work;
    if (!ok) return false;
    format_count((double)work, positions, sizeof positions);
    format_count(spent > 0 ? (double)work / spent : 0, rate, sizeof rate);
    progress_text(b, 0, progress, sizeof progress);
    fprintf(options->log, "%s [%d/%d] %s%s%s: %s positions in %.1fs (%s/s); %s\n", b->variant->name, i + 1,
            b->unit_count, name, symmetric ? "" : " and ", symmetric ? "" : mirror_name, positions, spent, rate,
            progress);
    fflush(options->log);
    return true;
}

bool egdb_build(const EgdbBuildOptions *options, char *err, size_t errlen)
{
    egdb_index_tables_init();
    Builder *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    b->options = options;
    b->variant = options->variant;
    b->rules = RULES(options->variant);
    snprintf(b->directory, sizeof b->directory, "%s/%s", options->directory, options->variant->name);
    bool ok = make_directory(b->directory);
    if (!ok) snprintf(err, errlen, "cannot make the folder %s: %s", b->directory, strerror(errno));
    static EgdbMaterial units[4096];
    int count = ok ? list_units(b->rules, options->pieces, units, 4096) : 0;
    b->units = units;
    for (int i = 0; i < count; i++) {
        EgdbIndex ix;
        if (!egdb_index_init(&ix, b->rules, units[i])) continue;
        b->work_total += 2 * ix.size;
        egdb_index_free(&ix);
    }
    b->started = b->last_report = b->unit_started = seconds_now();
    b->unit_count = count;
    /* materials finished before are only read (and their free values found again) when a later one
     * must be built: a finished set is checked, not loaded */
    static bool unread[4096];
    for (int i = 0; i < count && ok; i++) {
        EgdbMaterial m = units[i], mirror = egdb_material_mirror(m);
        bool symmetric = egdb_material_equal(m, mirror);
        char name[64], mirror_name[64];
        egdb_material_name(m, name, sizeof name);
        egdb_material_name(mirror, mirror_name, sizeof mirror_name);
        unread[i] = files_finished(b, m) && (symmetric || files_finished(b, mirror));
        if (unread[i]) {
            b->work_done += unit_work(b, m);
            fprintf(options->log, "%s [%d/%d] %s%s%s: finished before\n", b->variant->name, i + 1, count, name,
                    symmetric ? "" : " and ", symmetric ? "" : mirror_name);
            fflush(options->log);
            continue;
        }
        double started = seconds_now();
        int read = 0;
        for (int j = 0; j < i && ok; j++) {
            if (!unread[j]) continue;
            unread[j] = false;
            EgdbMaterial earlier = units[j], earlier_mirror = egdb_material_mirror(earlier);
            if (read_finished(b, earlier) &&
                (egdb_material_equal(earlier, earlier_mirror) || read_finished(b, earlier_mirror))) {
                read++;
                continue;
            }
            /* changed since it was checked: built again (its work was counted as done) */
            b->work_done -= unit_work(b, earlier);
            ok = build_and_report(b, j, err, errlen);
        }
        if (read) {
            fprintf(options->log, "%s: read the %d materials finished before in %.1fs\n", b->variant->name, read,
                    seconds_now() - started);
            fflush(options->log);
        }
        if (ok) ok = build_and_report(b, i, err, errlen);
    }
    if (ok) {
        char elapsed[32], total[32];
        format_duration(seconds_now() - b->started, elapsed, sizeof elapsed);
        format_count((double)b->work_total, total, sizeof total);
        fprintf(options->log, "%s: up to %d pieces done in %s (%d materials and their mirrors, %s positions) in %s\n",
                b->variant->name, options->pieces, elapsed, count, total, b->directory);
    }
    for (int i = 0; i < EGDB_MATERIAL_CODES; i++) solved_free(b->solved[i]);
    free(b);
    return ok;
}
