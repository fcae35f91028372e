/* search.c — the alpha-beta search over the game interface (see search.h). */
#include "search.h"

#include "bitops.h"
#include "egdb/egdb_search.h"
#include "eval_weights.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HISTORY_MAX 16384

/* Static evaluations this thread computed, by key: quiescence meets the same leaves again from
 * one iteration to the next and through transpositions, and an entry is one load where the
 * learned evaluation reads a pattern table per window. An entry is the key's high 40 bits and the
 * evaluation + 2^23 in the low 24 (evaluations stay far inside ±2^23); 0 is empty. Cleared at
 * every search, since the weights or the variant may have changed in between. */
#define EVAL_CACHE_SIZE (1 << 14)
#define EVAL_CACHE_VALUE_BITS 24

struct SearchThread {
    int id;
    SearchShared *shared;
    const Variant *variant;
    const EvalWeights *weights;         /* NULL: the variant's hand-set evaluation */
    _Atomic uint64_t nodes;
    int seldepth;
    int root_depth;
    int completed_depth;
    int best_score;
    bool interrupted;                   /* the last iteration was cut short by a stop */
    int root_count;
    int key_base;                       /* index in keys[] of the root position */
    uint64_t keys[HISTORY_MAX + MAX_PLY + 2];
    Position stack[MAX_PLY + 2];
    Move moves[MAX_PLY + 1][MAX_MOVES];
    int move_scores[MAX_PLY + 1][MAX_MOVES];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_length[MAX_PLY + 1];
    Move killers[MAX_PLY + 1][2];
    int32_t history[2][CELL_LIMIT][CELL_LIMIT];
    RootMove root_moves[MAX_MOVES];
    uint64_t eval_cache[EVAL_CACHE_SIZE];  /* see cached_evaluation */
    /* the incremental evaluation's accumulators along the line (see line_evaluation): valid
     * for stack[ply] where accumulator_valid[ply] */
    bool incremental;
    EvalAccumulator accumulators[MAX_PLY + 2];
    bool accumulator_valid[MAX_PLY + 2];
};

SearchThread *search_thread_new(int id)
{
    SearchThread *t = calloc(1, sizeof *t);
    if (t) t->id = id;
    return t;
}

void search_thread_free(SearchThread *t) { free(t); }

void search_thread_clear(SearchThread *t)
{
    memset(t->killers, 0, sizeof t->killers);
    memset(t->history, 0, sizeof t->history);
}

uint64_t search_thread_nodes(const SearchThread *t) { return atomic_load_explicit(&t->nodes, memory_order_relaxed); }

void search_thread_reset_nodes(SearchThread *t) { atomic_store_explicit(&t->nodes, 0, memory_order_relaxed); }

uint64_t search_total_nodes(const SearchShared *shared)
{
    uint64_t total = 0;
    for (int i = 0; i < shared->thread_count; i++) total += search_thread_nodes(shared->threads[i]);
    return total;
}

static inline bool stopped(const SearchThread *t) { return atomic_load_explicit(&t->shared->stop, memory_order_relaxed); }

static inline void count_node(SearchThread *t)
{
    atomic_store_explicit(&t->nodes, atomic_load_explicit(&t->nodes, memory_order_relaxed) + 1, memory_order_relaxed);
}

/* Milliseconds the time budget has used: since `go`, or since ponderhit once the pondered
 * move was played (the clock did not run while pondering; what was searched is a bonus). */
static int64_t budget_elapsed(const SearchShared *s)
{
    int64_t base = atomic_load(&s->ponder_hit) ? atomic_load(&s->ponderhit_ms) : s->start_ms;
    return now_ms() - base;
}

/* Stop on the node limit (every thread watches it, so a descheduled main thread cannot let
 * the helpers run past it), on the clock or on the caller's flag (read by the main thread only). */
static void check_limits_now(SearchThread *t)
{
    SearchShared *s = t->shared;
    uint64_t nodes = search_thread_nodes(t);
    if (s->limits.nodes) {
        if (s->thread_count == 1 ? nodes >= s->limits.nodes
                                 : ((nodes & 63) == 0 && search_total_nodes(s) >= s->limits.nodes))
            atomic_store(&s->stop, true);
    }
    if (t->id != 0 || (nodes & 1023) != 0) return;
    if (s->external_stop && atomic_load(s->external_stop)) atomic_store(&s->stop, true);
    if (s->budget.maximum_ms < 0 || atomic_load(&s->pondering)) return;
    /* after ponderhit the search already went deep: the optimum is all it may still spend */
    int64_t limit = atomic_load(&s->ponder_hit) ? s->budget.optimum_ms : s->budget.maximum_ms;
    if (budget_elapsed(s) >= limit) atomic_store(&s->stop, true);
}

