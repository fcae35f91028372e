/*
 * search.h — the game-independent alpha-beta search: iterative deepening, PVS with
 * aspiration windows, quiescence on each game's noisy moves, TT, killers and history.
 *
 * One SearchShared describes a running search (root, limits, TT, stop flag); each
 * thread owns a SearchThread (stacks, PV, ordering tables). Helper threads (Lazy SMP)
 * share the TT and a table of the positions being searched (a later move another thread is
 * on waits, simplified ABDADA); thread 0 is the main thread: it alone reads the clock, reports
 * through the callbacks, and reports the bestmove after every helper has stopped.
 */
#ifndef DONJON_SEARCH_H
#define DONJON_SEARCH_H
#include "game.h"
#include "timeman.h"
#include "tt.h"

#include <stdatomic.h>

#define SCORE_INFINITE 32500
#define SCORE_MATE 32000
#define SCORE_MATE_BOUND (SCORE_MATE - MAX_PLY)  /* scores beyond this are mates */
#define MAX_MULTIPV 64
#define ROOT_PV_MAX 64
#define SKILL_MAX 10         /* Skill Level: 0 (weakest) .. SKILL_MAX (full strength) */
#define CONTEMPT_MAX 1000     /* Contempt: -CONTEMPT_MAX .. CONTEMPT_MAX score units */
#define SKILL_LINES 4        /* a weakened search compares this many root moves */
#define SEARCH_BUSY_SLOTS 4096 /* positions being searched (SearchShared.busy); a power of two */

typedef struct {
    int depth;               /* 0 = no limit */
    uint64_t nodes;          /* 0 = no limit */
    int64_t movetime;        /* -1 = not given */
    int64_t clock[2];        /* wtime, btime; -1 = not given */
    int64_t increment[2];
    int moves_to_go;
    bool infinite;
    bool ponder;
    int multipv;
    int contempt;            /* what a draw costs the side to move at the root (score units) */
    bool weakened;           /* Skill Level below SKILL_MAX (zeroed limits play at full strength) */
    int skill_level;         /* when weakened: the level, see skill_node_limit and search.c */
    uint64_t skill_seed;     /* the random choice of a weakened search */
    int searchmoves_count;   /* 0 = every legal move */
    Move searchmoves[MAX_MOVES];
} SearchLimits;

typedef struct {
    int depth, seldepth, multipv;
    int score;               /* from the side to move at the root */
    int bound;               /* BOUND_EXACT, or LOWER/UPPER for an aspiration fail */
    uint64_t nodes;
    int64_t time_ms;
    int hashfull;
    int pv_length;
    const Move *pv;
} SearchInfo;

typedef struct {
    void *context;
    void (*info)(void *context, const Position *root, const SearchInfo *info);
    void (*bestmove)(void *context, const Position *root, const Move *best, const Move *ponder);
} SearchCallbacks;

typedef struct RootMove {
    Move move;
    int score;
    int previous_score;
    int seldepth;
    int pv_length;
    Move pv[ROOT_PV_MAX];
} RootMove;

typedef struct SearchThread SearchThread;

typedef struct SearchShared {
    const Variant *variant;
    Position root;
    const uint64_t *game_keys;   /* keys of the game's positions before the root, oldest first */
    int game_key_count;
    SearchLimits limits;
    TranspositionTable *tt;
    SearchCallbacks callbacks;
    atomic_bool stop;
    atomic_bool pondering;       /* while set, the clock does not stop the search */
    atomic_bool ponder_hit;      /* set by ponderhit: the budget counts from ponderhit_ms */
    _Atomic int64_t ponderhit_ms;
    const atomic_bool *external_stop; /* bench: a flag of its caller that also stops the search */
    const struct EvalWeights *weights; /* the learned evaluation's weights, or NULL (hand-set) */
    const struct EgdbSet *egdb;  /* endgame databases to probe (src/egdb), or NULL */
    int64_t start_ms;
    TimeBudget budget;
    int thread_count;
    SearchThread **threads;
    /* positions some thread is searching now (simplified ABDADA, search.c): a thread that
     * meets one among a node's later moves searches its other moves first */
    _Atomic uint64_t busy[SEARCH_BUSY_SLOTS];
    bool quiet;                  /* bench: no info lines */
    /* called by the main thread after setting stop: returns when every helper has stopped */
    void (*wait_for_helpers)(void *pool);
    void *pool;
} SearchShared;

/* The node budget of a weakened search (Skill Level below SKILL_MAX): about 100 · 2.15^level. */
uint64_t skill_node_limit(int level);

SearchThread *search_thread_new(int id);
void search_thread_free(SearchThread *t);
void search_thread_clear(SearchThread *t);  /* forget histories and killers (ucinewgame) */
uint64_t search_thread_nodes(const SearchThread *t);
void search_thread_reset_nodes(SearchThread *t); /* before a search starts: see pool_start */

/* The main thread's whole search: it returns after the bestmove callback. */
void search_main(SearchThread *t, SearchShared *shared);
/* A helper thread's search: returns once shared->stop is set and it has unwound. */
void search_helper(SearchThread *t, SearchShared *shared);

/* Total nodes over every thread of the search. */
uint64_t search_total_nodes(const SearchShared *shared);

typedef struct {
    Move move;
    int score;      /* from the side to move at the root */
    int depth;      /* the deepest completed iteration */
    uint64_t nodes;
} SearchOutcome;

/* One whole search in the calling thread, alone, without output (bench, self-play): keys are
 * the game's positions before root (repetitions). The table and the thread's histories are
 * used as they are (clear them for independent searches). False when root has no legal move. */
bool search_fixed(SearchThread *t, const Variant *v, const Position *root, const uint64_t *keys, int key_count,
                  const SearchLimits *limits, TranspositionTable *tt, const struct EvalWeights *weights,
                  const atomic_bool *stop, SearchOutcome *out);
#endif
