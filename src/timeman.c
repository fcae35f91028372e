/* timeman.c — time allocation: spend a fair share of the clock, never all of it. */
#include "timeman.h"

#include <time.h>

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t now_ms(void) { return now_us() / 1000; }

TimeBudget time_budget(int64_t movetime, int64_t clock, int64_t increment, int moves_to_go, int64_t overhead)
{
    TimeBudget b = {-1, -1};
    if (overhead < 0) overhead = 0;
    if (movetime >= 0) {
        /* a fixed time per move is a budget to use whole: Move Overhead is for clocks, whose
         * loss on time it prevents; 2 ms cover stopping the threads and writing the move */
        int64_t t = movetime - 2;
        b.optimum_ms = b.maximum_ms = t > 1 ? t : 1;
        return b;
    }
    if (clock < 0) return b;
    if (increment < 0) increment = 0;
    /* what may be spent: the clock less a safety margin for the process and the pipe */
    int64_t left = clock - overhead - 5;
    if (left < 1) left = 1;
    int horizon = moves_to_go > 0 ? (moves_to_go < 40 ? moves_to_go : 40) : 30;
    int64_t optimum = left / horizon + increment * 3 / 4;
    int64_t maximum = moves_to_go == 1 ? left * 4 / 5 : left / 4 + increment / 2;
    if (maximum > left * 4 / 5) maximum = left * 4 / 5;
    if (maximum < 1) maximum = 1;
    if (optimum > maximum) optimum = maximum;
    if (optimum < 1) optimum = 1;
    b.optimum_ms = optimum;
    b.maximum_ms = maximum;
    return b;
}

/* A settled search (the same best move for several iterations, a steady score) stops after 55%
 * of the optimum, as before this measure existed; one whose best move keeps changing, or whose
 * score is falling, goes on up to 3.5 times longer, within the maximum that check_limits enforces.
 * (Spending less on settled moves lost: at 3+0.03 it used 25% less time on average, -30 Elo.) */
int iteration_share_percent(int best_move_changes_x100, int score_drop)
{
    if (best_move_changes_x100 > 150) best_move_changes_x100 = 150;
    if (best_move_changes_x100 < 0) best_move_changes_x100 = 0;
    if (score_drop > 100) score_drop = 100;
    if (score_drop < 0) score_drop = 0;
    /* 50% x (1.1 + changes) x (1 + drop / 200) */
    return 50 * (110 + best_move_changes_x100) * (200 + score_drop) / 20000;
}