/* At every node: most have nothing to check (no node limit, not the 1024th node of the main
 * thread), and say so without a call. */
static inline void check_limits(SearchThread *t)
{
    if (!t->shared->limits.nodes && (t->id != 0 || (search_thread_nodes(t) & 1023) != 0)) return;
    check_limits_now(t);
}

static inline int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

static inline int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

/* A draw by the history of the game or of the search path (repetition, move counters). */
static bool is_history_draw(const SearchThread *t, int ply)
{
    const Position *pos = &t->stack[ply];
    if (t->variant->counter_draw && t->variant->counter_draw(t->variant, pos)) return true;
    int index = t->key_base + ply;
    int window = pos->reversible_plies;
    for (int back = 2; back <= window && back <= index; back++)
        if (t->keys[index - back] == pos->key) return true;
    return false;
}

/* A draw's score for the side to move at ply: the root side's contempt (Contempt) makes it
 * worth less than an even position to the root side, more to its opponent, so that the
 * search plays on in a position it holds only slightly worse rather than repeat it. */
static inline int draw_score(const SearchThread *t, int ply)
{
    int contempt = t->shared->limits.contempt;
    return t->stack[ply].side == t->shared->root.side ? -contempt : contempt;
}

/* Move ordering: TT move, noisy moves by how much they take, killers, history. Returns the
 * index of the first best-scored move, which pick_move would bring to the front. */
static int score_moves(SearchThread *t, int ply, int count, uint16_t tt_move)
{
    int first_best = 0;
    const Move *moves = t->moves[ply];
    int *scores = t->move_scores[ply];
    int side = t->stack[ply].side;
    for (int i = 0; i < count; i++) {
        const Move *m = &moves[i];
        if (tt_move && move_tag(m) == tt_move)
            scores[i] = 1 << 30;
        else if (m->flags & (MOVE_NOISY | MOVE_WINS))
            scores[i] = (1 << 28) + ((m->flags & MOVE_WINS) ? 1 << 20 : 0) + popcount64(m->bits) * 64 +
                        ((m->flags & MOVE_PROMOTES) ? 32 : 0);
        else if (move_equal(m, &t->killers[ply][0]))
            scores[i] = (1 << 27) + 1;
        else if (move_equal(m, &t->killers[ply][1]))
            scores[i] = 1 << 27;
        else
            scores[i] = t->history[side][m->from][m->to] + ((m->flags & MOVE_PROMOTES) ? 1 << 26 : 0);
        if (scores[i] > scores[first_best]) first_best = i;
    }
    return first_best;
}

static inline void swap_moves(SearchThread *t, int ply, int i, int best)
{
    Move *moves = t->moves[ply];
    int *scores = t->move_scores[ply];
    if (best != i) {
        Move m = moves[i];
        moves[i] = moves[best];
        moves[best] = m;
        int s = scores[i];
        scores[i] = scores[best];
        scores[best] = s;
    }
}

/* Brings the best-scored remaining move to position i (the first move: score_moves found it). */
static inline void pick_move(SearchThread *t, int ply, int i, int count, int first_best)
{
    const int *scores = t->move_scores[ply];
    int best = i;
    if (i == 0)
        best = first_best;
    else
        for (int j = i + 1; j < count; j++)
            if (scores[j] > scores[best]) best = j;
    swap_moves(t, ply, i, best);
}

static inline void update_pv(SearchThread *t, int ply, const Move *m)
{
    t->pv[ply][ply] = *m;
    for (int j = ply + 1; j < t->pv_length[ply + 1]; j++) t->pv[ply][j] = t->pv[ply + 1][j];
    t->pv_length[ply] = t->pv_length[ply + 1] > ply + 1 ? t->pv_length[ply + 1] : ply + 1;
}

static inline void push_child(SearchThread *t, int ply, const Move *m)
{
    t->variant->make_move(t->variant, &t->stack[ply], m, &t->stack[ply + 1]);
    t->keys[t->key_base + ply + 1] = t->stack[ply + 1].key;
    t->accumulator_valid[ply + 1] = false;
}

