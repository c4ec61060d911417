"""Compiled pieces shared by the bots of several games.

``sequential_halving(sample, play)`` is the budget split of the searching bots
(``strategies/ufs/search.py``, ``strategies/aau/search.py``): sequential halving (Karnin et
al. 2013): ceil(log2 n) rounds share the budget; in each, every candidate still alive is
simulated on the same fresh samples, then the worse half is dropped. Nothing is spent on
the last survivor.

This file is part of the core (``simkit/_cache.py``): editing it changes every game's
compile cache and outcome hash.
"""

from __future__ import annotations

from simkit.jit import kernel
from simkit.loop import named_after


def sequential_halving(sample, play):
    """The compiled search ``halve(n, budget, total, alive, ctx)`` over a game's candidates,
    bound to two compiled functions of the game:

    * ``sample(ctx)`` draws a fresh sample (a bag order, the dice) that every candidate
      simulated next will see (common random numbers);
    * ``play(ctx, c)`` simulates candidate ``c`` (0 .. n-1) on the current sample and
      returns its score (higher is better).

    ``ctx`` is a tuple the game packs its arrays and numbers into; ``halve`` only hands it
    on. ``total`` (floats) and ``alive`` (ints) are scratch of at least ``min(n, budget)``
    entries. With a budget below ``n`` only the first ``budget`` candidates are tried.
    Returns the index of the chosen candidate: the best sum among the survivors (ties:
    the earlier candidate).

    The order of the calls, and so of the random draws, is, per halving round, ``per``
    times: ``sample``, then ``play`` for every candidate still alive, in candidate order;
    ``per`` splits what is left of the budget evenly over the rounds left and the
    candidates alive (at least one each).

    The two functions are bound by a closure rather than passed as arguments: a compiled
    function passed as a value is lowered through its address, which numba cannot cache;
    called from a closure, it is an ordinary direct call."""

    def halve(n, budget, total, alive, ctx):
        k = min(n, budget)
        for c in range(k):
            total[c] = 0.0
            alive[c] = 1
        rounds = 0
        m = 1
        while m < k:
            rounds += 1
            m *= 2
        left = budget
        n_alive = k
        while n_alive > 1:
            per = max(1, (left // rounds) // n_alive)
            for _ in range(per):
                sample(ctx)
                for c in range(k):
                    if alive[c]:
                        total[c] += play(ctx, c)
            left -= per * n_alive
            rounds = max(1, rounds - 1)
            keep = (n_alive + 1) // 2
            while n_alive > keep:  # drop the worst (ties: the later candidate)
                worst = -1
                for c in range(k):
                    if alive[c] and (worst < 0 or total[c] <= total[worst]):
                        worst = c
                alive[worst] = 0
                n_alive -= 1
            if left < n_alive:
                break
        best = -1
        for c in range(k):  # survivors all have the same samples: compare their sums
            if alive[c] and (best < 0 or total[c] > total[best]):
                best = c
        return best

    return kernel(named_after(halve, sample.__module__))  # one name per game (simkit.loop.named_after)
