/*
 * egdb_solver.c — an independent, deliberately plain solver of small draughts endgames, for the
 * endgame database tests (tests/tests_egdb.py). It shares nothing with src/egdb: only the
 * engine's move generator (generate, make_move) and its board layout.
 *
 * Every material of up to --pieces pieces is solved as an explicit graph: each position (both
 * sides to move, numbered naively: one base-N digit a piece, and the side) gets its moves from the generator;
 * moves to a smaller or already solved material are looked up, moves inside the material are
 * stored as reverse edges, and a counting retrograde pass decides every position (undecided at
 * the end = draw). A second pass over the same graph, restricted to won and lost positions and
 * to king moves that are not captures, gives the plies to the next capture or man move (dtz).
 *
 * Output: --samples random positions (a random material, then a random position of it), each
 * with its colour mirror, one a line: "<FEN> <win|draw|loss> <dtz or ->", side to move's view.
 *   egdb_solver --variant V --pieces N --samples S --seed X
 */
#include "../src/bitops.h"
#include "../src/games/draughts.h"
#include "../src/games/draughts_board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOSS = 0, DRAW = 1, WIN = 2, OPEN = 3 };
#define MAX_PIECES 5
#define NONE 0xFFFFFFFFu

typedef struct {
    int men[2], kings[2];   /* by colour */
    int pieces;
    uint64_t space;         /* N^pieces · 2 */
    uint8_t *solved;        /* 2-bit values by naive number, once solved */
    /* while solving */
    uint32_t *dense;        /* naive number -> dense number, or NONE */
    uint32_t count;
    uint8_t *value;         /* by dense number */
    uint8_t *dtz;
    /* the sample positions asked of this material, answered when it is solved */
    uint64_t *asked;
    int asked_count;
    uint8_t *asked_value, *asked_dtz;
} Table;

static const Variant *variant;
static const DraughtsRules *rules;
static int squares;
static Table tables[MAX_PIECES + 1][MAX_PIECES + 1][MAX_PIECES + 1][MAX_PIECES + 1];

