/*
 * selfplay.c — `donjon selfplay`: training data from Donjon's own games.
 *
 * Games of one variant are played between fixed-budget searches (nodes or depth per move),
 * each from a diverse start (an opening of the shipped sets and/or random plies), one game per
 * thread at a time, with adjudication (a proven win, a score beyond --resign-score for
 * --resign-plies plies in a row, the ply limit). Every quiet position of the game proper
 * (nothing forced on the side to move, such as a compulsory capture, and a best move that is
 * no capture or exit) is written with the game's result and the search's score to a data
 * shard (dataset.h).
 *
 * A shard is the games [first-game, first-game + games) of a seed: game g's start and
 * everything after it depend only on (seed, g) and the settings, so shards made on different
 * machines (GNU Parallel, a Slurm array) never repeat each other, and a shard made again is the
 * same file whatever the thread count (games are written in their order). Interrupted
 * (SIGINT, SIGTERM), it finishes the games under way and closes a valid, shorter shard.
 */
#include "../eval_weights.h"
#include "../outcome.h"
#include "../search.h"
#include "../timeman.h"
#include "dataset.h"
#include "options.h"
#include "tools.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    Position start;
    Move moves[64];
    int move_count;
} Opening;

/* Set by SIGINT or SIGTERM: no new game starts, the games under way finish, and the shard is
 * closed with the games finished in order (the one flag a signal handler may touch). */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

typedef struct {
    DatasetRecord *records;
    int count;
    bool done;
} FinishedGame;

typedef struct {
    const Variant *variant;
    const EvalWeights *weights;
    SearchLimits limits;
    uint64_t weak_nodes; /* the weaker side's nodes a move, or 0: both sides search alike */
    bool weak_hand_set;  /* the weaker side evaluates with the hand-set evaluation (weights NULL) */
    const EvalWeights *weak_weights; /* or with these weights (NULL: the same as the other side) */
    uint64_t seed, first_game, games;
    int random_plies, max_plies, resign_score, resign_plies, hash_mb;
    Opening *openings;
    int opening_count;

    atomic_ullong next_game;
    pthread_mutex_t lock;       /* guards everything below */
    FinishedGame *finished;     /* by game number in the shard */
    uint64_t next_to_write, games_done, positions, wins[3];
    uint64_t stronger_wins[3]; /* with --weak-nodes: the stronger side's losses, draws and wins */
    DatasetWriter *writer;
    bool write_failed;
} SelfPlay;

/* Random plies before a game proper: enough to spread the starts, few enough to stay sound. */
static int default_random_plies(const Variant *v)
{
    if (strcmp(v->name, "international") == 0) return 8;
    if (strncmp(v->name, "ecroulement", 11) == 0) return 4;
    return 6;
}

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------------ openings */

static bool read_openings(SelfPlay *sp, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return false;
    }
    const Variant *v = sp->variant;
    char line[8192];
    int number = 0, capacity = 0;
    while (fgets(line, sizeof line, f)) {
        number++;
        char *text = line;
        while (*text == ' ' || *text == '\t') text++;
        text[strcspn(text, "\r\n")] = 0;
        if (!*text || *text == '#') continue;
        char *bar = strchr(text, '|');
        char *moves = bar ? bar + 1 : text + strlen(text);
        if (bar) *bar = 0;
        for (char *end = text + strlen(text); end > text && end[-1] == ' ';) *--end = 0;
        Opening o;
        char err[256];
        if (!v->parse_fen(v, strcmp(text, "startpos") == 0 || !*text ? v->start_fen : text, &o.start, err, sizeof err)) {
            fprintf(stderr, "%s:%d: %s\n", path, number, err);
            fclose(f);
            return false;
        }
        o.move_count = 0;
        Position pos = o.start;
        for (char *save = NULL, *word = strtok_r(moves, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
            Move legal[MAX_MOVES];
            int n = v->generate(v, &pos, legal);
            int index = n ? v->parse_move(v, &pos, word, legal, n, err, sizeof err) : -1;
            if (index < 0 || o.move_count == 64) {
                fprintf(stderr, "%s:%d: %s\n", path, number, index < 0 ? err : "more than 64 moves");
                fclose(f);
                return false;
            }
            o.moves[o.move_count++] = legal[index];
            Position next;
            v->make_move(v, &pos, &legal[index], &next);
            pos = next;
        }
        if (sp->opening_count == capacity) {
            capacity = capacity ? 2 * capacity : 32;
            Opening *grown = realloc(sp->openings, sizeof *grown * (size_t)capacity);
            if (!grown) {
                fclose(f);
                return false;
            }
            sp->openings = grown;
        }
        sp->openings[sp->opening_count++] = o;
    }
    fclose(f);
    if (!sp->opening_count) fprintf(stderr, "%s: no openings\n", path);
    return sp->opening_count > 0;
}