/* The score of a finished game (generate() found no move) for the side to move. */
static int game_over_score(const SearchThread *t, int ply)
{
    int winner;
    t->variant->game_end(t->variant, &t->stack[ply], &winner);
    return winner == t->stack[ply].side ? SCORE_MATE - ply : -SCORE_MATE + ply;
}

/* The static evaluation of stack[ply]. Incrementally where the game can: the accumulator is
 * brought up from the nearest position of the line that has one (made only when a position is
 * evaluated, as most interior nodes never are), or made from the root. */
static int line_evaluation(SearchThread *t, int ply)
{
    const Variant *v = t->variant;
    const Position *pos = &t->stack[ply];
    if (!t->incremental) return evaluate_position(v, pos, t->weights);
    const void *prepared = t->weights->prepared;
    int from = ply;
    while (from > 0 && !t->accumulator_valid[from]) from--;
    if (!t->accumulator_valid[from]) {
        v->features->accumulate(v, &t->stack[from], prepared, NULL, NULL, &t->accumulators[from]);
        t->accumulator_valid[from] = true;
    }
    for (int p = from + 1; p <= ply; p++) {
        v->features->accumulate(v, &t->stack[p], prepared, &t->stack[p - 1], &t->accumulators[p - 1],
                                &t->accumulators[p]);
        t->accumulator_valid[p] = true;
    }
    return learned_evaluate_accumulated(v, pos, t->weights, &t->accumulators[ply]);
}

static int cached_evaluation(SearchThread *t, int ply)
{
    const Position *pos = &t->stack[ply];
    const uint64_t value_mask = (1ull << EVAL_CACHE_VALUE_BITS) - 1, offset = 1ull << (EVAL_CACHE_VALUE_BITS - 1);
    uint64_t *slot = &t->eval_cache[pos->key & (EVAL_CACHE_SIZE - 1)];
    uint64_t entry = *slot;
    if (entry && (entry & ~value_mask) == (pos->key & ~value_mask)) return (int)((entry & value_mask) - offset);
    int score = line_evaluation(t, ply);
    *slot = (pos->key & ~value_mask) | (((uint64_t)score + offset) & value_mask);
    return score;
}

/* Quiescence plies before the static evaluation is taken whatever remains: in draughts and
 * gounki every noisy move takes material, so their sequences end by themselves, but a tawol
 * attack takes nothing (the pawn stays on top and may attack on), and endless chains of
 * attacks made even a depth-1 search run for minutes. */
#define QUIESCENCE_PLIES_MAX 16

static int quiescence(SearchThread *t, int ply, int qply, int alpha, int beta)
{
    const Variant *v = t->variant;
    const Position *pos = &t->stack[ply];
    t->pv_length[ply] = ply;
    count_node(t);
    check_limits(t);
    if (stopped(t)) return 0;
    if (ply > t->seldepth) t->seldepth = ply;
    if (ply >= MAX_PLY || qply >= QUIESCENCE_PLIES_MAX) return evaluate_position(v, pos, t->weights);

    /* where the game says it may stand pat without generating, the moves wait for the stand-pat */
    bool stand_first = v->may_stand_pat && v->may_stand_pat(v, pos), forced = false;
    int count = 0, best = -SCORE_INFINITE;
    if (!stand_first) {
        count = v->generate_noisy(v, pos, t->moves[ply], &forced);
        if (count == 0 && forced) return game_over_score(t, ply);
    }
    if (!forced) {
        best = cached_evaluation(t, ply);
        if (best >= beta) return best;
        if (best > alpha) alpha = best;
    }
    if (stand_first) count = v->generate_noisy(v, pos, t->moves[ply], &forced);
    int first_best = score_moves(t, ply, count, 0);
    for (int i = 0; i < count; i++) {
        pick_move(t, ply, i, count, first_best);
        const Move *m = &t->moves[ply][i];
        push_child(t, ply, m);
        int score = -quiescence(t, ply + 1, qply + 1, -beta, -alpha);
        if (stopped(t)) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(t, ply, m);
                if (score >= beta) break;
            }
        }
    }
    return best;
}

/* Shallow verification (ProbCut-like): at a non-PV node, a search at 40% of the depth that
 * clears beta by the variant's margin per ply of depth is taken as a cut. Its own subtree does
 * not verify, lest verifications nest. Scores beyond evaluations (database wins, mates) are
 * left alone: a margin means nothing there. */
