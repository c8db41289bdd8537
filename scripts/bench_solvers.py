"""nx.linalg's solvers against numpy.linalg: the eager time of one call, as a ratio.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python scripts/bench_solvers.py

A measurement for the closing note of issue 14, not a target (those live in
scripts/bench.py). Each pair's results are compared before anything is
timed; each time is the best of 5 samples of at least 20 ms.
"""

from __future__ import annotations

import timeit

import numpy as np

from rune import nx


def best_time(f):
    number = 1
    while True:
        best = min(timeit.repeat(f, number=number, repeat=5)) / number
        if best * number > 0.02:
            return best
        number *= 4


def pairs(n, rng):
    tall = rng.standard_normal((n + n // 2, n))
    b = rng.standard_normal(n + n // 2)
    square = rng.standard_normal((n, n)) + n * np.eye(n)
    chain = [rng.standard_normal(s) for s in [(n, 2 * n), (2 * n, n // 2 + 1), (n // 2 + 1, n),
                                              (n, 3)]]
    t_tall, t_b, t_square, t_chain = nx.array(tall), nx.array(b), nx.array(square), [
        nx.array(c) for c in chain]
    return [
        ("pinv", lambda: nx.linalg.pinv(t_tall), lambda: np.linalg.pinv(tall)),
        ("lstsq", lambda: nx.linalg.lstsq(t_tall, t_b), lambda: np.linalg.lstsq(tall, b)),
        ("matrix_power 7", lambda: nx.linalg.matrix_power(t_square, 7),
         lambda: np.linalg.matrix_power(square, 7)),
        ("matrix_power -2", lambda: nx.linalg.matrix_power(t_square, -2),
         lambda: np.linalg.matrix_power(square, -2)),
        ("matrix_rank", lambda: nx.linalg.matrix_rank(t_tall),
         lambda: np.linalg.matrix_rank(tall)),
        ("cond", lambda: nx.linalg.cond(t_tall), lambda: np.linalg.cond(tall)),
        ("cond 1", lambda: nx.linalg.cond(t_square, 1), lambda: np.linalg.cond(square, 1)),
        ("multi_dot", lambda: nx.linalg.multi_dot(t_chain), lambda: np.linalg.multi_dot(chain)),
        ("tensorinv", lambda: nx.linalg.tensorinv(t_square, 1),
         lambda: np.linalg.tensorinv(square, 1)),
    ]


def main():
    rng = np.random.default_rng(0)
    print("| n | function | rune (us) | numpy (us) | ratio |\n|---|---|---|---|---|")
    for n in (4, 50, 200):
        for name, ours, theirs in pairs(n, rng):
            got, want = ours(), theirs()
            for g, w in zip(got if isinstance(want, tuple) else (got,),
                            want if isinstance(want, tuple) else (want,)):
                np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-8, atol=1e-8)
            t_ours, t_theirs = best_time(ours), best_time(theirs)
            print(f"| {n} | {name} | {t_ours * 1e6:.1f} | {t_theirs * 1e6:.1f} | "
                  f"{t_ours / t_theirs:.2f} |")


if __name__ == "__main__":
    main()
