/*
 * protocol.c — reads command lines, dispatches them to the engine facade, and owns
 * every byte written to stdout. Search output arrives through callbacks from search
 * threads, so all writing goes through text_emit's lock (text_io.c).
 */
#include "protocol.h"

#include "bench.h"
#include "egdb/egdb_probe.h"
#include "egdb/egdb_search.h"
#include "engine.h"
#include "eval_weights.h"
#include "perft.h"
#include "text_io.h"
#include "version.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKENS 4096

/* Fuzzing builds keep every command cheap so that a session is fuzzed, not waited for. */
#ifdef DONJON_FUZZING
#define FUZZ_CAP(value, cap) ((value) > (cap) ? (cap) : (value))
#else
#define FUZZ_CAP(value, cap) (value)
#endif


typedef struct Protocol Protocol;

/* What a perft or bench running in the engine's job thread needs (input thread writes it only
 * while no job runs). */
typedef struct {
    Protocol *protocol;
    const Variant *variant;
    Position position;
    int depth;
    int moves_counted;
} PerftJob;

typedef struct {
    const Variant *only;
    int depth;
} BenchJob;

struct Protocol {
    Engine *engine;
    int64_t move_overhead;
    int multipv;
    int contempt;
    int skill_level;
    uint64_t random_state;   /* seeds each weakened search */
    bool ponder;
    PerftJob perft;
    BenchJob bench;
};

/* Text that came from the user, made safe to echo: printable ASCII, bounded length. */
static const char *printable(const char *text, char *out, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 4 < len && i < 60; i++) out[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
    if (text[i] && i + 4 < len) out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = 0;
    return out;
}

static void error(const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    text_emit("info string error: %s", text);
}

/* ------------------------------------------------------------ search output */

static void format_score(int score, char *out, size_t len)
{
    if (score >= SCORE_MATE_BOUND)
        snprintf(out, len, "mate %d", (SCORE_MATE - score + 1) / 2);
    else if (score <= -SCORE_MATE_BOUND)
        snprintf(out, len, "mate -%d", (SCORE_MATE + score) / 2);
    else
        snprintf(out, len, "cp %d", score);
}

static void on_info(void *context, const Position *root, const SearchInfo *info)
{
    Protocol *p = context;
    const Variant *v = engine_variant(p->engine);
    char pv[8192], score[32];
    size_t used = 0;
    Position pos = *root;
    for (int i = 0; i < info->pv_length && used + MOVE_TEXT_MAX + 2 < sizeof pv; i++) {
        char move[MOVE_TEXT_MAX];
        v->format_move(v, &pos, &info->pv[i], move, sizeof move);
        used += (size_t)snprintf(pv + used, sizeof pv - used, " %s", move);
        Position next;
        v->make_move(v, &pos, &info->pv[i], &next);
        pos = next;
    }
    pv[used] = 0;
    format_score(info->score, score, sizeof score);
    uint64_t nps = info->time_ms > 0 ? info->nodes * 1000 / (uint64_t)info->time_ms : info->nodes * 1000;
    text_emit("info depth %d seldepth %d multipv %d score %s%s nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64
         " pv%s",
         info->depth, info->seldepth, info->multipv, score,
         info->bound == BOUND_LOWER ? " lowerbound" : info->bound == BOUND_UPPER ? " upperbound" : "", info->nodes,
         nps, info->hashfull, info->time_ms, pv);
}

static void on_bestmove(void *context, const Position *root, const Move *best, const Move *ponder)
{
    Protocol *p = context;
    const Variant *v = engine_variant(p->engine);
    if (!best) {
        text_emit("bestmove (none)");
        return;
    }
    char best_text[MOVE_TEXT_MAX], ponder_text[MOVE_TEXT_MAX];
    v->format_move(v, root, best, best_text, sizeof best_text);
    if (ponder) {
        Position next;
        v->make_move(v, root, best, &next);
        v->format_move(v, &next, ponder, ponder_text, sizeof ponder_text);
        text_emit("bestmove %s ponder %s", best_text, ponder_text);
    } else
        text_emit("bestmove %s", best_text);
}

/* ------------------------------------------------------------ numbers */


