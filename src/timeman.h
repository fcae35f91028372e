/* timeman.h — how long a search may think, from the clock fields of `go`. */
#ifndef DONJON_TIMEMAN_H
#define DONJON_TIMEMAN_H
#include <stdint.h>

typedef struct {
    int64_t optimum_ms;  /* stop starting new iterations after about this; -1 = no limit */
    int64_t maximum_ms;  /* never think longer than this; -1 = no limit */
} TimeBudget;

/* movetime (used whole, Move Overhead aside), own clock and increment (ms; negative or absent clock = -1), moves to go (0 = unknown) */
TimeBudget time_budget(int64_t movetime, int64_t clock, int64_t increment, int moves_to_go, int64_t overhead);
/* Percent of the optimum after which no new iteration starts, from how unsettled the search is:
 * best_move_changes is a decaying count of root best-move changes (x100), score_drop how far
 * (score units; negative when it rose) the last iteration's score fell below the one before. */
int iteration_share_percent(int best_move_changes_x100, int score_drop);
int64_t now_ms(void);
/* The same monotonic clock in microseconds (bench sums short searches with it). */
int64_t now_us(void);
#endif
