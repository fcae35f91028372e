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
int64_t now_ms(void);
#endif