/* Like parse_integer, but a too-large or too-small value is clamped instead of refused. */
static bool parse_clamped(const char *text, long long low, long long high, long long *out)
{
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long long value = strtoll(text, &end, 10);
    if (*end) return false;
    if (value < low || (errno == ERANGE && value < 0)) value = low;
    if (value > high || (errno == ERANGE && value > 0)) value = high;
    *out = value;
    return true;
}

/* ------------------------------------------------------------ commands */

static void command_uci(Protocol *p)
{
    (void)p;
    text_emit("id name Donjon %s", DONJON_VERSION);
    text_emit("id author the Donjon developers");
    char variants[1024];
    size_t used = (size_t)snprintf(variants, sizeof variants, "option name UCI_Variant type combo default %s",
                                   default_variant()->name);
    for (int i = 0; variant_at(i); i++)
        used += (size_t)snprintf(variants + used, sizeof variants - used, " var %s", variant_at(i)->name);
    text_emit("%s", variants);
    /* each variant's rule option, once per name */
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (!v->option_name) continue;
        bool listed = false;
        for (int j = 0; j < i; j++)
            listed |= variant_at(j)->option_name && strcmp(variant_at(j)->option_name, v->option_name) == 0;
        if (listed) continue;
        char line[512];
        size_t used = (size_t)snprintf(line, sizeof line, "option name %s type combo default %s", v->option_name,
                                       v->option_values[0]);
        for (int k = 0; v->option_values[k]; k++)
            used += (size_t)snprintf(line + used, sizeof line - used, " var %s", v->option_values[k]);
        text_emit("%s", line);
    }
    text_emit("option name Threads type spin default 1 min 1 max %d", THREADS_MAX);
    text_emit("option name Hash type spin default 16 min 1 max %d", HASH_MAX_MB);
    text_emit("option name Clear Hash type button");
    text_emit("option name Move Overhead type spin default 30 min 0 max 5000");
    text_emit("option name Ponder type check default false");
    text_emit("option name MultiPV type spin default 1 min 1 max %d", MAX_MULTIPV);
    text_emit("option name Contempt type spin default 0 min -%d max %d", CONTEMPT_MAX, CONTEMPT_MAX);
    text_emit("option name Skill Level type spin default %d min 0 max %d", SKILL_MAX, SKILL_MAX);
    text_emit("option name EvalFile type string default <built-in>");
    text_emit("option name EGDBPath type string default <default>");
    text_emit("uciok");
}

/* Opens the current variant's endgame databases when first wanted, and says what came of it. */
static void open_egdb(Protocol *p)
{
    char message[2048];
    if (engine_open_egdb(p->engine, message, sizeof message)) text_emit("info string %s", message);
}

static void announce_variant(Protocol *p)
{
    const Variant *v = engine_variant(p->engine);
    text_emit("info string variant %s board %dx%d startpos %s", v->name, v->cols, v->rows, v->start_fen);
}

/* A variant's rule option (e.g. Handicap); false when no variant has an option of that name. */
static bool set_variant_option(Protocol *p, const char *name, const char *value)
{
    bool known = false;
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (!v->option_name || strcasecmp(v->option_name, name) != 0) continue;
        known = true;
        int index = -1;
        for (int k = 0; v->option_values[k]; k++)
            if (strcasecmp(v->option_values[k], value) == 0) index = k;
        if (index < 0) {
            char safe[128];
            error("%s: unknown value '%s'", v->option_name, printable(value, safe, sizeof safe));
            return true;
        }
        engine_set_variant_option(p->engine, v, index);
        if (v != engine_variant(p->engine))
            text_emit("info string %s is a rule of %s: it takes effect in %s games", v->option_name, v->name, v->name);
    }
    return known;
}