#define VERIFY_DEPTH_MIN 3
#define VERIFY_DEPTH_PERCENT 40
#define VERIFY_SCORE_LIMIT 10000

/* How many plies a late quiet move is searched shallower first (0: not at all), given the
 * node's depth and the moves already searched there. The step rule suits the draughts family's
 * few moves a node; a game with dozens of quiet moves reduces more the later a move comes and
 * the deeper the node (a logarithmic table as chess engines use). */
static int late_move_reduction(const Variant *v, int depth, int searched, bool pv_node)
{
    bool step_rule = !v->lmr_log_divisor_tenths;
    if (step_rule && v->lmr_step_early && !pv_node) return depth >= 2 ? 1 + (searched >= 4) : 0;
    if (depth < 3 || searched < 3) return 0;
    if (!step_rule) {
        double r = log((double)depth) * log((double)searched) * 10.0 / v->lmr_log_divisor_tenths;
        return (int)r - (pv_node ? 1 : 0);
    }
    if (v->lmr_step_early) return 1;
    return 1 + (searched >= 8 && depth >= 6) - (pv_node ? 1 : 0);
}

/* Simplified ABDADA: with several threads, a node's later moves whose position another thread
 * is already searching (deep enough to matter) wait until the node's other moves are done, so
 * that the threads split the tree instead of all searching the same subtrees at once; the
 * first move is searched by every thread, as the rest depends on its score. */
#define BUSY_DEPTH_MIN 3
#define MOVE_DEFERRED INT_MIN /* a move's ordering score once it was put off: never put off twice */

static inline _Atomic uint64_t *busy_slot(SearchShared *s, uint64_t key)
{
    return &s->busy[(key ^ key >> 32) & (SEARCH_BUSY_SLOTS - 1)];
}

static inline bool is_busy(SearchShared *s, uint64_t key)
{
    return atomic_load_explicit(busy_slot(s, key), memory_order_relaxed) == key;
}

static inline void mark_busy(SearchShared *s, uint64_t key)
{
    atomic_store_explicit(busy_slot(s, key), key, memory_order_relaxed);
}

static inline void unmark_busy(SearchShared *s, uint64_t key)
{
    uint64_t expected = key;
    atomic_compare_exchange_strong_explicit(busy_slot(s, key), &expected, 0, memory_order_relaxed,
                                            memory_order_relaxed);
}

