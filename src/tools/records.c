/*
 * records.c — `donjon records`: training data from game records (PDN), such as the games
 * scripts/match writes, so that the trainer learns from games played at match budgets and
 * against other engines as well as from self-play.
 *
 * Every game of the files is replayed from its start (its FEN tag, else the variant's start)
 * with the variant's own move reader; each quiet position (nothing forced on the side to move
 * and the move played no capture or exit, as selfplay keeps them) is written with the game's
 * result (its Result tag) and the score of a search of --nodes nodes, to a data shard
 * (dataset.h) that `donjon train` reads with any other. Games without a result (`*`) are left
 * out; a game of another variant (its Variant or GameType tag), a move that is not legal or
 * a damaged file stops the tool with the file, the game and the move named.
 */
#include "../eval_weights.h"
#include "../file_bytes.h"
#include "../outcome.h"
#include "../search.h"
#include "dataset.h"
#include "options.h"
#include "tools.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const Variant *v;
    const EvalWeights *weights;
    SearchLimits limits;
    SearchThread *search;
    TranspositionTable tt;
    DatasetWriter *writer;
    uint64_t *keys;            /* the game's positions so far (repetitions) */
    int key_count, key_capacity;
    uint32_t games, skipped;   /* games written, games left out for lack of a result */
    uint64_t positions;
    int results[3];            /* games by result for White: loss, draw, win */
} Records;

/* A records file is parsed in memory at once: one larger than this (about 1.5 M games) is
 * refused with a message, to be split, rather than swapping the machine. */
#define RECORDS_FILE_MAX_BYTES ((size_t)1 << 30)

/* One game's text: its tags' values that matter, and its move text. */
typedef struct {
    char fen[512], result[16], variant[64];
    bool has_fen;
    char *moves;               /* points into the file's bytes, NUL-terminated */
} GameText;

/* A tag line `[Name "value"]` at text: its name and value copied out; false if malformed. */
static bool parse_tag(const char *text, char *name, size_t name_len, char *value, size_t value_len)
{
    const char *p = text + 1, *start = p;
    while (*p && !isspace((unsigned char)*p) && *p != ']') p++;
    snprintf(name, name_len, "%.*s", (int)(p - start), start);
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '"') return false;
    start = ++p;
    while (*p && *p != '"' && *p != '\n') p++;
    if (*p != '"') return false;
    snprintf(value, value_len, "%.*s", (int)(p - start), start);
    return true;
}

/* The next game of the file at *cursor (tags, then move text up to the next tag line); false
 * at the end, or with *cursor NULL and err filled for a damaged file (file is its first byte).
 * The move text is cut out of the buffer in place. */
static bool next_game(const char *file, char **cursor, GameText *g, const char *path, int game, char *err,
                      size_t errlen)
{
    char *p = *cursor;
    memset(g, 0, sizeof *g);
    while (*p && isspace((unsigned char)*p)) p++;
    if (!*p) return false;
    bool tags = false;
    while (*p == '[') {
        char name[64], value[sizeof g->fen];
        if (!parse_tag(p, name, sizeof name, value, sizeof value)) {
            snprintf(err, errlen, "%s: game %d: a malformed tag line at byte %td", path, game, p - file);
            *cursor = NULL;
            return false;
        }
        tags = true;
        if (strcmp(name, "FEN") == 0) {
            g->has_fen = true;
            snprintf(g->fen, sizeof g->fen, "%s", value);
        } else if (strcmp(name, "Result") == 0)
            snprintf(g->result, sizeof g->result, "%.15s", value);
        else if (strcmp(name, "Variant") == 0 || strcmp(name, "GameType") == 0)
            snprintf(g->variant, sizeof g->variant, "%.63s", value);
        while (*p && *p != '\n') p++;
        while (*p && isspace((unsigned char)*p)) p++;
    }
    if (!tags) {
        snprintf(err, errlen, "%s: game %d: move text without tags", path, game);
        *cursor = NULL;
        return false;
    }
    g->moves = p;
    /* the move text ends where a line starts with the next game's first tag */
    for (; *p; p++)
        if (*p == '[' && (p == g->moves || p[-1] == '\n')) break;
    if (*p) p[-1] = '\0';
    *cursor = p;
    return true;
}

/* The result for White (0 loss, 1 draw, 2 win) a Result value says, or -1 (none, `*`). */
static int white_result(const char *result)
{
    if (strcmp(result, "1-0") == 0 || strcmp(result, "2-0") == 0) return 2;
    if (strcmp(result, "0-1") == 0 || strcmp(result, "0-2") == 0) return 0;
    if (strcmp(result, "1/2-1/2") == 0 || strcmp(result, "1-1") == 0) return 1;
    return -1;
}

