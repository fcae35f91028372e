/* egdb_probe.c — loading a variant's endgame databases and looking positions up (see egdb_probe.h). */
#include "egdb_probe.h"

#include "../bitops.h"
#include "../games/draughts.h"
#include "../games/draughts_board.h"
#include "egdb_file.h"
#include "egdb_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    EgdbIndex index;
    EgdbTableFile wdl, dtz;
    bool has_dtz;
} MaterialTables;

struct EgdbSet {
    const Variant *variant;
    const DraughtsRules *rules;
    int pieces;
    bool dtz;
    int materials;
    size_t bytes;
    MaterialTables *tables[EGDB_MATERIAL_CODES];
};

static void tables_free(MaterialTables *t)
{
    if (!t) return;
    egdb_index_free(&t->index);
    egdb_table_free(&t->wdl);
    egdb_table_free(&t->dtz);
    free(t);
}

/* The materials of exactly n pieces with a piece of each colour. */
static int materials_of(const DraughtsRules *r, int n, EgdbMaterial *out, int max)
{
    int count = 0;
    for (int white = 1; white < n; white++)
        for (int wm = 0; wm <= white; wm++)
            for (int bm = 0; bm <= n - white; bm++) {
                EgdbMaterial m = {wm, white - wm, bm, n - white - bm};
                if (egdb_material_fits(r, m) && count < max) out[count++] = m;
            }
    return count;
}

static void material_path(const char *directory, const Variant *v, EgdbMaterial m, const char *extension, char *out,
                          size_t len)
{
    char name[64];
    egdb_material_name(m, name, sizeof name);
    snprintf(out, len, "%s/%s/%s.%s", directory, v->name, name, extension);
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

EgdbSet *egdb_open(const Variant *v, const char *directory, char *message, size_t len)
{
    egdb_index_tables_init();
    if (!draughts_is_variant(v)) {
        snprintf(message, len, "egdb: %s has no endgame databases", v->name);
        return NULL;
    }
    EgdbSet *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(message, len, "egdb: out of memory; playing without the databases");
        return NULL;
    }
    s->variant = v;
    s->rules = RULES(v);
    s->dtz = true;
    char problem[1024] = "", dtz_problem[1024] = "";
    for (int n = 2; n <= EGDB_PIECES_MAX && !problem[0]; n++) {
        EgdbMaterial list[512];
        int count = materials_of(s->rules, n, list, 512), present = 0;
        char path[4300], missing[64] = "";
        for (int i = 0; i < count; i++) {
            material_path(directory, v, list[i], "wdl", path, sizeof path);
            if (file_exists(path))
                present++;
            else if (!missing[0])
                egdb_material_name(list[i], missing, sizeof missing);
        }
        if (present == 0) break;
        if (present < count) {
            snprintf(problem, sizeof problem, "; its %d-piece set is incomplete (%d of %d materials, no %s) and unused", n,
                     present, count, missing);
            break;
        }
        MaterialTables *level[512] = {NULL};
        for (int i = 0; i < count && !problem[0]; i++) {
            MaterialTables *t = level[i] = calloc(1, sizeof *t);
            char err[4600];
            if (!t || !egdb_index_init(&t->index, s->rules, list[i])) {
                snprintf(problem, sizeof problem, "; out of memory at %d pieces", n);
                break;
            }
            material_path(directory, v, list[i], "wdl", path, sizeof path);
            if (!egdb_table_read(&t->wdl, path, EGDB_KIND_WDL, v->name, list[i], t->index.size, err, sizeof err)) {
                snprintf(problem, sizeof problem, "; its %d-piece set is unused: %.900s", n, err);
                break;
            }
            material_path(directory, v, list[i], "dtz", path, sizeof path);
            if (!file_exists(path)) {
                if (!dtz_problem[0]) snprintf(dtz_problem, sizeof dtz_problem, "; no conversion distances (%.900s is missing)", path);
            } else if (!egdb_table_read(&t->dtz, path, EGDB_KIND_DTZ, v->name, list[i], t->index.size, err, sizeof err)) {
                if (!dtz_problem[0]) snprintf(dtz_problem, sizeof dtz_problem, "; no conversion distances (%.900s)", err);
            } else
                t->has_dtz = true;
        }
        if (problem[0]) {
            for (int i = 0; i < count; i++) tables_free(level[i]);
            break;
        }
        for (int i = 0; i < count; i++) {
            s->tables[egdb_material_code(list[i])] = level[i];
            s->bytes += level[i]->wdl.file_bytes + level[i]->dtz.file_bytes;
            s->dtz &= level[i]->has_dtz;
        }
        s->materials += count;
        s->pieces = n;
    }
    if (!s->pieces) {
        snprintf(message, len, "egdb: no usable database for %s in %s%s; playing without it", v->name, directory,
                 problem[0] ? problem : " (no files)");
        egdb_close(s);
        return NULL;
    }
    if (!s->dtz)
        for (int i = 0; i < EGDB_MATERIAL_CODES; i++)
            if (s->tables[i] && s->tables[i]->has_dtz) {
                s->bytes -= s->tables[i]->dtz.file_bytes;
                egdb_table_free(&s->tables[i]->dtz);
                s->tables[i]->has_dtz = false;
            }
    snprintf(message, len, "egdb: %s up to %d pieces (%d materials, %s, %.1f MB) from %s%s%s", v->name, s->pieces,
             s->materials, s->dtz ? "win/draw/loss and conversion distances" : "win/draw/loss only",
             (double)s->bytes / 1e6, directory, problem, s->dtz ? "" : dtz_problem);
    return s;
}