static int alpha_beta(SearchThread *t, int ply, int depth, int alpha, int beta, bool pv_node, bool prune)
{
    const Variant *v = t->variant;
    const Position *pos = &t->stack[ply];
    t->pv_length[ply] = ply;
    if (depth <= 0) return quiescence(t, ply, 0, alpha, beta);
    count_node(t);
    check_limits(t);
    if (stopped(t)) return 0;
    if (ply > t->seldepth) t->seldepth = ply;
    if (is_history_draw(t, ply)) return draw_score(t, ply);
    if (ply >= MAX_PLY) return evaluate_position(v, pos, t->weights);
    /* mate distance pruning: no score here can beat a mate already found nearer the root */
    if (alpha < -SCORE_MATE + ply) alpha = -SCORE_MATE + ply;
    if (beta > SCORE_MATE - ply - 1) beta = SCORE_MATE - ply - 1;
    if (alpha >= beta) return alpha;

    TTHit hit;
    uint16_t tt_move = 0;
    if (tt_probe(t->shared->tt, pos->key, &hit)) {
        tt_move = hit.move;
        int score = score_from_tt(hit.score, ply);
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && score >= beta) ||
             (hit.bound == BOUND_UPPER && score <= alpha)))
            return score;
    }

    /* endgame databases (src/egdb/egdb_search.h): a covered position's exact score ends the line */
    if (t->shared->egdb && ply > 0) {
        int score;
        if (egdb_search_score(t->shared->egdb, pos, &score)) return score;
    }

    Move *moves = t->moves[ply];
    int count = v->generate(v, pos, moves);
    if (count == 0) return game_over_score(t, ply);
    /* internal iterative reduction: without a table move the order here is a guess, so spend less
     * on it; the next iteration comes back with the move this one stores (see iir_depth_min) */
    if (prune && v->iir_depth_min && depth >= v->iir_depth_min && !tt_move) depth--;
    /* a forced reply costs the opponent nothing to see: look one ply further */
    int extension = (count == 1 && ply < 2 * t->root_depth) ? 1 : 0;

    if (prune && v->verify_margin && !pv_node && depth >= VERIFY_DEPTH_MIN && beta < VERIFY_SCORE_LIMIT &&
        beta > -VERIFY_SCORE_LIMIT) {
        int margin = depth * v->verify_margin;
        int raised = beta + margin;
        int score = alpha_beta(t, ply, depth * VERIFY_DEPTH_PERCENT / 100, raised - 1, raised, false, false);
        if (stopped(t)) return 0;
        if (score >= raised) return score - margin;
        /* the verification used this ply's move list: generate it again */
        count = v->generate(v, pos, moves);
    }

    int first_best = score_moves(t, ply, count, tt_move);
    /* the children that probe the table: start loading their entries now, all at once, so that
     * the loads overlap one another and the first moves' searches */
    if (v->key_after && depth >= 2)
        for (int i = 0; i < count; i++) tt_prefetch(t->shared->tt, v->key_after(v, pos, &moves[i]));
    int best = -SCORE_INFINITE, original_alpha = alpha, searched = 0;
    Move best_move;
    memset(&best_move, 0, sizeof best_move);
    bool share_work = t->shared->thread_count > 1 && depth >= BUSY_DEPTH_MIN;
    for (int i = 0; i < count; i++) {
        pick_move(t, ply, i, count, first_best);
        const Move *m = &moves[i];
        push_child(t, ply, m);
        uint64_t child_key = t->stack[ply + 1].key;
        bool marked = false;
        if (share_work && searched > 0 && t->move_scores[ply][i] != MOVE_DEFERRED) {
            if (is_busy(t->shared, child_key)) {
                t->move_scores[ply][i] = MOVE_DEFERRED; /* the last of the moves left, i again */
                i--;
                continue;
            }
            mark_busy(t->shared, child_key);
            marked = true;
        }
        int new_depth = depth - 1 + extension;
        /* the child probes the table first thing (quiescence does not): start the load now */
        if (new_depth > 0) tt_prefetch(t->shared->tt, child_key);
        int score;
        if (searched == 0)
            score = -alpha_beta(t, ply + 1, new_depth, -beta, -alpha, pv_node, prune);
        else {
            /* late quiet moves are searched shallower first (LMR) */
            int reduction = 0;
            if (!(m->flags & (MOVE_NOISY | MOVE_PROMOTES | MOVE_WINS)) && !extension)
                reduction = late_move_reduction(v, depth, searched, pv_node);
            if (reduction > new_depth - 1) reduction = new_depth - 1;
            if (reduction < 0) reduction = 0;
            score = -alpha_beta(t, ply + 1, new_depth - reduction, -alpha - 1, -alpha, false, prune);
            if (score > alpha && reduction)
                score = -alpha_beta(t, ply + 1, new_depth, -alpha - 1, -alpha, false, prune);
            if (score > alpha && score < beta && pv_node)
                score = -alpha_beta(t, ply + 1, new_depth, -beta, -alpha, true, prune);
        }
        if (marked) unmark_busy(t->shared, child_key);
        if (stopped(t)) return 0;
        searched++;
        if (score > best) {
            best = score;
            best_move = *m;
            if (score > alpha) {
                alpha = score;
                if (pv_node) update_pv(t, ply, m);
                if (score >= beta) {
                    if (!(m->flags & MOVE_NOISY)) {
                        if (!move_equal(m, &t->killers[ply][0])) {
                            t->killers[ply][1] = t->killers[ply][0];
                            t->killers[ply][0] = *m;
                        }
                        int32_t *h = &t->history[pos->side][m->from][m->to];
                        *h += depth * depth;
                        if (*h > (1 << 24)) {
                            for (int a = 0; a < CELL_LIMIT; a++)
                                for (int b = 0; b < CELL_LIMIT; b++) t->history[pos->side][a][b] /= 2;
                        }
                    }
                    break;
                }
            }
        }
    }
    int bound = best >= beta ? BOUND_LOWER : best > original_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(t->shared->tt, pos->key, depth, bound, score_to_tt(best, ply), 0, move_tag(&best_move));
    return best;
}