static void command_setoption(Protocol *p, char **tokens, int count)
{
    /* setoption name <words...> [value <words...>] */
    char name[256] = "", value[1024] = "";
    int i = 1;
    if (i >= count || strcasecmp(tokens[i], "name") != 0) {
        error("setoption needs 'name'");
        return;
    }
    char *target = name;
    size_t cap = sizeof name;
    for (i = 2; i < count; i++) {
        if (target == name && strcasecmp(tokens[i], "value") == 0) {
            target = value;
            cap = sizeof value;
            continue;
        }
        size_t used = strlen(target);
        snprintf(target + used, cap - used, "%s%s", used ? " " : "", tokens[i]);
    }
    char safe[128];
    long long number;
    if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *v = NULL;
        for (int k = 0; variant_at(k); k++)
            if (strcasecmp(variant_at(k)->name, value) == 0) v = variant_at(k);
        if (!v) {
            error("unknown variant '%s'", printable(value, safe, sizeof safe));
            return;
        }
        engine_set_variant(p->engine, v);
        announce_variant(p);
    } else if (strcasecmp(name, "Threads") == 0) {
        char err[256];
        if (!text_parse_integer(value, 1, THREADS_MAX, &number))
            error("Threads must be an integer from 1 to %d", THREADS_MAX);
        else if (!engine_set_threads(p->engine, (int)FUZZ_CAP(number, 4), err, sizeof err))
            error("%s", err);
    } else if (strcasecmp(name, "Hash") == 0) {
        char err[256];
        if (!text_parse_integer(value, 1, HASH_MAX_MB, &number))
            error("Hash must be an integer from 1 to %d (MB)", HASH_MAX_MB);
        else if (!engine_set_hash(p->engine, (size_t)FUZZ_CAP(number, 64), err, sizeof err))
            error("%s", err);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        engine_new_game(p->engine);
    } else if (strcasecmp(name, "Move Overhead") == 0) {
        if (!text_parse_integer(value, 0, 5000, &number))
            error("Move Overhead must be an integer from 0 to 5000 (ms)");
        else
            p->move_overhead = number;
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (!text_parse_integer(value, 1, MAX_MULTIPV, &number))
            error("MultiPV must be an integer from 1 to %d", MAX_MULTIPV);
        else
            p->multipv = (int)number;
    } else if (strcasecmp(name, "Contempt") == 0) {
        if (!text_parse_integer(value, -CONTEMPT_MAX, CONTEMPT_MAX, &number))
            error("Contempt must be an integer from -%d to %d", CONTEMPT_MAX, CONTEMPT_MAX);
        else
            p->contempt = (int)number;
    } else if (strcasecmp(name, "EvalFile") == 0) {
        char err[512];
        if (!engine_set_eval_file(p->engine, value, err, sizeof err))
            error("EvalFile: %s; the current weights stay", err);
        else {
            const EvalWeights *w = engine_weights(p->engine);
            text_emit("info string EvalFile: %s uses %s", engine_variant(p->engine)->name,
                 w ? w->origin : "its hand-set evaluation (no built-in weights)");
        }
    } else if (strcasecmp(name, "EGDBPath") == 0) {
        engine_set_egdb_path(p->engine, value);
        open_egdb(p);
    } else if (strcasecmp(name, "Skill Level") == 0) {
        if (!text_parse_integer(value, 0, SKILL_MAX, &number))
            error("Skill Level must be an integer from 0 to %d", SKILL_MAX);
        else
            p->skill_level = (int)number;
    } else if (strcasecmp(name, "Ponder") == 0) {
        if (strcasecmp(value, "true") == 0)
            p->ponder = true;
        else if (strcasecmp(value, "false") == 0)
            p->ponder = false;
        else
            error("Ponder must be true or false");
    } else if (!set_variant_option(p, name, value))
        error("unknown option '%s'", printable(name, safe, sizeof safe));
}

static void command_position(Protocol *p, char **tokens, int count)
{
    int i = 1;
    char fen[FEN_TEXT_MAX] = "";
    bool from_fen = false;
    if (i < count && strcmp(tokens[i], "startpos") == 0)
        i++;
    else if (i < count && strcmp(tokens[i], "fen") == 0) {
        from_fen = true;
        size_t used = 0;
        for (i++; i < count && strcmp(tokens[i], "moves") != 0; i++) {
            size_t length = strlen(tokens[i]);
            if (used + length + 2 >= sizeof fen) {
                error("position: FEN too long");
                return;
            }
            used += (size_t)snprintf(fen + used, sizeof fen - used, "%s%s", used ? " " : "", tokens[i]);
        }
        if (!used) {
            error("position fen: missing FEN");
            return;
        }
    } else {
        error("position needs 'startpos' or 'fen <FEN>'");
        return;
    }
    char **moves = NULL;
    int move_count = 0;
    if (i < count) {
        if (strcmp(tokens[i], "moves") != 0) {
            char safe[128];
            error("position: unexpected '%s'", printable(tokens[i], safe, sizeof safe));
            return;
        }
        moves = tokens + i + 1;
        move_count = count - i - 1;
    }
    char err[512];
    if (!engine_set_position(p->engine, from_fen ? fen : NULL, moves, move_count, err, sizeof err))
        error("%s; position unchanged", err);
}