void egdb_close(EgdbSet *s)
{
    if (!s) return;
    for (int i = 0; i < EGDB_MATERIAL_CODES; i++) tables_free(s->tables[i]);
    free(s);
}

const Variant *egdb_variant(const EgdbSet *s) { return s->variant; }
int egdb_pieces(const EgdbSet *s) { return s->pieces; }
bool egdb_has_dtz(const EgdbSet *s) { return s->dtz; }

/* The tables and number of a position (turned to White to move), or NULL when not covered. */
static const MaterialTables *find(const EgdbSet *s, const Position *pos, uint64_t *index)
{
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t white = b->pieces[SIDE_WHITE], black = b->pieces[SIDE_BLACK];
    if (!white || !black || popcount64(white | black) > s->pieces) return NULL;
    /* men on their crowning row cannot occur in play; they have no number */
    if ((white & ~b->kings & s->rules->crown_row[SIDE_WHITE]) || (black & ~b->kings & s->rules->crown_row[SIDE_BLACK]))
        return NULL;
    DraughtsBoard turned;
    if (pos->side == SIDE_BLACK) {
        egdb_mirror(s->rules, b, &turned);
        b = &turned;
    }
    const MaterialTables *t = s->tables[egdb_material_code(egdb_material_of(b))];
    if (t) *index = egdb_index_of(&t->index, b);
    return t;
}

/* The files leave free the value of a position whose side to move must capture: it is the best
 * of the captures, each leading to fewer pieces. */
static int wdl_of_captures(const EgdbSet *s, const Position *pos, const Move *list, int n)
{
    const Variant *v = s->variant;
    int best = EGDB_LOSS;
    for (int i = 0; i < n && best != EGDB_WIN; i++) {
        Position child;
        v->make_move(v, pos, &list[i], &child);
        int value = CBOARD(&child)->pieces[child.side] ? egdb_probe_wdl(s, &child) : EGDB_LOSS;
        if (value == EGDB_UNKNOWN) return EGDB_UNKNOWN;
        if (value == EGDB_LOSS) best = EGDB_WIN;
        if (value == EGDB_DRAW) best = EGDB_DRAW;
    }
    return best;
}

int egdb_probe_wdl(const EgdbSet *s, const Position *pos)
{
    uint64_t index;
    const MaterialTables *t = find(s, pos, &index);
    if (!t) return EGDB_UNKNOWN;
    if (draughts_has_capture(s->variant, pos)) {
        Move list[MAX_MOVES];
        return wdl_of_captures(s, pos, list, s->variant->generate(s->variant, pos, list));
    }
    int value = egdb_table_get(&t->wdl, index);
    return value >= EGDB_LOSS && value <= EGDB_WIN ? value : EGDB_UNKNOWN;
}

int egdb_probe_dtz(const EgdbSet *s, const Position *pos)
{
    uint64_t index;
    const MaterialTables *t = find(s, pos, &index);
    if (!t || !t->has_dtz) return -1;
    int value = egdb_probe_wdl(s, pos);
    if (value != EGDB_WIN && value != EGDB_LOSS) return -1;
    const Variant *v = s->variant;
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t kings = b->pieces[pos->side] & b->kings;
    /* a capture, or any move of a side without a king, converts at once */
    if (!kings || draughts_has_capture(v, pos)) return 0;
    Move list[MAX_MOVES];
    int n = draughts_quiet_moves(v, pos, list);
    if (value == EGDB_WIN) {
        /* a man's move that wins converts now; otherwise the file has it */
        for (int i = 0; i < n; i++) {
            if (kings & BIT(list[i].from)) continue;
            Position child;
            v->make_move(v, pos, &list[i], &child);
            if (egdb_probe_wdl(s, &child) == EGDB_LOSS) return 0;
        }
        return egdb_table_get(&t->dtz, index);
    }
    /* lost: the loser's longest king move (each leads to a win), or 0 without one */
    int longest = 0;
    for (int i = 0; i < n; i++) {
        if (!(kings & BIT(list[i].from))) continue;
        Position child;
        v->make_move(v, pos, &list[i], &child);
        int d = egdb_probe_dtz(s, &child);
        if (d < 0) return -1;
        if (d + 1 > longest) longest = d + 1 < EGDB_DTZ_MAX ? d + 1 : EGDB_DTZ_MAX;
    }
    return longest;
}

int egdb_longest_dtz(const EgdbSet *s, const Position *pos)
{
    uint64_t index;
    const MaterialTables *t = find(s, pos, &index);
    return t && t->has_dtz ? t->dtz.longest : -1;
}

void egdb_default_directory(char *out, size_t len)
{
    /* the environment may name another default (the test suite: none, whatever egdb/ holds) */
    const char *chosen = getenv("DONJON_EGDB");
    if (chosen && *chosen) {
        snprintf(out, len, "%s", chosen);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(out, len, "egdb");
        return;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    snprintf(out, len, "%s/egdb", slash ? exe : ".");
}