static uint64_t random_state;
static uint64_t next_random(void)
{
    uint64_t z = (random_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static Table *table_of(int wm, int wk, int bm, int bk) { return &tables[wm][wk][bm][bk]; }

/* The naive number of a position: the side to move, then one base-N digit a piece — white kings,
 * black kings, white men, black men, each group by rising square — from the least significant.
 * With kings and the side at the bottom, a king move leads to a nearby number: the solver's
 * arrays are used with some locality. */
static const int significance[4] = {1, 3, 0, 2}; /* groups: 0 white men, 1 white kings, 2 black men, 3 black kings */

static inline void group_counts(const Table *t, int counts[4])
{
    counts[0] = t->men[0], counts[1] = t->kings[0], counts[2] = t->men[1], counts[3] = t->kings[1];
}

/* table: the position's material when known, else NULL (it is found and returned) */
static uint64_t naive_number(const DraughtsBoard *b, int side, Table **table)
{
    uint64_t groups[4] = {b->pieces[0] & ~b->kings, b->pieces[0] & b->kings, b->pieces[1] & ~b->kings,
                          b->pieces[1] & b->kings};
    if (!*table) {
        int counts[4];
        for (int g = 0; g < 4; g++) counts[g] = popcount64(groups[g]);
        if (counts[0] + counts[1] + counts[2] + counts[3] > MAX_PIECES) {
            fprintf(stderr, "egdb_solver: too many pieces\n");
            exit(1);
        }
        *table = table_of(counts[0], counts[1], counts[2], counts[3]);
    }
    uint64_t number = (uint64_t)side, scale = 2;
    for (int k = 0; k < 4; k++)
        for (uint64_t x = groups[significance[k]]; x;) {
            number += (uint64_t)rules->square_of_bit[pop_lowest(&x)] * scale;
            scale *= (uint64_t)squares;
        }
    return number;
}

/* The position of a naive number; false when the number names none (squares not rising in a
 * group, a square twice, a man on its crowning row). */
static bool position_of(const Table *t, uint64_t number, Position *pos)
{
    memset(pos, 0, sizeof *pos);
    DraughtsBoard *b = BOARD(pos);
    int counts[4];
    group_counts(t, counts);
    pos->side = (uint8_t)(number % 2);
    number /= 2;
    for (int k = 0; k < 4; k++) {
        int g = significance[k], last = -1;
        for (int i = 0; i < counts[g]; i++) {
            int square = (int)(number % (uint64_t)squares);
            number /= (uint64_t)squares;
            uint64_t bit = BIT(rules->bit_of_square[square]);
            if (square <= last || ((b->pieces[0] | b->pieces[1]) & bit)) return false;
            if (g % 2 == 0 && (rules->crown_row[g / 2] & bit)) return false;
            last = square;
            b->pieces[g / 2] |= bit;
            if (g % 2) b->kings |= bit;
        }
    }
    return true;
}

/* The value for its side to move of a position after a move (a solved material, or no piece). */
static int looked_up(const Position *child, const Move *move, Table *current, uint32_t *inside)
{
    const DraughtsBoard *b = CBOARD(child);
    *inside = NONE;
    if (!b->pieces[child->side]) return LOSS;
    /* a move that neither captures nor crowns keeps the material */
    Table *t = !move->bits && !(move->flags & MOVE_PROMOTES) ? current : NULL;
    uint64_t number = naive_number(b, child->side, &t);
    if (t == current) {
        *inside = current->dense[number];
        return OPEN;
    }
    if (!t->solved) {
        fprintf(stderr, "egdb_solver: a move leads to an unsolved material\n");
        exit(1);
    }
    return (t->solved[number / 4] >> (number % 4 * 2)) & 3;
}

/* Calls visit for every position of the material (both sides to move) in one fixed order:
 * the groups' squares rising, all different, men off their crowning row. */
typedef void (*Visitor)(Table *t, uint32_t number, const Position *pos);

/* Places the groups from the most significant (k = 3) down; scale[g][i] is the weight of group g's
 * i-th piece in the naive number. */
static void visit_positions(Table *t, int k, int i, int from, Position *pos, uint32_t number,
                            const uint32_t scale[4][MAX_PIECES], Visitor visit)
{
    int counts[4];
    group_counts(t, counts);
    while (k >= 0 && i == counts[significance[k]])
        if (--k >= 0) i = 0, from = 0;
    if (k < 0) {
        pos->side = SIDE_WHITE;
        visit(t, number, pos);
        pos->side = SIDE_BLACK;
        visit(t, number + 1, pos);
        return;
    }
    int g = significance[k];
    DraughtsBoard *b = BOARD(pos);
    for (int square = from; square < squares; square++) {
        uint64_t bit = BIT(rules->bit_of_square[square]);
        if (((b->pieces[0] | b->pieces[1]) & bit) || (g % 2 == 0 && (rules->crown_row[g / 2] & bit))) continue;
        b->pieces[g / 2] |= bit;
        if (g % 2) b->kings |= bit;
        visit_positions(t, k, i + 1, square + 1, pos, number + (uint32_t)square * scale[g][i], scale, visit);
        b->pieces[g / 2] &= ~bit;
        b->kings &= ~bit;
    }
}

static void for_each_position(Table *t, Visitor visit)
{
    int counts[4];
    group_counts(t, counts);
    uint32_t scale[4][MAX_PIECES], weight = 2;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < counts[significance[k]]; i++, weight *= (uint32_t)squares) scale[significance[k]][i] = weight;
    Position pos;
    memset(&pos, 0, sizeof pos);
    visit_positions(t, 3, 0, 0, &pos, 0, scale, visit);
}

/* the material being solved: its arrays by dense number (the order of for_each_position) */
static uint8_t *left, *kings_left, *exit_value;
static bool *zeroing_win;
static uint32_t *reverse_start, *reverse, *fill;
static Move moves[MAX_MOVES];

static void number_position(Table *t, uint32_t number, const Position *pos)
{
    (void)pos;
    t->dense[number] = t->count++;
}

/* pass 1: count the edges inside the material and look the others up */
static void count_edges(Table *t, uint32_t number, const Position *pos)
{
    uint32_t i = t->dense[number];
    Position child;
    int n = variant->generate(variant, pos, moves);
    exit_value[i] = LOSS;
    for (int k = 0; k < n; k++) {
        variant->make_move(variant, pos, &moves[k], &child);
        uint32_t inside;
        int v = looked_up(&child, &moves[k], t, &inside);
        if (inside != NONE) {
            left[i]++;
            reverse_start[inside + 1]++;
            continue;
        }
        if (v == LOSS) exit_value[i] = WIN, zeroing_win[i] = true;
        if (v == DRAW && exit_value[i] == LOSS) exit_value[i] = DRAW;
    }
}

/* pass 2: the reverse edges, flagged when the move is a king's quiet move */
static void store_edges(Table *t, uint32_t number, const Position *pos)
{
    uint32_t i = t->dense[number];
    Position child;
    int n = variant->generate(variant, pos, moves);
    const DraughtsBoard *b = CBOARD(pos);
    for (int k = 0; k < n; k++) {
        variant->make_move(variant, pos, &moves[k], &child);
        uint32_t inside;
        looked_up(&child, &moves[k], t, &inside);
        if (inside == NONE) continue;
        bool king_step = !moves[k].bits && (b->kings & BIT(moves[k].from));
        if (king_step) kings_left[i]++;
        reverse[reverse_start[inside] + fill[inside]++] = i << 1 | (king_step ? 1u : 0u);
    }
}

static void keep_value(Table *t, uint32_t number, const Position *pos)
{
    (void)pos;
    t->solved[number / 4] |= (uint8_t)(t->value[t->dense[number]] << (number % 4 * 2));
}

static void solve(Table *t)
{
    t->dense = malloc(sizeof(uint32_t) * t->space);
    memset(t->dense, 0xFF, sizeof(uint32_t) * t->space);
    t->count = 0;
    for_each_position(t, number_position);
    uint32_t count = t->count;
    t->value = malloc(count);
    t->dtz = malloc(count);
    left = calloc(count, 1);         /* undecided moves inside the material */
    kings_left = calloc(count, 1);   /* the same for the dtz pass: king moves to won positions */
    exit_value = malloc(count);      /* best value of the moves that leave the material */
    zeroing_win = calloc(count, 1);  /* a capture or man move wins */
    reverse_start = calloc((size_t)count + 1, sizeof(uint32_t));
    for_each_position(t, count_edges);
    for (uint32_t i = 0; i < count; i++) reverse_start[i + 1] += reverse_start[i];
    reverse = malloc(sizeof(uint32_t) * ((size_t)reverse_start[count] + 1));
    fill = calloc(count, sizeof(uint32_t));
    for_each_position(t, store_edges);
    free(fill);

    /* the retrograde pass */
    uint32_t *queue = malloc(sizeof(uint32_t) * ((size_t)count + 1));
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < count; i++) {
        t->value[i] = OPEN;
        if (exit_value[i] == WIN || left[i] == 0) {
            t->value[i] = exit_value[i];
            if (exit_value[i] != DRAW) queue[tail++] = i;
        }
    }
    while (head < tail) {
        uint32_t q = queue[head++];
        for (uint32_t e = reverse_start[q]; e < reverse_start[q + 1]; e++) {
            uint32_t p = reverse[e] >> 1;
            if (t->value[p] != OPEN) continue;
            if (t->value[q] == LOSS) {
                t->value[p] = WIN;
                queue[tail++] = p;
            } else if (--left[p] == 0) {
                t->value[p] = exit_value[p] == DRAW ? DRAW : LOSS;
                if (t->value[p] == LOSS) queue[tail++] = p;
            }
        }
    }
    for (uint32_t i = 0; i < count; i++)
        if (t->value[i] == OPEN) t->value[i] = DRAW;

    /* dtz: over won and lost positions, king quiet moves only. A won position converts now when
     * a capture or man move wins; a lost one when it has no king move; otherwise the winner picks
     * the quickest king move to a lost position, the loser the slowest (every king move of a lost
     * position goes to a won one). */
    for (uint32_t q = 0; q < count; q++)
        if (t->value[q] == LOSS)
            for (uint32_t e = reverse_start[q]; e < reverse_start[q + 1]; e++)
                if (!(reverse[e] & 1)) zeroing_win[reverse[e] >> 1] = true; /* a man's step to a lost position */
    head = tail = 0;
    bool *done = calloc(count, 1);
    for (uint32_t i = 0; i < count; i++) {
        t->dtz[i] = 0;
        if (t->value[i] == DRAW) continue;
        if ((t->value[i] == WIN && zeroing_win[i]) || (t->value[i] == LOSS && kings_left[i] == 0)) {
            done[i] = true;
            queue[tail++] = i;
        }
    }
    while (head < tail) {
        uint32_t q = queue[head++];
        for (uint32_t e = reverse_start[q]; e < reverse_start[q + 1]; e++) {
            if (!(reverse[e] & 1)) continue;
            uint32_t p = reverse[e] >> 1;
            if (done[p] || t->value[p] == DRAW) continue;
            int d = t->dtz[q] < 255 ? t->dtz[q] + 1 : 255;
            if (t->value[q] == LOSS && t->value[p] == WIN) {
                done[p] = true;
                t->dtz[p] = (uint8_t)d;
                queue[tail++] = p;
            } else if (t->value[q] == WIN && t->value[p] == LOSS && --kings_left[p] == 0) {
                done[p] = true;
                t->dtz[p] = (uint8_t)d;
                queue[tail++] = p;
            }
        }
    }
    for (uint32_t i = 0; i < count; i++)
        if (t->value[i] != DRAW && !done[i]) {
            fprintf(stderr, "egdb_solver: a won or lost position has no conversion distance\n");
            exit(1);
        }
    t->solved = calloc(t->space / 4 + 1, 1);
    for_each_position(t, keep_value);
    t->asked_value = malloc((size_t)t->asked_count + 1);
    t->asked_dtz = malloc((size_t)t->asked_count + 1);
    for (int a = 0; a < t->asked_count; a++) {
        uint32_t i = t->dense[t->asked[a]];
        t->asked_value[a] = t->value[i];
        t->asked_dtz[a] = t->dtz[i];
    }
    free(t->dense);
    free(t->value);
    free(t->dtz);
    t->dense = NULL;
    free(done);
    free(queue);
    free(reverse);
    free(reverse_start);
    free(zeroing_win);
    free(exit_value);
    free(kings_left);
    free(left);
}