static void print_perft_line(void *context, const char *move, uint64_t count)
{
    PerftJob *job = context;
    job->moves_counted++;
    text_emit("%s: %" PRIu64, move, count);
}

static void run_perft(void *argument, const atomic_bool *stop)
{
    PerftJob *job = argument;
    bool completed;
    job->moves_counted = 0;
    uint64_t total = perft_divide(job->variant, &job->position, job->depth, stop, print_perft_line, job, &completed);
    if (!completed) {
        text_emit("info string perft stopped after %d moves", job->moves_counted);
        return;
    }
    text_emit("%s", "");
    text_emit("Nodes searched: %" PRIu64, total);
}

static void command_perft(Protocol *p, char **args, int count)
{
    long long depth;
    if (count != 1 || !text_parse_integer(args[0], 0, 64, &depth)) {
        error("perft needs one depth from 0 to 64");
        return;
    }
    engine_stop(p->engine);
    engine_wait(p->engine); /* the job struct is free again */
    p->perft.protocol = p;
    p->perft.variant = engine_variant(p->engine);
    p->perft.position = *engine_position(p->engine);
    p->perft.depth = (int)FUZZ_CAP(depth, 3);
    if (!engine_run_job(p->engine, run_perft, &p->perft)) error("perft: cannot start a thread");
}

typedef struct {
    const char *name;
    bool takes_number;
} GoParameter;

static const GoParameter go_parameters[] = {
    {"wtime", true}, {"btime", true}, {"winc", true}, {"binc", true}, {"movestogo", true}, {"depth", true},
    {"nodes", true}, {"mate", true}, {"movetime", true}, {"infinite", false}, {"ponder", false},
    {"searchmoves", false}, {NULL, false},
};

static const GoParameter *go_parameter(const char *word)
{
    for (const GoParameter *g = go_parameters; g->name; g++)
        if (strcmp(word, g->name) == 0) return g;
    return NULL;
}

/* Fills limits from the words after `go`; false (an error printed) on anything malformed:
 * a malformed go starts nothing. */
static bool parse_go(Protocol *p, char **tokens, int count, SearchLimits *limits)
{
    const Variant *v = engine_variant(p->engine);
    const Position *pos = engine_position(p->engine);
    char safe[128];
    for (int i = 1; i < count; i++) {
        const char *t = tokens[i];
        const GoParameter *g = go_parameter(t);
        if (!g) {
            error("go: unknown parameter '%s'; nothing started", printable(t, safe, sizeof safe));
            return false;
        }
        if (strcmp(t, "infinite") == 0)
            limits->infinite = true;
        else if (strcmp(t, "ponder") == 0)
            limits->ponder = true;
        else if (strcmp(t, "searchmoves") == 0) {
            Move legal[MAX_MOVES];
            int n = v->generate(v, pos, legal), listed = 0;
            for (; i + 1 < count && !go_parameter(tokens[i + 1]); i++, listed++) {
                char err[256];
                int index = n ? v->parse_move(v, pos, tokens[i + 1], legal, n, err, sizeof err) : -1;
                if (index < 0) {
                    error("go searchmoves: %s; nothing started", n ? err : "no legal move");
                    return false;
                }
                if (limits->searchmoves_count < MAX_MOVES) limits->searchmoves[limits->searchmoves_count++] = legal[index];
            }
            if (!listed) {
                error("go searchmoves needs at least one move; nothing started");
                return false;
            }
        } else {
            long long number;
            const char *arg = i + 1 < count ? tokens[i + 1] : NULL;
            i++;
            if (!parse_clamped(arg, INT64_MIN / 4, INT64_MAX / 4, &number)) {
                error("go %s needs an integer; nothing started", t);
                return false;
            }
            if (number < 0) number = 0; /* a negative clock is an empty one */
            if (strcmp(t, "wtime") == 0) limits->clock[SIDE_WHITE] = number;
            if (strcmp(t, "btime") == 0) limits->clock[SIDE_BLACK] = number;
            if (strcmp(t, "winc") == 0) limits->increment[SIDE_WHITE] = number;
            if (strcmp(t, "binc") == 0) limits->increment[SIDE_BLACK] = number;
            if (strcmp(t, "movestogo") == 0) limits->moves_to_go = number > 1000 ? 1000 : (int)number;
            if (strcmp(t, "depth") == 0) limits->depth = number > MAX_PLY - 1 ? MAX_PLY - 1 : (int)(number ? number : 1);
            if (strcmp(t, "nodes") == 0) limits->nodes = number ? (uint64_t)number : 1;
            if (strcmp(t, "movetime") == 0) limits->movetime = number;
            if (strcmp(t, "mate") == 0) limits->depth = number * 2 + 1 > MAX_PLY - 1 ? MAX_PLY - 1 : (int)(number * 2 + 1);
        }
    }
    return true;
}