/* ------------------------------------------------------------------ one game */

typedef struct {
    SelfPlay *sp;
    SearchThread *search;
    TranspositionTable tt;
    uint64_t *keys;
    int key_capacity;
    DatasetRecord *records;
    int record_capacity;
} Worker;

/* The start of game `game`: an opening (if any) then random plies, never a finished game. */
static Position game_start(Worker *w, uint64_t *random, int *key_count)
{
    SelfPlay *sp = w->sp;
    const Variant *v = sp->variant;
    for (;;) {
        Position pos;
        char err[256];
        *key_count = 0;
        if (sp->opening_count) {
            const Opening *o = &sp->openings[next_random(random) % (uint64_t)sp->opening_count];
            pos = o->start;
            for (int i = 0; i < o->move_count; i++) {
                game_keys_push(&w->keys, key_count, &w->key_capacity, pos.key);
                Position next;
                v->make_move(v, &pos, &o->moves[i], &next);
                pos = next;
            }
        } else
            v->parse_fen(v, v->start_fen, &pos, err, sizeof err);
        bool alive = true;
        for (int i = 0; i < sp->random_plies && alive; i++) {
            Move legal[MAX_MOVES];
            int n = v->generate(v, &pos, legal);
            if (n == 0) {
                alive = false;
                break;
            }
            game_keys_push(&w->keys, key_count, &w->key_capacity, pos.key);
            Position next;
            v->make_move(v, &pos, &legal[next_random(random) % (uint64_t)n], &next);
            pos = next;
        }
        if (alive && game_outcome(v, &pos, w->keys, *key_count, NULL) == OUTCOME_NONE) return pos;
    }
}

/* Plays game number `game`; its quiet positions are left in w->records. Returns the count,
 * and the result for White (0 loss, 1 draw, 2 win) in *white_result. */
