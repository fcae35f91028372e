/*
 * hub.c — the Hub protocol, version 2 (`donjon hub`): what draughts GUIs speak. Reads Hub lines
 * (`command arg=value arg="quoted value" flag`), translates positions, moves and time levels to
 * the engine facade, and owns every byte written to stdout in this mode. Search output arrives
 * through callbacks from search threads, so all writing goes through one lock (the only global
 * shared mutable state of this file, designed so).
 */
#include "hub.h"

#include "draughts_text.h"
#include "engine.h"
#include "games/draughts.h"
#include "text_io.h"
#include "version.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define HUB_ARGS_MAX 64
#define HUB_VARIANT_NAME "normal" /* Hub's name for international draughts */
#define HUB_MOVE_OVERHEAD_MS 30
/* a Hub score is in men; a win in N plies is written as 100 - N/100 men, as Hub engines do */
#define HUB_WIN_SCORE 10000


/* `error message="…"`; the text must not hold a double quote, so any becomes a single one. */
static void error(const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    for (char *c = text; *c; c++)
        if (*c == '"' || (unsigned char)*c < 32 || (unsigned char)*c > 126) *c = *c == '"' ? '\'' : '?';
    text_emit("error message=\"%s\"", text);
}

/* ------------------------------------------------------------ the search limits a `level` sets */

typedef struct {
    int depth;              /* 0 = none */
    uint64_t nodes;         /* 0 = none */
    int64_t move_time_ms;   /* -1 = none */
    int64_t time_ms;        /* the clock before this move's increment; -1 = none */
    int64_t increment_ms;
    int moves;              /* moves left until the next time control; 0 = the whole game */
    bool infinite;
} HubLevel;

/* Until the GUI sends a level, a search thinks one second. */
static const HubLevel DEFAULT_LEVEL = {0, 0, 1000, -1, 0, 0, false};

typedef struct {
    Engine *engine;
    HubLevel level;
    int threads;
    int hash_mb;
} Hub;

/* ------------------------------------------------------------ line syntax */

typedef struct {
    const char *name;
    const char *value; /* NULL for a flag */
} HubArg;

typedef struct {
    const char *command;
    HubArg args[HUB_ARGS_MAX];
    int count;
    bool well_formed; /* false: an unterminated quote or text glued to a closing quote */
} HubLine;

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* Splits a line in place into its command and its arguments. */
static void split_line(char *line, HubLine *out)
{
    out->command = NULL;
    out->count = 0;
    out->well_formed = true;
    char *p = line;
    while (*p) {
        while (is_blank(*p)) p++;
        if (!*p) break;
        char *name = p;
        while (*p && !is_blank(*p) && *p != '=') p++;
        const char *value = NULL;
        if (*p == '=') {
            *p++ = 0;
            if (*p == '"') {
                value = ++p;
                while (*p && *p != '"') p++;
                if (!*p) {
                    out->well_formed = false;
                    break;
                }
                *p++ = 0;
                if (*p && !is_blank(*p)) {
                    out->well_formed = false;
                    break;
                }
            } else {
                value = p;
                while (*p && !is_blank(*p)) p++;
            }
        }
        if (*p) *p++ = 0;
        if (!out->command)
            out->command = name;
        else if (out->count < HUB_ARGS_MAX)
            out->args[out->count++] = (HubArg){name, value};
    }
}

static const HubArg *find_arg(const HubLine *line, const char *name)
{
    for (int i = 0; i < line->count; i++)
        if (strcmp(line->args[i].name, name) == 0) return &line->args[i];
    return NULL;
}


/* A number of seconds (a real number, at most a year) as milliseconds. A clock may be negative
 * (a GUI that takes the increment off an almost empty clock): it is read as empty. */
static bool parse_seconds(const char *text, bool is_clock, int64_t *out_ms)
{
    if (!text || !*text) return false;
    char *end;
    double seconds = strtod(text, &end);
    if (*end || !isfinite(seconds) || seconds > 366.0 * 24 * 3600) return false;
    if (seconds < 0 && is_clock) seconds = 0;
    if (seconds < 0) return false;
    *out_ms = (int64_t)llround(seconds * 1000.0);
    return true;
}

/* ------------------------------------------------------------ search output */

