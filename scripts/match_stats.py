"""match_stats.py — the statistics of engine matches: Elo from a score, its 95% interval,
likelihood of superiority, and the SPRT on game pairs (pentanomial model)."""
import math

PAIR_SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]  # LL, LD, DD or WL, WD, WW: a pair's score per game


def elo_from_score(score):
    """Elo difference of a score in (0, 1); +/- inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def trinomial(wins, draws, losses):
    """(mean score per game, variance per game)."""
    n = wins + draws + losses
    if n == 0:
        return 0.5, 0.0
    mean = (wins + 0.5 * draws) / n
    var = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2) / n
    return mean, var


def pentanomial(pairs):
    """pairs: counts [LL, LD, DD+WL, WD, WW]. (mean pair score per game, variance per pair)."""
    n = sum(pairs)
    if n == 0:
        return 0.5, 0.0
    mean = sum(c * s for c, s in zip(pairs, PAIR_SCORES)) / n
    var = sum(c * (s - mean) ** 2 for c, s in zip(pairs, PAIR_SCORES)) / n
    return mean, var


def elo_interval(mean, var_per_unit, units, z=1.959964):
    """Elo and its interval from a mean score, the variance of one unit (game or pair), units."""
    if units == 0:
        return 0.0, -math.inf, math.inf
    error = z * math.sqrt(var_per_unit / units)
    return elo_from_score(mean), elo_from_score(mean - error), elo_from_score(mean + error)


def los(wins, losses):
    """Likelihood of superiority: the chance the first engine is the stronger one."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt_bounds(alpha, beta):
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_llr(pairs, elo0, elo1):
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) on game pairs, normal approximation."""
    n = sum(pairs)
    mean, var = pentanomial(pairs)
    if n == 0 or var <= 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def sprt_decision(pairs, elo0, elo1, alpha, beta):
    """'H1', 'H0' or None, and the LLR."""
    llr = sprt_llr(pairs, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1", llr
    if llr <= lower:
        return "H0", llr
    return None, llr