static int play_game(Worker *w, uint64_t game, int *white_result)
{
    SelfPlay *sp = w->sp;
    const Variant *v = sp->variant;
    uint64_t random = sp->seed * 0xD1B54A32D192ED03ull ^ (game + 1) * 0x9E3779B97F4A7C15ull;
    int key_count;
    Position pos = game_start(w, &random, &key_count);
    tt_clear(&w->tt);
    search_thread_clear(w->search);
    int count = 0, leader = -1, streak = 0, ply = 0;
    OutcomeKind outcome = OUTCOME_NONE;
    for (;;) {
        outcome = game_outcome(v, &pos, w->keys, key_count, NULL);
        if (outcome != OUTCOME_NONE) break;
        if (ply >= sp->max_plies) {
            outcome = OUTCOME_DRAW;
            break;
        }
        SearchLimits limits = sp->limits;
        const EvalWeights *weights = sp->weights;
        if (pos.side == dataset_weaker_side(game)) {
            if (sp->weak_nodes) {
                limits.nodes = sp->weak_nodes;
                limits.depth = 0;
            }
            if (sp->weak_hand_set) weights = NULL;
            if (sp->weak_weights) weights = sp->weak_weights;
        }
        SearchOutcome found;
        if (!search_fixed(w->search, v, &pos, w->keys, key_count, &limits, &w->tt, weights, NULL, &found)) break;
        /* a quiet position: nothing forced (a compulsory capture, a threat to parry) and the
         * best move not a capture or an exit, so the static evaluation should stand */
        Move noisy[MAX_MOVES];
        bool forced;
        v->generate_noisy(v, &pos, noisy, &forced);
        if (!forced && !(found.move.flags & (MOVE_NOISY | MOVE_WINS))) {
            if (count == w->record_capacity) {
                int grown = w->record_capacity ? 2 * w->record_capacity : 256;
                DatasetRecord *records = realloc(w->records, sizeof *records * (size_t)grown);
                if (!records) break;
                w->records = records;
                w->record_capacity = grown;
            }
            DatasetRecord *r = &w->records[count++];
            memset(r, 0, sizeof *r);
            r->position = pos;
            r->position.key = 0;
            r->game = (uint32_t)game;
            r->ply = (uint16_t)(ply < 65535 ? ply : 65535);
            r->score = (int16_t)(found.score > 30000 ? 30000 : found.score < -30000 ? -30000 : found.score);
        }
        /* adjudication: a proven result ends the game at once, a lasting large score soon */
        int winner = found.score > 0 ? pos.side : pos.side ^ 1;
        if (found.score >= SCORE_MATE_BOUND || found.score <= -SCORE_MATE_BOUND) {
            outcome = winner == SIDE_WHITE ? OUTCOME_WHITE : OUTCOME_BLACK;
            break;
        }
        if (sp->resign_plies && abs(found.score) >= sp->resign_score) {
            streak = winner == leader ? streak + 1 : 1;
            leader = winner;
            if (streak >= sp->resign_plies) {
                outcome = winner == SIDE_WHITE ? OUTCOME_WHITE : OUTCOME_BLACK;
                break;
            }
        } else
            streak = 0;
        if (!game_keys_push(&w->keys, &key_count, &w->key_capacity, pos.key)) break;
        Position next;
        v->make_move(v, &pos, &found.move, &next);
        pos = next;
        ply++;
    }
    *white_result = outcome == OUTCOME_WHITE ? 2 : outcome == OUTCOME_BLACK ? 0 : 1;
    for (int i = 0; i < count; i++) {
        int result = *white_result;
        w->records[i].result = (uint8_t)(w->records[i].position.side == SIDE_WHITE ? result : 2 - result);
    }
    return count;
}

/* Hands a finished game over; whoever completes the next game in order writes it (and any
 * later ones already finished), so the shard's order is the games' order. */
static void finish_game(SelfPlay *sp, uint64_t index, DatasetRecord *records, int count, int white_result)
{
    pthread_mutex_lock(&sp->lock);
    sp->finished[index] = (FinishedGame){records, count, true};
    sp->games_done++;
    sp->positions += (uint64_t)count;
    sp->wins[white_result]++;
    sp->stronger_wins[dataset_weaker_side(sp->first_game + index) == SIDE_WHITE ? 2 - white_result : white_result]++;
    while (sp->next_to_write < sp->games && sp->finished[sp->next_to_write].done) {
        FinishedGame *g = &sp->finished[sp->next_to_write];
        for (int i = 0; i < g->count && !sp->write_failed; i++)
            if (!dataset_append(sp->writer, &g->records[i])) sp->write_failed = true;
        free(g->records);
        g->records = NULL;
        sp->next_to_write++;
    }
    pthread_mutex_unlock(&sp->lock);
}

static void *worker_main(void *opaque)
{
    Worker *w = opaque;
    SelfPlay *sp = w->sp;
    for (;;) {
        if (interrupted) break;
        uint64_t index = atomic_fetch_add(&sp->next_game, 1);
        if (index >= sp->games) break;
        int white_result;
        int count = play_game(w, sp->first_game + index, &white_result);
        DatasetRecord *copy = count ? malloc(sizeof *copy * (size_t)count) : NULL;
        if (copy) memcpy(copy, w->records, sizeof *copy * (size_t)count);
        finish_game(sp, index, copy, copy ? count : 0, white_result);
    }
    return NULL;
}

/* ------------------------------------------------------------------ the command */