static double score_in_men(int score)
{
    if (score >= SCORE_MATE_BOUND) return (HUB_WIN_SCORE - (SCORE_MATE - score)) / 100.0;
    if (score <= -SCORE_MATE_BOUND) return -(HUB_WIN_SCORE - (SCORE_MATE + score)) / 100.0;
    return score / 100.0;
}

static void on_info(void *context, const Position *root, const SearchInfo *info)
{
    (void)root;
    Hub *h = context;
    /* Hub has no bound field: an aspiration fail is not a score to show */
    if (info->bound != BOUND_EXACT || info->multipv != 1) return;
    const Variant *v = engine_variant(h->engine);
    char pv[8192];
    size_t used = 0;
    pv[0] = 0;
    for (int i = 0; i < info->pv_length && used + MOVE_TEXT_MAX + 2 < sizeof pv; i++) {
        char move[MOVE_TEXT_MAX];
        hub_move_text(v, &info->pv[i], move, sizeof move);
        used += (size_t)snprintf(pv + used, sizeof pv - used, "%s%s", i ? " " : "", move);
    }
    double seconds = info->time_ms / 1000.0;
    double mnps = info->time_ms > 0 ? info->nodes / (info->time_ms * 1000.0) : 0.0;
    text_emit("info depth=%d score=%.2f nodes=%" PRIu64 " time=%.3f nps=%.2f pv=\"%s\"", info->depth,
         score_in_men(info->score), info->nodes, seconds, mnps, pv);
}

static void on_bestmove(void *context, const Position *root, const Move *best, const Move *ponder)
{
    (void)root;
    Hub *h = context;
    const Variant *v = engine_variant(h->engine);
    if (!best) {
        text_emit("done");
        return;
    }
    char best_text[MOVE_TEXT_MAX], ponder_text[MOVE_TEXT_MAX];
    hub_move_text(v, best, best_text, sizeof best_text);
    if (ponder) {
        hub_move_text(v, ponder, ponder_text, sizeof ponder_text);
        text_emit("done move=%s ponder=%s", best_text, ponder_text);
    } else
        text_emit("done move=%s", best_text);
}

/* ------------------------------------------------------------ commands */

static const char *hub_variant_name(const Variant *v)
{
    return v == &variant_international ? HUB_VARIANT_NAME : v->name;
}

static const Variant *variant_from_hub_name(const char *name)
{
    if (strcmp(name, HUB_VARIANT_NAME) == 0) return &variant_international;
    const Variant *v = variant_by_name(name);
    return v && v != &variant_international && draughts_is_variant(v) ? v : NULL;
}

static void command_hub(Hub *h)
{
    text_emit("id name=Donjon version=%s author=\"the Donjon developers\"", DONJON_VERSION);
    char values[256];
    size_t used = (size_t)snprintf(values, sizeof values, "%s", HUB_VARIANT_NAME);
    for (int i = 0; variant_at(i); i++) {
        const Variant *v = variant_at(i);
        if (draughts_is_variant(v) && v != &variant_international)
            used += (size_t)snprintf(values + used, sizeof values - used, " %s", v->name);
    }
    text_emit("param name=variant value=%s type=enum values=\"%s\"", hub_variant_name(engine_variant(h->engine)), values);
    text_emit("param name=threads value=%d type=int min=1 max=%d", h->threads, THREADS_MAX);
    text_emit("param name=hash value=%d type=int min=1 max=%d", h->hash_mb, HASH_MAX_MB);
    text_emit("wait");
}

static void command_set_param(Hub *h, const HubLine *line)
{
    const HubArg *name = find_arg(line, "name"), *value = find_arg(line, "value");
    if (!name || !name->value || !value || !value->value) {
        error("set-param needs name=… and value=…");
        return;
    }
    char err[256];
    long long number;
    if (strcmp(name->value, "variant") == 0) {
        const Variant *v = variant_from_hub_name(value->value);
        if (!v)
            error("unknown variant '%.40s'", value->value);
        else
            engine_set_variant(h->engine, v);
    } else if (strcmp(name->value, "threads") == 0) {
        if (!text_parse_integer(value->value, 1, THREADS_MAX, &number))
            error("threads must be an integer from 1 to %d", THREADS_MAX);
        else if (!engine_set_threads(h->engine, (int)number, err, sizeof err))
            error("%s", err);
        else
            h->threads = (int)number;
    } else if (strcmp(name->value, "hash") == 0) {
        if (!text_parse_integer(value->value, 1, HASH_MAX_MB, &number))
            error("hash must be an integer from 1 to %d (MB)", HASH_MAX_MB);
        else if (!engine_set_hash(h->engine, (size_t)number, err, sizeof err))
            error("%s", err);
        else
            h->hash_mb = (int)number;
    } else
        error("unknown parameter '%.40s'", name->value);
}