static bool is_result_token(const char *t) { return white_result(t) >= 0 || strcmp(t, "*") == 0 || strcmp(t, "0-0") == 0; }

/* The next move of the move text at *p, into token; false at its end. Comments ({...}),
 * variations ((...)), move numbers (`12.`, `12...`) and the result are passed over. */
static bool next_move_token(char **p, char *token, size_t len)
{
    for (;;) {
        char *s = *p;
        while (*s && isspace((unsigned char)*s)) s++;
        if (!*s) return false;
        if (*s == '{' || *s == '(') {
            char open = *s, close = open == '{' ? '}' : ')';
            int depth = 0;
            for (; *s; s++) {
                if (*s == open)
                    depth++;
                else if (*s == close && --depth == 0) {
                    s++;
                    break;
                }
            }
            *p = s;
            continue;
        }
        if (*s == ';') { /* a comment to the end of the line */
            while (*s && *s != '\n') s++;
            *p = s;
            continue;
        }
        char *start = s;
        while (*s && !isspace((unsigned char)*s) && *s != '{' && *s != '(') s++;
        *p = s;
        /* a move number, alone or glued to its move */
        char *t = start;
        while (t < s && isdigit((unsigned char)*t)) t++;
        if (t > start && t < s && *t == '.') {
            while (t < s && *t == '.') t++;
            start = t;
        }
        if (start == s) continue;
        snprintf(token, len, "%.*s", (int)(s - start), start);
        if (is_result_token(token)) continue;
        return true;
    }
}