static void print_progress(SelfPlay *sp, int64_t started, bool last)
{
    pthread_mutex_lock(&sp->lock);
    uint64_t games = sp->games_done, positions = sp->positions;
    uint64_t white = sp->wins[2], draws = sp->wins[1], black = sp->wins[0];
    char stronger[96] = "";
    if (sp->weak_nodes || sp->weak_hand_set || sp->weak_weights)
        snprintf(stronger, sizeof stronger, "; the stronger side +%" PRIu64 " =%" PRIu64 " -%" PRIu64, sp->stronger_wins[2],
                 sp->stronger_wins[1], sp->stronger_wins[0]);
    pthread_mutex_unlock(&sp->lock);
    double seconds = (double)(now_ms() - started) / 1000.0;
    double rate = seconds > 0 ? (double)positions / seconds : 0;
    double eta = games ? seconds * (double)(sp->games - games) / (double)games : 0;
    fprintf(stderr,
            "%s%" PRIu64 "/%" PRIu64 " games (white %" PRIu64 ", draws %" PRIu64 ", black %" PRIu64 "%s), %" PRIu64
            " positions, %.0f positions/s, %.0f s%s",
            last ? "done: " : "", games, sp->games, white, draws, black, stronger, positions, rate, last ? seconds : eta,
            last ? " in all\n" : " to go\n");
}