static void format_fen(const Position *pos, char *out, size_t len)
{
    const DraughtsBoard *b = CBOARD(pos);
    size_t used = (size_t)snprintf(out, len, "%c", pos->side == 0 ? 'W' : 'B');
    for (int side = 0; side < 2; side++) {
        used += (size_t)snprintf(out + used, len - used, ":%c", side == 0 ? 'W' : 'B');
        bool first = true;
        for (int s = 0; s < squares; s++) {
            int bit = rules->bit_of_square[s];
            if (!(b->pieces[side] & BIT(bit))) continue;
            used += (size_t)snprintf(out + used, len - used, "%s%s%d", first ? "" : ",", (b->kings & BIT(bit)) ? "K" : "",
                                     s + 1);
            first = false;
        }
    }
}

/* The colour mirror: square s goes to N+1-s, colours and the side to move swap. */
static void mirrored(const Position *pos, Position *out)
{
    memset(out, 0, sizeof *out);
    const DraughtsBoard *b = CBOARD(pos);
    DraughtsBoard *m = BOARD(out);
    for (int s = 0; s < squares; s++) {
        int from = rules->bit_of_square[s], to = rules->bit_of_square[squares - 1 - s];
        for (int side = 0; side < 2; side++)
            if (b->pieces[side] & BIT(from)) m->pieces[side ^ 1] |= BIT(to);
        if (b->kings & BIT(from)) m->kings |= BIT(to);
    }
    out->side = pos->side ^ 1;
}