/* Replays one game and writes its quiet positions. */
static bool record_game(Records *r, const GameText *g, int result, const char *path, int game, char *err,
                        size_t errlen)
{
    const Variant *v = r->v;
    Position pos;
    char why[256];
    if (!v->parse_fen(v, g->has_fen ? g->fen : v->start_fen, &pos, why, sizeof why)) {
        snprintf(err, errlen, "%s: game %d: FEN refused: %s", path, game, why);
        return false;
    }
    tt_clear(&r->tt);
    search_thread_clear(r->search);
    char *cursor = g->moves, token[64];
    int ply = 0;
    r->key_count = 0;
    for (; next_move_token(&cursor, token, sizeof token); ply++) {
        Move legal[MAX_MOVES];
        int count = v->generate(v, &pos, legal);
        int index = count ? v->parse_move(v, &pos, token, legal, count, why, sizeof why) : -1;
        if (index < 0) {
            snprintf(err, errlen, "%s: game %d: ply %d '%s': %s", path, game, ply + 1, token,
                     count ? why : "the game is already over");
            return false;
        }
        bool forced;
        Move noisy[MAX_MOVES];
        v->generate_noisy(v, &pos, noisy, &forced);
        if (!forced && !(legal[index].flags & (MOVE_NOISY | MOVE_WINS))) {
            SearchOutcome found;
            if (!search_fixed(r->search, v, &pos, r->keys, r->key_count, &r->limits, &r->tt, r->weights, NULL, &found)) {
                snprintf(err, errlen, "%s: game %d: ply %d: no search", path, game, ply + 1);
                return false;
            }
            DatasetRecord record;
            memset(&record, 0, sizeof record);
            record.position = pos;
            record.position.key = 0;
            record.game = r->games;
            record.ply = (uint16_t)(ply < 65535 ? ply : 65535);
            record.score = (int16_t)(found.score > 30000 ? 30000 : found.score < -30000 ? -30000 : found.score);
            record.result = (uint8_t)(pos.side == SIDE_WHITE ? result : 2 - result);
            if (!dataset_append(r->writer, &record)) {
                snprintf(err, errlen, "cannot write the shard");
                return false;
            }
            r->positions++;
        }
        if (!game_keys_push(&r->keys, &r->key_count, &r->key_capacity, pos.key)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        Position next;
        v->make_move(v, &pos, &legal[index], &next);
        pos = next;
    }
    return true;
}

static bool record_file(Records *r, const char *path, char *err, size_t errlen)
{
    unsigned char *file;
    size_t size;
    if (!file_read_whole(path, RECORDS_FILE_MAX_BYTES, &file, &size, err, errlen)) return false;
    char *bytes = (char *)file;
    char *cursor = bytes;
    GameText g;
    bool ok = true;
    for (int game = 1; ok && cursor && next_game(bytes, &cursor, &g, path, game, err, errlen); game++) {
        if (g.variant[0] && strcmp(g.variant, r->v->name) != 0) {
            snprintf(err, errlen, "%s: game %d is %s, not %s", path, game, g.variant, r->v->name);
            ok = false;
            break;
        }
        int result = white_result(g.result);
        if (result < 0) {
            r->skipped++;
            continue;
        }
        ok = record_game(r, &g, result, path, game, err, errlen);
        if (ok) {
            r->games++;
            r->results[result]++;
        }
    }
    if (!cursor) ok = false; /* next_game found the file damaged */
    free(bytes);
    return ok;
}

int records_main(int argc, char **argv)
{
    static const char synopsis[] = "--variant V --pdn FILE [--pdn FILE ...] --out FILE [options]";
    ToolOption options[] = {
        {.name = "--variant", .kind = OPTION_TEXT, .help = "the game (required)"},
        {.name = "--pdn", .kind = OPTION_LIST, .help = "a file of game records (repeat for several; required)"},
        {.name = "--out", .kind = OPTION_TEXT, .help = "the data shard to write (required)"},
        {.name = "--nodes", .kind = OPTION_INTEGER, .help = "nodes of the search that scores each position (default 5000)",
         .integer = 5000, .low = 1, .high = 1000000000},
        {.name = "--eval-file", .kind = OPTION_TEXT, .help = "weights of that search (default: the built-in ones)"},
        {.name = "--hash", .kind = OPTION_INTEGER, .help = "table megabytes of that search (default 16)", .integer = 16,
         .low = 1, .high = 65536},
        {.name = NULL},
    };
    if (!tool_options_parse("records", synopsis, options, argc, argv, 2)) return 2;
    const char *variant_name = tool_option(options, "--variant")->text, *out = tool_option(options, "--out")->text;
    const ToolOption *files = tool_option(options, "--pdn");
    if (!variant_name || !out || !files->list_count) {
        fprintf(stderr, "donjon records: --variant, --pdn and --out are required\n\n");
        tool_options_usage("records", synopsis, options, stderr);
        tool_options_free(options);
        return 2;
    }
    Records r;
    memset(&r, 0, sizeof r);
    r.v = variant_by_name(variant_name);
    if (!r.v) {
        fprintf(stderr, "donjon records: unknown variant '%s'\n", variant_name);
        tool_options_free(options);
        return 2;
    }
    char err[768];
    EvalWeights *loaded = NULL;
    r.weights = eval_weights_builtin(r.v);
    const char *eval_file = tool_option(options, "--eval-file")->text;
    if (eval_file) {
        if (!eval_weights_load(r.v, eval_file, &loaded, err, sizeof err)) {
            fprintf(stderr, "donjon records: %s\n", err);
            tool_options_free(options);
            return 1;
        }
        r.weights = loaded;
    }
    memset(&r.limits, 0, sizeof r.limits);
    r.limits.movetime = -1;
    r.limits.clock[0] = r.limits.clock[1] = -1;
    r.limits.multipv = 1;
    r.limits.nodes = (uint64_t)tool_option(options, "--nodes")->integer;
    r.search = search_thread_new(0);
    if (!r.search || !tt_resize(&r.tt, (size_t)tool_option(options, "--hash")->integer)) {
        fprintf(stderr, "donjon records: out of memory\n");
        tool_options_free(options);
        return 1;
    }
    DatasetMeta meta = {.nodes = (uint32_t)r.limits.nodes, .records = true};
    r.writer = dataset_create(out, r.v, &meta, err, sizeof err);
    bool ok = r.writer != NULL;
    for (int i = 0; ok && i < files->list_count; i++) ok = record_file(&r, files->list[i], err, sizeof err);
    if (r.writer) {
        dataset_set_games(r.writer, r.games);
        char close_err[512];
        if (!dataset_close(r.writer, close_err, sizeof close_err) && ok) {
            snprintf(err, sizeof err, "%s", close_err);
            ok = false;
        }
    }
    if (ok)
        fprintf(stderr,
                "%s: %" PRIu32 " games of %s (White +%d =%d -%d), %" PRIu64 " positions scored at %" PRIu64
                " nodes%s\n",
                out, r.games, r.v->name, r.results[2], r.results[1], r.results[0], r.positions, r.limits.nodes,
                r.skipped ? " (games without a result left out)" : "");
    else {
        fprintf(stderr, "donjon records: %s\n", err);
        remove(out); /* no partial shard is left to be trained on */
    }
    search_thread_free(r.search);
    tt_free(&r.tt);
    free(r.keys);
    eval_weights_free(loaded);
    tool_options_free(options);
    return ok ? 0 : 1;
}