static void command_go(Protocol *p, char **tokens, int count)
{
    static SearchLimits limits; /* large (searchmoves): kept off the stack; input thread only */
    memset(&limits, 0, sizeof limits);
    limits.movetime = -1;
    limits.clock[0] = limits.clock[1] = -1;
    limits.increment[0] = limits.increment[1] = 0;
    limits.multipv = p->multipv;
    limits.contempt = p->contempt;
    /* go perft N is perft N, whatever else the line holds */
    for (int i = 1; i < count; i++)
        if (strcmp(tokens[i], "perft") == 0) {
            command_perft(p, tokens + i + 1, count - i - 1);
            return;
        }
    if (!parse_go(p, tokens, count, &limits)) return;
    int side = engine_position(p->engine)->side;
    bool any_clock = limits.clock[SIDE_WHITE] >= 0 || limits.clock[SIDE_BLACK] >= 0;
    if (any_clock && limits.clock[side] < 0) {
        /* a clock for the other side only: the side to move has none, so it has no time */
        text_emit("info string go gives no clock for the side to move (%s): it moves at once",
             side == SIDE_WHITE ? "wtime" : "btime");
        limits.clock[side] = 0;
    }
    /* no limit at all: search until stopped, as UCI engines do */
    if (!limits.depth && !limits.nodes && limits.movetime < 0 && !any_clock) limits.infinite = true;
    if (p->skill_level < SKILL_MAX) {
        limits.weakened = true;
        limits.skill_level = p->skill_level;
        uint64_t cap = skill_node_limit(p->skill_level);
        if (!limits.nodes || limits.nodes > cap) limits.nodes = cap;
        p->random_state = p->random_state * 6364136223846793005ull + 1442695040888963407ull;
        limits.skill_seed = p->random_state ^ (p->random_state >> 29);
    }
    char result[128];
    engine_stop(p->engine);
    engine_wait(p->engine);
    engine_result(p->engine, result, sizeof result);
    if (strcmp(result, "none") != 0) {
        text_emit("info string game over: %s", result);
        text_emit("bestmove (none)");
        return;
    }
    open_egdb(p);
#ifdef DONJON_FUZZING
    limits.depth = limits.depth && limits.depth < 3 ? limits.depth : 3;
    limits.infinite = limits.ponder = false;
    limits.movetime = -1;
    limits.clock[0] = limits.clock[1] = -1;
#endif
    engine_go(p->engine, &limits, p->move_overhead);
}

static void command_moves(Protocol *p)
{
    const Variant *v = engine_variant(p->engine);
    const Position *pos = engine_position(p->engine);
    static Move legal[MAX_MOVES];
    static char line[MAX_MOVES * 24];
    int n = v->generate(v, pos, legal);
    size_t used = (size_t)snprintf(line, sizeof line, "moves");
    for (int i = 0; i < n && used + MOVE_TEXT_MAX + 2 < sizeof line; i++) {
        char text[MOVE_TEXT_MAX];
        v->format_move(v, pos, &legal[i], text, sizeof text);
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", text);
    }
    text_emit("%s", line);
}