int selfplay_main(int argc, char **argv)
{
    ToolOption options[] = {
        {.name = "--variant", .kind = OPTION_TEXT, .help = "the game (required)"},
        {.name = "--out", .kind = OPTION_TEXT, .help = "the shard to write (required)"},
        {.name = "--games", .kind = OPTION_INTEGER, .help = "games in this shard (default 100)", .low = 1, .high = 1 << 30, .integer = 100},
        {.name = "--first-game", .kind = OPTION_INTEGER, .help = "number of the shard's first game (default 0)", .low = 0, .high = 1ll << 40},
        {.name = "--seed", .kind = OPTION_INTEGER, .help = "the seed of every game's start (default 1)", .low = 0, .high = 1ll << 62, .integer = 1},
        {.name = "--nodes", .kind = OPTION_INTEGER, .help = "nodes per move (default 5000)", .low = 1, .high = 4294967295ll, .integer = 5000},
        {.name = "--depth", .kind = OPTION_INTEGER, .help = "a depth per move instead of nodes", .low = 1, .high = 60},
        {.name = "--weak-nodes", .kind = OPTION_INTEGER, .help = "one side (White in even games) searches N nodes a move: decisive games", .low = 1, .high = 4294967295ll},
        {.name = "--threads", .kind = OPTION_INTEGER, .help = "games played at once (default 1)", .low = 1, .high = 256, .integer = 1},
        {.name = "--random-plies", .kind = OPTION_INTEGER, .help = "random plies at the start (default: the variant's)", .low = 0, .high = 200},
        {.name = "--openings", .kind = OPTION_TEXT, .help = "start from these openings (scripts/openings format), then the random plies"},
        {.name = "--max-plies", .kind = OPTION_INTEGER, .help = "a game still on after this many plies is a draw (default 400)", .low = 1, .high = 60000, .integer = 400},
        {.name = "--resign-score", .kind = OPTION_INTEGER, .help = "a score this large (default 1000) ...", .low = 1, .high = 30000, .integer = 1000},
        {.name = "--resign-plies", .kind = OPTION_INTEGER, .help = "... for this many plies in a row wins (default 8; 0: never)", .low = 0, .high = 1000, .integer = 8},
        {.name = "--eval-file", .kind = OPTION_TEXT, .help = "weights to play with (default: the built-in ones)"},
        {.name = "--hand-set", .kind = OPTION_FLAG, .help = "play with the hand-set evaluation, not the built-in weights"},
        {.name = "--weak-hand-set", .kind = OPTION_FLAG, .help = "one side (White in even games) plays the hand-set evaluation"},
        {.name = "--weak-eval-file", .kind = OPTION_TEXT, .help = "one side (White in even games) plays these weights"},
        {.name = "--hash", .kind = OPTION_INTEGER, .help = "MB of transposition table per thread (default 16)", .low = 1, .high = 65536, .integer = 16},
        {.name = "--progress", .kind = OPTION_INTEGER, .help = "seconds between progress lines (default 10; 0: none)", .low = 0, .high = 86400, .integer = 10},
        {.name = "--salvage", .kind = OPTION_TEXT, .help = "make a shard whose run was killed readable (its whole records), then stop"},
        {NULL},
    };
    const char *synopsis = "--variant V --out FILE [options]";
    if (!tool_options_parse("selfplay", synopsis, options, argc, argv, 2)) return 2;
    const char *variant_name = tool_option(options, "--variant")->text, *out = tool_option(options, "--out")->text;
    const char *salvage = tool_option(options, "--salvage")->text;
    if (salvage) {
        char err[512];
        uint64_t kept = 0;
        bool ok = dataset_salvage(salvage, &kept, err, sizeof err);
        if (ok) fprintf(stderr, "%s: %" PRIu64 " records kept\n", salvage, kept);
        else fprintf(stderr, "donjon selfplay: %s\n", err);
        tool_options_free(options);
        return ok ? 0 : 1;
    }
    if (!variant_name || !out) {
        fprintf(stderr, "donjon selfplay: --variant and --out are required\n\n");
        tool_options_usage("selfplay", synopsis, options, stderr);
        return 2;
    }
    SelfPlay sp;
    memset(&sp, 0, sizeof sp);
    sp.variant = variant_by_name(variant_name);
    if (!sp.variant) {
        fprintf(stderr, "donjon selfplay: unknown variant '%s'\n", variant_name);
        return 2;
    }
    const Variant *v = sp.variant;
    EvalWeights *loaded = NULL;
    sp.weights = tool_option(options, "--hand-set")->given ? NULL : eval_weights_builtin(v);
    const char *eval_file = tool_option(options, "--eval-file")->text;
    if (eval_file) {
        char err[512];
        if (!eval_weights_load(v, eval_file, &loaded, err, sizeof err)) {
            fprintf(stderr, "donjon selfplay: %s\n", err);
            return 1;
        }
        sp.weights = loaded;
    }
    memset(&sp.limits, 0, sizeof sp.limits);
    sp.limits.movetime = -1;
    sp.limits.clock[0] = sp.limits.clock[1] = -1;
    sp.limits.multipv = 1;
    if (tool_option(options, "--depth")->given)
        sp.limits.depth = (int)tool_option(options, "--depth")->integer;
    else
        sp.limits.nodes = (uint64_t)tool_option(options, "--nodes")->integer;
    if (tool_option(options, "--weak-nodes")->given) sp.weak_nodes = (uint64_t)tool_option(options, "--weak-nodes")->integer;
    sp.weak_hand_set = tool_option(options, "--weak-hand-set")->given;
    EvalWeights *weak_loaded = NULL;
    const char *weak_file = tool_option(options, "--weak-eval-file")->text;
    if (weak_file) {
        char err[512];
        if (sp.weak_hand_set) {
            fprintf(stderr, "donjon selfplay: --weak-hand-set and --weak-eval-file are two evaluations for one side\n");
            return 2;
        }
        if (!eval_weights_load(v, weak_file, &weak_loaded, err, sizeof err)) {
            fprintf(stderr, "donjon selfplay: %s\n", err);
            return 1;
        }
        sp.weak_weights = weak_loaded;
    }
    sp.seed = (uint64_t)tool_option(options, "--seed")->integer;
    sp.first_game = (uint64_t)tool_option(options, "--first-game")->integer;
    sp.games = (uint64_t)tool_option(options, "--games")->integer;
    sp.random_plies = tool_option(options, "--random-plies")->given ? (int)tool_option(options, "--random-plies")->integer
                                                                   : default_random_plies(v);
    sp.max_plies = (int)tool_option(options, "--max-plies")->integer;
    sp.resign_score = (int)tool_option(options, "--resign-score")->integer;
    sp.resign_plies = (int)tool_option(options, "--resign-plies")->integer;
    sp.hash_mb = (int)tool_option(options, "--hash")->integer;
    const char *openings = tool_option(options, "--openings")->text;
    if (openings && !read_openings(&sp, openings)) return 1;
    int threads = (int)tool_option(options, "--threads")->integer;
    int progress = (int)tool_option(options, "--progress")->integer;

    char err[512];
    DatasetMeta meta = {.seed = sp.seed, .first_game = sp.first_game, .games = sp.games,
                        .nodes = (uint32_t)sp.limits.nodes, .depth = (uint32_t)sp.limits.depth,
                        .weak_nodes = (uint32_t)sp.weak_nodes, .weak_hand_set = sp.weak_hand_set};
    /* the weaker side's weights are named by their file's checksum */
    if (sp.weak_weights) meta.weak_weights = sp.weak_weights->checksum;
    sp.writer = dataset_create(out, v, &meta, err, sizeof err);
    sp.finished = calloc((size_t)sp.games, sizeof *sp.finished);
    Worker *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t *handles = calloc((size_t)threads, sizeof *handles);
    if (!sp.writer || !sp.finished || !workers || !handles) {
        fprintf(stderr, "donjon selfplay: %s\n", sp.writer ? "out of memory" : err);
        return 1;
    }
    pthread_mutex_init(&sp.lock, NULL);
    atomic_store(&sp.next_game, 0);
    /* what the weaker side does differently: its nodes, its evaluation, or both */
    char weak_text[200] = "", weak_nodes_text[32] = "";
    if (sp.weak_nodes) snprintf(weak_nodes_text, sizeof weak_nodes_text, " %llu nodes", (unsigned long long)sp.weak_nodes);
    const char *weak_eval = sp.weak_hand_set ? "hand-set evaluation" : sp.weak_weights ? sp.weak_weights->origin : NULL;
    if (sp.weak_nodes || weak_eval)
        snprintf(weak_text, sizeof weak_text, " (the weaker side%s%s%s)", weak_nodes_text,
                 weak_eval ? (sp.weak_nodes ? ", " : ": ") : "", weak_eval ? weak_eval : "");
    fprintf(stderr, "selfplay %s (%s): games %" PRIu64 "-%" PRIu64 " of seed %" PRIu64 ", %s %llu a move%s, %d random plies%s%s, %d threads -> %s\n",
            v->name, sp.weights ? sp.weights->origin : "hand-set evaluation", sp.first_game, sp.first_game + sp.games - 1, sp.seed, sp.limits.depth ? "depth" : "nodes",
            sp.limits.depth ? (unsigned long long)sp.limits.depth : (unsigned long long)sp.limits.nodes, weak_text,
            sp.random_plies, openings ? " after an opening of " : "", openings ? openings : "", threads, out);
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_interrupt);
    int64_t started = now_ms();
    int started_threads = 0;
    for (int i = 0; i < threads; i++) {
        workers[i].sp = &sp;
        workers[i].search = search_thread_new(0);
        if (!workers[i].search || !tt_resize(&workers[i].tt, (size_t)sp.hash_mb)) {
            fprintf(stderr, "donjon selfplay: out of memory for thread %d\n", i);
            break;
        }
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 8u << 20);
        if (pthread_create(&handles[i], &attr, worker_main, &workers[i]) == 0) started_threads++;
        pthread_attr_destroy(&attr);
    }
    int64_t last = now_ms();
    while (started_threads) {
        struct timespec pause = {0, 200 * 1000000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&sp.lock);
        bool all = sp.games_done == sp.games;
        pthread_mutex_unlock(&sp.lock);
        if (all || interrupted) break;
        if (progress && now_ms() - last >= progress * 1000) {
            print_progress(&sp, started, false);
            last = now_ms();
        }
    }
    for (int i = 0; i < started_threads; i++) pthread_join(handles[i], NULL);
    print_progress(&sp, started, true);
    if (interrupted) {
        /* the shard keeps the games finished in order; the header says how many */
        sp.games = sp.next_to_write;
        dataset_set_games(sp.writer, sp.games);
        fprintf(stderr, "interrupted: the shard holds games %" PRIu64 "-%" PRIu64 "\n", sp.first_game,
                sp.first_game + sp.games - 1);
    }
    bool ok = started_threads == threads && !sp.write_failed;
    uint64_t written = dataset_written(sp.writer);
    if (!dataset_close(sp.writer, err, sizeof err)) {
        fprintf(stderr, "donjon selfplay: %s\n", err);
        ok = false;
    } else
        fprintf(stderr, "%s: %" PRIu64 " positions\n", out, written);
    for (int i = 0; i < threads; i++) {
        search_thread_free(workers[i].search);
        tt_free(&workers[i].tt);
        free(workers[i].keys);
        free(workers[i].records);
    }
    for (uint64_t i = 0; i < sp.games; i++) free(sp.finished[i].records);
    free(sp.finished);
    free(workers);
    free(handles);
    free(sp.openings);
    eval_weights_free(loaded);
    eval_weights_free(weak_loaded);
    pthread_mutex_destroy(&sp.lock);
    tool_options_free(options);
    return ok ? 0 : 1;
}