static void command_pos(Hub *h, const HubLine *line)
{
    const Variant *v = engine_variant(h->engine);
    const HubArg *board = find_arg(line, "pos"), *history = find_arg(line, "moves");
    if (!board || !board->value || !*board->value) {
        error("pos needs pos=<side><one letter per square>");
        return;
    }
    char fen[FEN_TEXT_MAX], err[256];
    if (!board_letters_to_fen(v, &HUB_LETTERS, board->value[0], board->value + 1, strlen(board->value + 1), fen,
                              sizeof fen, err, sizeof err)) {
        error("pos: %s; position unchanged", err);
        return;
    }
    Position pos;
    v->parse_fen(v, fen, &pos, err, sizeof err);
    Move *moves = NULL;
    int count = 0, capacity = 0;
    bool ok = true;
    /* the moves are played from the position given, as UCI's `position … moves` */
    const char *p = history && history->value ? history->value : "";
    while (ok) {
        while (*p == ' ') p++;
        if (!*p) break;
        char text[MOVE_TEXT_MAX];
        size_t length = strcspn(p, " ");
        snprintf(text, sizeof text, "%.*s", (int)(length < sizeof text ? length : sizeof text - 1), p);
        p += length;
        static Move legal[MAX_MOVES]; /* input thread only */
        int n = v->generate(v, &pos, legal);
        int index = n ? parse_hub_move(v, text, legal, n, err, sizeof err) : -1;
        if (index < 0) {
            error("pos: move %d: %s; position unchanged", count + 1, n ? err : "the game is already over");
            ok = false;
            break;
        }
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            Move *grown = realloc(moves, sizeof *moves * (size_t)capacity);
            if (!grown) {
                error("pos: out of memory; position unchanged");
                ok = false;
                break;
            }
            moves = grown;
        }
        moves[count++] = legal[index];
        Position next;
        v->make_move(v, &pos, &legal[index], &next);
        pos = next;
    }
    if (ok && !engine_set_game(h->engine, fen, moves, count, err, sizeof err))
        error("pos: %s; position unchanged", err);
    free(moves);
}

static void command_level(Hub *h, const HubLine *line)
{
    HubLevel level = {0, 0, -1, -1, 0, 0, false};
    bool limited = false;
    long long number;
    for (int i = 0; i < line->count; i++) {
        const HubArg *a = &line->args[i];
        bool good = true;
        if (strcmp(a->name, "infinite") == 0)
            level.infinite = limited = true;
        else if (strcmp(a->name, "depth") == 0) {
            good = text_parse_integer(a->value, 1, MAX_PLY - 1, &number);
            level.depth = (int)number;
            limited = true;
        } else if (strcmp(a->name, "nodes") == 0) {
            good = text_parse_integer(a->value, 1, INT64_MAX, &number);
            level.nodes = (uint64_t)number;
            limited = true;
        } else if (strcmp(a->name, "move-time") == 0) {
            good = parse_seconds(a->value, false, &level.move_time_ms);
            limited = true;
        } else if (strcmp(a->name, "time") == 0) {
            good = parse_seconds(a->value, true, &level.time_ms);
            limited = true;
        } else if (strcmp(a->name, "inc") == 0)
            good = parse_seconds(a->value, false, &level.increment_ms);
        else if (strcmp(a->name, "moves") == 0) {
            good = text_parse_integer(a->value, 0, 100000, &number);
            level.moves = (int)number;
        }
        if (!good) {
            error("level: bad value for %.20s; level unchanged", a->name);
            return;
        }
    }
    if (!limited) {
        error("level needs depth=, nodes=, move-time=, time= or infinite; level unchanged");
        return;
    }
    if (level.time_ms < 0 && (level.increment_ms > 0 || level.moves > 0)) {
        error("level: moves= and inc= go with time=; level unchanged");
        return;
    }
    h->level = level;
}