static void command_display(Protocol *p)
{
    const Variant *v = engine_variant(p->engine);
    const Position *pos = engine_position(p->engine);
    char board[BOARD_TEXT_MAX], fen[FEN_TEXT_MAX];
    v->print_board(v, pos, board, sizeof board);
    v->format_fen(v, pos, fen, sizeof fen);
    size_t length = strlen(board);
    if (length && board[length - 1] == '\n') board[length - 1] = 0;
    text_emit("%s", board);
    text_emit("Fen: %s", fen);
    open_egdb(p);
    const EgdbSet *db = engine_egdb(p->engine);
    if (db) {
        char value[256];
        if (egdb_describe(db, pos, value, sizeof value))
            text_emit("Egdb: %s", value);
        else
            text_emit("Egdb: not covered (the databases hold up to %d pieces)", egdb_pieces(db));
    }
    text_emit("Key: %016" PRIx64, pos->key);
}

static void print_bench_line(void *context, const char *text)
{
    (void)context;
    text_emit("info string %s", text);
}

static void run_bench(void *argument, const atomic_bool *stop)
{
    BenchJob *job = argument;
    BenchResult r = bench_run(job->only, job->depth, stop, print_bench_line, NULL);
    if (!r.completed) {
        text_emit("info string bench stopped");
        return;
    }
    text_emit("%s", "");
    text_emit("Total time (ms) : %" PRId64, r.search_us / 1000);
    text_emit("Nodes searched  : %" PRIu64, r.nodes);
    text_emit("Nodes/second    : %" PRIu64, r.search_us > 0 ? r.nodes * 1000000 / (uint64_t)r.search_us : r.nodes);
}

static void command_bench(Protocol *p, char **args, int count)
{
    long long depth = 0; /* each variant's own depth */
    const Variant *only = NULL;
    for (int i = 0; i < count; i++) {
        long long number;
        if (text_parse_integer(args[i], 1, 64, &number))
            depth = number;
        else if (variant_by_name(args[i]))
            only = variant_by_name(args[i]);
        else {
            char safe[128];
            error("bench [depth] [variant]: bad argument '%s'", printable(args[i], safe, sizeof safe));
            return;
        }
    }
    engine_stop(p->engine);
    engine_wait(p->engine); /* the job struct is free again */
#ifdef DONJON_FUZZING
    depth = 1;
#endif
    p->bench.only = only;
    p->bench.depth = (int)depth;
    if (!engine_run_job(p->engine, run_bench, &p->bench)) error("bench: cannot start a thread");
}

static void command_eval(Protocol *p)
{
    const Variant *v = engine_variant(p->engine);
    const EvalWeights *w = engine_weights(p->engine);
    const Position *pos = engine_position(p->engine);
    if (!w)
        text_emit("info string eval %d (side to move, hand-set evaluation)", v->evaluate(v, pos));
    else /* the fast path and the plain sum over the features must agree: both are shown */
        text_emit("info string eval %d (side to move, learned weights %s; feature sum %d)", learned_evaluate(v, pos, w),
             w->owned ? "from EvalFile" : "built in", learned_evaluate_generic(v, pos, w));
    open_egdb(p);
    const EgdbSet *db = engine_egdb(p->engine);
    char value[256];
    if (db && egdb_describe(db, pos, value, sizeof value)) text_emit("info string egdb %s", value);
}

/* ------------------------------------------------------------ loop */

static int tokenize(char *line, char **tokens, int max)
{
    int count = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n\v\f", &save); t && count < max; t = strtok_r(NULL, " \t\r\n\v\f", &save))
        tokens[count++] = t;
    return count;
}

static void command_help(Protocol *p)
{
    (void)p;
    static const char *const lines[] = {
        "Donjon " DONJON_VERSION " plays gounki, ecroulement, ecroulement-rapide, checkers, russian, brazilian,",
        "international and tawol through a UCI-like protocol (protocol.md has every detail).",
        "  uci                                   identify, list the options",
        "  setoption name <name> value <value>   e.g. setoption name UCI_Variant value international",
        "  ucinewgame                            forget the previous game",
        "  position startpos|fen <FEN> [moves <m1> ...]",
        "  go [depth N|nodes N|movetime MS|wtime MS btime MS [winc MS binc MS] [movestogo N]|infinite|ponder]",
        "     [searchmoves <m1> ...]               search; ends with 'bestmove'",
        "  stop | ponderhit | isready | quit",
        "  moves      the legal moves             d         the board, its FEN and key",
        "  result     the game's result so far    eval      the static evaluation (and the endgame database's value)",
        "  perft N    count the leaves at depth N bench [depth] [variant]  the benchmark",
        "  help       this text",
        NULL,
    };
    for (int i = 0; lines[i]; i++) text_emit("%s", lines[i]);
}