typedef struct {
    Table *table;
    int asked;      /* index into the table's asked list */
} Sample;

static Sample ask(const Position *pos)
{
    Table *t = NULL;
    uint64_t number = naive_number(CBOARD(pos), pos->side, &t);
    t->asked = realloc(t->asked, sizeof(uint64_t) * (size_t)(t->asked_count + 1));
    t->asked[t->asked_count] = number;
    Sample s = {t, t->asked_count++};
    return s;
}

static void print_sample(const Position *pos, Sample s)
{
    static const char *const names[] = {"loss", "draw", "win"};
    char fen[256], dtz[16] = "-";
    format_fen(pos, fen, sizeof fen);
    int value = s.table->asked_value[s.asked];
    if (value != DRAW) snprintf(dtz, sizeof dtz, "%d", s.table->asked_dtz[s.asked]);
    printf("%s %s %s\n", fen, names[value], dtz);
}

int main(int argc, char **argv)
{
    const char *name = NULL;
    int pieces = 4;
    long samples = 1000;
    random_state = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--variant")) name = argv[i + 1];
        if (!strcmp(argv[i], "--pieces")) pieces = atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--samples")) samples = atol(argv[i + 1]);
        if (!strcmp(argv[i], "--seed")) random_state = strtoull(argv[i + 1], NULL, 10);
    }
    draughts_init();
    const Variant *all[] = {&variant_checkers, &variant_russian, &variant_brazilian, &variant_international};
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(all[i]->name, name)) variant = all[i];
    if (!variant || pieces < 2 || pieces > MAX_PIECES || samples < 1) {
        fprintf(stderr, "usage: egdb_solver --variant checkers|russian|brazilian|international --pieces 2..%d "
                        "[--samples N] [--seed S]\n", MAX_PIECES);
        return 2;
    }
    rules = RULES(variant);
    squares = rules->squares;
    /* materials by pieces, then by men: a capture or a crowning leads to a solved one */
    Table *order[1024];
    int materials = 0;
    for (int n = 2; n <= pieces; n++)
        for (int men = 0; men <= n; men++)
            for (int wm = 0; wm <= men; wm++)
                for (int wk = 0; wm + wk <= n; wk++) {
                    int bm = men - wm, bk = n - men - wk;
                    if (bm < 0 || bk < 0 || wm + wk == 0 || bm + bk == 0) continue;
                    Table *t = table_of(wm, wk, bm, bk);
                    t->men[0] = wm, t->kings[0] = wk, t->men[1] = bm, t->kings[1] = bk;
                    t->pieces = n;
                    t->space = 2;
                    for (int k = 0; k < n; k++) t->space *= (uint64_t)squares;
                    order[materials++] = t;
                }
    /* the samples first (a random material, then a random position of it, and its mirror), so
     * that each material answers its own when it is solved */
    Position *positions = malloc(sizeof(Position) * 2 * (size_t)samples);
    Sample *asked = malloc(sizeof(Sample) * 2 * (size_t)samples);
    for (long s = 0; s < samples; s++) {
        Table *t = order[next_random() % (uint64_t)materials];
        uint64_t number;
        do number = next_random() % t->space;
        while (!position_of(t, number, &positions[2 * s]));
        mirrored(&positions[2 * s], &positions[2 * s + 1]);
        asked[2 * s] = ask(&positions[2 * s]);
        asked[2 * s + 1] = ask(&positions[2 * s + 1]);
    }
    for (int i = 0; i < materials; i++) solve(order[i]);
    for (long s = 0; s < 2 * samples; s++) print_sample(&positions[s], asked[s]);
    fprintf(stderr, "egdb_solver: %s, %d materials up to %d pieces, %ld positions printed\n", variant->name, materials,
            pieces, 2 * samples);
    return 0;
}