/* Searches root moves [first, root_count) — earlier ones belong to better MultiPV lines. */
static int search_root(SearchThread *t, int depth, int alpha, int beta, int first)
{
    int best = -SCORE_INFINITE;
    t->pv_length[0] = 0;
    /* a move this search does not reach (stopped) keeps no score: one left from a shallower
     * iteration could otherwise outrank, in the sort after a stop, the move found best here */
    for (int i = first + 1; i < t->root_count; i++) t->root_moves[i].score = -SCORE_INFINITE;
    for (int i = first; i < t->root_count; i++) {
        RootMove *rm = &t->root_moves[i];
        push_child(t, 0, &rm->move);
        int score;
        if (i == first)
            score = -alpha_beta(t, 1, depth - 1, -beta, -alpha, true, true);
        else {
            score = -alpha_beta(t, 1, depth - 1, -alpha - 1, -alpha, false, true);
            if (score > alpha && score < beta) score = -alpha_beta(t, 1, depth - 1, -beta, -alpha, true, true);
        }
        if (stopped(t)) return best;
        if (i == first || score > alpha) {
            rm->score = score;
            rm->seldepth = t->seldepth;
            rm->pv[0] = rm->move;
            int length = 1;
            for (int j = 1; j < t->pv_length[1] && length < ROOT_PV_MAX; j++) rm->pv[length++] = t->pv[1][j];
            rm->pv_length = length;
        } else
            rm->score = -SCORE_INFINITE;
        if (score > best) best = score;
        if (score > alpha) {
            alpha = score;
            if (score >= beta) break;
        }
    }
    return best;
}

/* Stable sort of root moves [first, count) by score, best first. */
static void sort_root_moves(SearchThread *t, int first)
{
    for (int i = first + 1; i < t->root_count; i++) {
        RootMove rm = t->root_moves[i];
        int j = i;
        while (j > first && t->root_moves[j - 1].score < rm.score) {
            t->root_moves[j] = t->root_moves[j - 1];
            j--;
        }
        t->root_moves[j] = rm;
    }
}

static void report_line(SearchThread *t, int depth, int index, int bound)
{
    SearchShared *s = t->shared;
    if (s->quiet || !s->callbacks.info) return;
    const RootMove *rm = &t->root_moves[index];
    SearchInfo info;
    info.depth = depth;
    info.seldepth = rm->seldepth > depth ? rm->seldepth : depth;
    info.multipv = index + 1;
    info.score = rm->score == -SCORE_INFINITE ? rm->previous_score : rm->score;
    info.bound = bound;
    info.nodes = search_total_nodes(s);
    info.time_ms = now_ms() - s->start_ms;
    info.hashfull = tt_hashfull(s->tt);
    info.pv_length = rm->pv_length;
    info.pv = rm->pv;
    s->callbacks.info(s->callbacks.context, &s->root, &info);
}

static void prepare_thread(SearchThread *t, SearchShared *s)
{
    t->shared = s;
    t->variant = s->variant;
    t->weights = s->weights;
    memset(t->eval_cache, 0, sizeof t->eval_cache);
    search_thread_reset_nodes(t);
    t->completed_depth = 0;
    t->seldepth = 0;
    t->best_score = -SCORE_INFINITE;
    t->interrupted = false;
    /* the game's positions inside the root's repetition window, then the root */
    int keep = s->game_key_count < HISTORY_MAX ? s->game_key_count : HISTORY_MAX;
    if (keep) memcpy(t->keys, s->game_keys + (s->game_key_count - keep), sizeof(uint64_t) * (size_t)keep);
    t->key_base = keep;
    t->keys[t->key_base] = s->root.key;
    t->stack[0] = s->root;
    t->incremental = learned_incremental(t->variant, t->weights);
    t->accumulator_valid[0] = false;

    Move legal[MAX_MOVES];
    int count = s->variant->generate(s->variant, &s->root, legal);
    t->root_count = 0;
    for (int i = 0; i < count; i++) {
        bool wanted = s->limits.searchmoves_count == 0;
        for (int j = 0; j < s->limits.searchmoves_count && !wanted; j++)
            wanted = move_equal(&legal[i], &s->limits.searchmoves[j]);
        if (!wanted) continue;
        RootMove *rm = &t->root_moves[t->root_count++];
        memset(rm, 0, sizeof *rm);
        rm->move = legal[i];
        rm->score = rm->previous_score = -SCORE_INFINITE;
        rm->pv[0] = legal[i];
        rm->pv_length = 1;
    }
}