static void command_go(Hub *h, const HubLine *line)
{
    bool ponder = false, known = false;
    for (int i = 0; i < line->count && !known; i++) {
        const char *mode = line->args[i].name;
        known = strcmp(mode, "think") == 0 || strcmp(mode, "ponder") == 0 || strcmp(mode, "analyze") == 0;
        ponder = strcmp(mode, "ponder") == 0;
    }
    if (!known) {
        error("go needs think, ponder or analyze");
        return;
    }
    engine_stop(h->engine);
    engine_wait(h->engine);
    const Variant *v = engine_variant(h->engine);
    static Move legal[MAX_MOVES]; /* input thread only */
    if (v->generate(v, engine_position(h->engine), legal) == 0) {
        error("no legal move in this position");
        text_emit("done");
        return;
    }
    static SearchLimits limits; /* large: kept off the stack; input thread only */
    memset(&limits, 0, sizeof limits);
    const HubLevel *level = &h->level;
    limits.depth = level->depth;
    limits.nodes = level->nodes;
    limits.movetime = level->move_time_ms;
    limits.clock[0] = limits.clock[1] = -1;
    if (level->time_ms >= 0) {
        /* Hub adds the increment before the move; the engine's clock model adds it after */
        int64_t clock = level->time_ms + level->increment_ms;
        limits.clock[0] = limits.clock[1] = clock;
        limits.increment[0] = limits.increment[1] = level->increment_ms;
        limits.moves_to_go = level->moves;
    }
    limits.infinite = level->infinite;
    limits.ponder = ponder;
    limits.multipv = 1;
    engine_go(h->engine, &limits, HUB_MOVE_OVERHEAD_MS);
}

/* Handles one line; false on quit. */
static bool handle_line(Hub *h, char *text)
{
    HubLine line;
    split_line(text, &line);
    if (!line.command) return true;
    const char *c = line.command;
    bool known = strcmp(c, "hub") == 0 || strcmp(c, "init") == 0 || strcmp(c, "set-param") == 0 ||
                 strcmp(c, "pos") == 0 || strcmp(c, "level") == 0 || strcmp(c, "go") == 0 ||
                 strcmp(c, "ponder-hit") == 0 || strcmp(c, "stop") == 0 || strcmp(c, "ping") == 0 ||
                 strcmp(c, "new-game") == 0 || strcmp(c, "quit") == 0;
    if (!known) return true; /* the protocol grows by new commands: ignore them */
    if (!line.well_formed) {
        error("%s: unterminated or misplaced quote", c);
        return true;
    }
    if (strcmp(c, "quit") == 0) return false;
    if (strcmp(c, "ping") == 0)
        text_emit("pong");
    else if (strcmp(c, "hub") == 0)
        command_hub(h);
    else if (strcmp(c, "init") == 0)
        text_emit("ready");
    else if (strcmp(c, "set-param") == 0)
        command_set_param(h, &line);
    else if (strcmp(c, "pos") == 0)
        command_pos(h, &line);
    else if (strcmp(c, "level") == 0)
        command_level(h, &line);
    else if (strcmp(c, "go") == 0)
        command_go(h, &line);
    else if (strcmp(c, "ponder-hit") == 0)
        engine_ponderhit(h->engine);
    else if (strcmp(c, "stop") == 0)
        engine_stop(h->engine);
    else if (strcmp(c, "new-game") == 0)
        engine_new_game(h->engine);
    return true;
}

static bool handle_input(void *context, char *line) { return handle_line(context, line); }

int hub_loop(FILE *in)
{
    Hub h = {.level = DEFAULT_LEVEL, .threads = 1, .hash_mb = 16};
    SearchCallbacks callbacks = {.context = &h, .info = on_info, .bestmove = on_bestmove};
    h.engine = engine_new(&callbacks);
    if (!h.engine) {
        text_emit("error message=\"cannot start the engine (out of memory)\"");
        return 1;
    }
    engine_set_variant(h.engine, &variant_international);
    text_read_lines(in, handle_input, &h);
    engine_stop(h.engine);
    engine_wait(h.engine);
    engine_free(h.engine);
    return 0;
}