static void command_result(Protocol *p)
{
    char result[128];
    engine_result(p->engine, result, sizeof result);
    text_emit("result %s", result);
}

static void command_isready(Protocol *p)
{
    open_egdb(p); /* the slow part of a first search, done while the GUI waits anyway */
    text_emit("readyok");
}
static void command_ucinewgame(Protocol *p) { engine_new_game(p->engine); }
static void command_stop(Protocol *p) { engine_stop(p->engine); }
static void command_ponderhit(Protocol *p) { engine_ponderhit(p->engine); }

/* Commands that take no arguments: any word after them is an error and nothing is done. */
static const struct {
    const char *name;
    void (*run)(Protocol *p);
} plain_commands[] = {
    {"uci", command_uci},           {"isready", command_isready}, {"ucinewgame", command_ucinewgame},
    {"stop", command_stop},         {"ponderhit", command_ponderhit}, {"moves", command_moves},
    {"result", command_result},     {"d", command_display},       {"eval", command_eval},
    {"help", command_help},         {NULL, NULL},
};

/* Handles one line; returns false on quit. */
static bool handle_line(Protocol *p, char *line)
{
    static char *tokens[MAX_TOKENS];
    int count = tokenize(line, tokens, MAX_TOKENS);
    if (count == 0) return true;
    const char *c = tokens[0];
    char safe[128];
    for (int i = 0; plain_commands[i].name; i++) {
        if (strcmp(c, plain_commands[i].name) != 0) continue;
        if (count > 1)
            error("'%s' takes no arguments (got '%s'): nothing done", c, printable(tokens[1], safe, sizeof safe));
        else
            plain_commands[i].run(p);
        return true;
    }
    if (strcmp(c, "quit") == 0) {
        if (count == 1) return false;
        error("'quit' takes no arguments (got '%s'): nothing done", printable(tokens[1], safe, sizeof safe));
    } else if (strcmp(c, "setoption") == 0)
        command_setoption(p, tokens, count);
    else if (strcmp(c, "position") == 0)
        command_position(p, tokens, count);
    else if (strcmp(c, "go") == 0)
        command_go(p, tokens, count);
    else if (strcmp(c, "perft") == 0)
        command_perft(p, tokens + 1, count - 1);
    else if (strcmp(c, "bench") == 0)
        command_bench(p, tokens + 1, count - 1);
    else if (strcmp(c, "debug") == 0 || strcmp(c, "register") == 0)
        ; /* UCI commands with nothing to do here */
    else
        error("unknown command '%s' (help lists the commands)", printable(c, safe, sizeof safe));
    return true;
}

static bool handle_input(void *context, char *line) { return handle_line(context, line); }

static Protocol *protocol_new(void)
{
    Protocol *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->move_overhead = 30;
    p->multipv = 1;
    p->skill_level = SKILL_MAX;
    p->random_state = (uint64_t)now_ms() * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)p;
    SearchCallbacks callbacks = {.context = p, .info = on_info, .bestmove = on_bestmove};
    p->engine = engine_new(&callbacks);
    if (!p->engine) {
        free(p);
        return NULL;
    }
    return p;
}

static void protocol_free(Protocol *p)
{
    engine_stop(p->engine);
    engine_wait(p->engine);
    engine_free(p->engine);
    free(p);
}

int protocol_run_command(const char *command)
{
    Protocol *p = protocol_new();
    if (!p) {
        text_emit("info string error: cannot start the engine (out of memory)");
        return 1;
    }
    char *line = strdup(command);
    if (line) handle_line(p, line);
    free(line);
    engine_wait(p->engine); /* a search with limits or a job ends by itself */
    protocol_free(p);
    return 0;
}

int protocol_loop(FILE *in)
{
    Protocol *p = protocol_new();
    if (!p) {
        text_emit("info string error: cannot start the engine (out of memory)");
        return 1;
    }
    bool quit = text_read_lines(in, handle_input, p);
    /* at the end of input a perft or bench finishes (`echo "perft 6" | donjon` must print its
     * count); a search without limits could not, so searches stop as on quit */
    if (!quit) engine_finish_job(p->engine);
    protocol_free(p);
    return 0;
}