/* Iterative deepening shared by the main thread and the helpers. */
static void iterate(SearchThread *t)
{
    SearchShared *s = t->shared;
    const Variant *v = t->variant;
    int multipv = s->limits.multipv < 1 ? 1 : s->limits.multipv;
    /* a weakened search needs the scores of several moves to choose among them */
    if (s->limits.weakened && multipv < SKILL_LINES) multipv = SKILL_LINES;
    if (multipv > t->root_count) multipv = t->root_count;
    int max_depth = s->limits.depth > 0 && s->limits.depth < MAX_PLY - 1 ? s->limits.depth : MAX_PLY - 1;
    /* helpers start one ply deeper every other thread, so the threads spread over depths */
    int start_depth = t->id == 0 ? 1 : 1 + (t->id & 1);
    /* the main thread's measure of an unsettled search, for the clock (iteration_share_percent) */
    int best_move_changes_x100 = 0, last_score = -SCORE_INFINITE;
    Move last_best;
    memset(&last_best, 0, sizeof last_best);
    for (int depth = start_depth; depth <= max_depth && !stopped(t); depth++) {
        t->root_depth = depth;
        for (int i = 0; i < t->root_count; i++) t->root_moves[i].previous_score = t->root_moves[i].score;
        for (int line = 0; line < multipv && !stopped(t); line++) {
            t->seldepth = 0;
            int previous = t->root_moves[line].previous_score;
            int delta = v->aspiration_delta > 0 ? v->aspiration_delta : 25;
            int alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
            if (depth >= 4 && previous > -SCORE_MATE_BOUND && previous < SCORE_MATE_BOUND) {
                alpha = previous - delta;
                beta = previous + delta;
            }
            for (;;) {
                int score = search_root(t, depth, alpha, beta, line);
                sort_root_moves(t, line);
                if (stopped(t)) break;
                if (score <= alpha && alpha > -SCORE_INFINITE) {
                    if (t->id == 0 && now_ms() - s->start_ms > 2000) report_line(t, depth, line, BOUND_UPPER);
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
                } else if (score >= beta && beta < SCORE_INFINITE) {
                    if (t->id == 0 && now_ms() - s->start_ms > 2000) report_line(t, depth, line, BOUND_LOWER);
                    beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
                } else
                    break;
                delta += delta;
                if (delta > 1000) alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
            }
        }
        if (stopped(t)) {
            t->interrupted = true;
            break;
        }
        t->completed_depth = depth;
        t->best_score = t->root_moves[0].score;
        if (t->id != 0) continue;
        int reported = s->limits.multipv < 1 ? 1 : s->limits.multipv < multipv ? s->limits.multipv : multipv;
        for (int line = 0; line < reported; line++) report_line(t, depth, line, BOUND_EXACT);
        /* the main thread decides whether another iteration fits in the time (with a clock; a
         * fixed movetime is used to its end): more of it when the best move changes or the
         * score falls (mate scores aside) */
        best_move_changes_x100 /= 2;
        if (depth > start_depth && !move_equal(&t->root_moves[0].move, &last_best)) best_move_changes_x100 += 100;
        last_best = t->root_moves[0].move;
        int score_drop =
            abs(last_score) < SCORE_MATE_BOUND && abs(t->best_score) < SCORE_MATE_BOUND ? last_score - t->best_score : 0;
        last_score = t->best_score;
        if (!atomic_load(&s->pondering) && s->budget.optimum_ms >= 0 && s->limits.movetime < 0 &&
            budget_elapsed(s) > s->budget.optimum_ms * iteration_share_percent(best_move_changes_x100, score_drop) / 100)
            break;
        /* a forced win or loss proven within this depth will not change */
        int best = t->root_moves[0].score;
        if ((best >= SCORE_MATE_BOUND || best <= -SCORE_MATE_BOUND) && SCORE_MATE - abs(best) <= depth &&
            !s->limits.infinite && s->limits.depth == 0 && s->budget.optimum_ms >= 0)
            break;
        if (t->root_count == 1 && s->budget.optimum_ms >= 0 && !s->limits.infinite && depth >= 4) break;
    }
}

uint64_t skill_node_limit(int level)
{
    uint64_t nodes = 100;
    for (int i = 0; i < level; i++) nodes = nodes * 215 / 100;
    return nodes;
}

/* Skill Level below SKILL_MAX: besides its node budget, a weakened search plays one of its
 * SKILL_LINES best moves, each score raised by a random amount up to (SKILL_MAX - 1 - level)
 * · 30 points, so that lower levels err more often and by more. */
static const RootMove *weakened_choice(const SearchThread *t, const SearchShared *s)
{
    uint64_t random = s->limits.skill_seed | 1;
    int spread = (SKILL_MAX - 1 - s->limits.skill_level) * 30;
    const RootMove *chosen = &t->root_moves[0];
    int best_value = -SCORE_INFINITE;
    for (int i = 0; i < t->root_count && i < SKILL_LINES; i++) {
        const RootMove *rm = &t->root_moves[i];
        int score = rm->score != -SCORE_INFINITE ? rm->score : rm->previous_score;
        if (score == -SCORE_INFINITE) continue;
        random ^= random << 13, random ^= random >> 7, random ^= random << 17; /* xorshift64 */
        int value = score + (spread > 0 ? (int)(random % (uint64_t)(spread + 1)) : 0);
        if (value > best_value) best_value = value, chosen = rm;
    }
    return chosen;
}

void search_helper(SearchThread *t, SearchShared *shared)
{
    prepare_thread(t, shared);
    if (t->root_count) iterate(t);
}

void search_main(SearchThread *t, SearchShared *s)
{
    prepare_thread(t, s);
    if (t->root_count) iterate(t);
    /* go infinite / go ponder never end by themselves: wait for stop or ponderhit */
    while (!stopped(t) && (s->limits.infinite || atomic_load(&s->pondering))) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
        if (!atomic_load(&s->pondering) && !s->limits.infinite && s->budget.maximum_ms >= 0) break;
    }
    atomic_store(&s->stop, true);
    if (s->wait_for_helpers) s->wait_for_helpers(s->pool);

    /* the deepest finished iteration wins; the main thread keeps ties */
    SearchThread *best = t;
    for (int i = 1; i < s->thread_count; i++) {
        SearchThread *h = s->threads[i];
        if (h->root_count && h->completed_depth > best->completed_depth && h->best_score >= best->best_score) best = h;
    }
    const RootMove *chosen = best->root_count ? &best->root_moves[0] : NULL;
    if (chosen && s->limits.weakened) chosen = weakened_choice(best, s);
    /* a GUI shows the last info line: when time or stop cut the search short, or another thread
     * or the skill choice decided, send the line of the move actually played */
    if (chosen && !s->quiet && s->callbacks.info && best->completed_depth > 0 &&
        (best != t || t->interrupted || chosen != &best->root_moves[0])) {
        int score = chosen->score == -SCORE_INFINITE ? chosen->previous_score : chosen->score;
        SearchInfo info = {best->completed_depth, chosen->seldepth, 1, score, BOUND_EXACT, search_total_nodes(s),
                           now_ms() - s->start_ms, tt_hashfull(s->tt), chosen->pv_length, chosen->pv};
        s->callbacks.info(s->callbacks.context, &s->root, &info);
    }
    if (!s->callbacks.bestmove) return;
    if (!chosen) {
        s->callbacks.bestmove(s->callbacks.context, &s->root, NULL, NULL);
        return;
    }
    s->callbacks.bestmove(s->callbacks.context, &s->root, &chosen->move, chosen->pv_length > 1 ? &chosen->pv[1] : NULL);
}

bool search_fixed(SearchThread *t, const Variant *v, const Position *root, const uint64_t *keys, int key_count,
                  const SearchLimits *limits, TranspositionTable *tt, const EvalWeights *weights,
                  const atomic_bool *stop, SearchOutcome *out)
{
    SearchShared shared;
    memset(&shared, 0, sizeof shared);
    shared.variant = v;
    shared.root = *root;
    shared.game_keys = keys;
    shared.game_key_count = key_count;
    shared.limits = *limits;
    shared.tt = tt;
    shared.weights = weights;
    shared.budget.optimum_ms = shared.budget.maximum_ms = -1;
    shared.start_ms = now_ms();
    shared.thread_count = 1;
    shared.threads = &t;
    shared.quiet = true;
    shared.external_stop = stop;
    atomic_store(&shared.stop, false);
    atomic_store(&shared.pondering, false);
    atomic_store(&shared.ponder_hit, false);
    search_main(t, &shared);
    memset(out, 0, sizeof *out);
    out->nodes = search_thread_nodes(t);
    out->depth = t->completed_depth;
    if (!t->root_count) return false;
    const RootMove *rm = &t->root_moves[0];
    out->move = rm->move;
    out->score = rm->score != -SCORE_INFINITE ? rm->score : rm->previous_score;
    return true;
}
