#!/usr/bin/python3
"""Formula disagreement as a dataset's own evidence of its model error
beyond the fitted range (issue 26's lead: "the width must come from each
dataset's own evidence").

On bench/prior.py's corpus (every group of the bundled datasets measured at
4 or more worker counts, cut at each allowed worker count), the new user's
two formulas - init's generic one and the one `discover --train --members
1` finds on init's model - each predict the rows beyond the cut.  Their
disagreement g is the least-squares slope through the origin of
ln(discover's prediction / init's) on the distance in doublings: how fast
the two part ways beyond the cut, known before any row beyond is seen.

The script prints how |g| ranks against each formula's own error per
doubling |z| there (Spearman), and then fits bench/prior.py's prior twice
on the cases of both paths, leaving each dataset out in turn: as fit/
interval.c has it, and with (q g)^2 added to the prior's squared scale (q
fitted too): s0^2 = a^2 + (r sigma)^2 + (q g)^2.  Lower held-out interval
score is better (the width plus 40 times the miss).  Nothing in scalefit
uses g yet: this measures whether it should.

Usage: /usr/bin/python3 bench/disagreement.py [--load FILE] [--jobs N]
(from the built tree; FILE is bench/prior.py --save's evidence of the same
build, else it is gathered again; about 5 minutes on two cores)
"""

import json
import math
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import prior as P  # noqa: E402
from scipy import optimize, stats  # noqa: E402


def disagreement(job):
    """The campaign cut's (dataset, name, cut), g and each formula's z, or
    None."""
    dataset, name, rows, worker, cut = job
    with tempfile.TemporaryDirectory() as d:
        x = P.init_model(d, rows, worker)
        if x is None:
            return None
        train = f"{x} <= {cut:g}"
        a = P.beyond(d, "init.yaml", train)
        if P.run(["discover", "init.yaml", "--train", train, "--members",
                  "1", "-o", "found.yaml", "-q"], d)[0] != 0:
            return None
        b = P.beyond(d, "found.yaml", train)
        common = [k for k in (a or {}) if k in (b or {})]
        if not common:
            return None

        def per_doubling(ratio):
            return P.slope([(a[k][0], math.log(ratio(k))) for k in common])

        return {"key": [dataset, name, cut],
                "g": per_doubling(lambda k: b[k][2] / a[k][2]),
                "init": per_doubling(lambda k: a[k][1] / a[k][2]),
                "discover": per_doubling(lambda k: b[k][1] / b[k][2])}


def fit(cases, with_g):
    """The prior of least interval score and its q, as prior.py fits it
    (Nelder-Mead within its BOUNDS per bias weight), q in [0.001, 20] when
    with_g (else 0)."""
    bounds = P.BOUNDS + ([(math.log(1e-3), math.log(20))] if with_g else [])
    best = None
    for kappa0 in P.KAPPAS:
        def f(t):
            if any(not lo <= v <= hi for v, (lo, hi) in zip(t, bounds)):
                return math.inf
            q = math.exp(t[3]) if with_g else 0.0
            return P.interval_score(P.prior_of(t[:3], kappa0, True), cases,
                                    lambda c: (q * c["g"]) ** 2)
        start = [math.log(v) for v in (0.1, 5, 1, 0.5)][:len(bounds)]
        r = optimize.minimize(f, start, method="Nelder-Mead",
                              options={"xatol": 1e-3, "fatol": 1e-6,
                                       "maxiter": 800})
        if best is None or r.fun < best[0]:
            best = (r.fun, P.prior_of(r.x[:3], kappa0, True),
                    math.exp(r.x[3]) if with_g else 0.0)
    return best[1], best[2]


def main():
    jobs = int(P.option("--jobs", "2"))
    work = [(ds, name, rows, worker, cut)
            for ds, name, rows, worker, cuts in P.campaigns()
            for cut in cuts]
    with ThreadPoolExecutor(jobs) as ex:
        found = [r for r in ex.map(disagreement, work) if r]
        if P.option("--load") is not None:
            with open(P.option("--load")) as f:
                evidence = json.load(f)
        else:
            evidence = [c for cs in ex.map(P.one, work) for c in cs]
    g = {tuple(r["key"]): r["g"] for r in found}
    print(f"{len(found)} of {len(work)} campaign cuts with both formulas' "
          "predictions beyond the cut")
    for path in ("init", "discover"):
        rho = stats.spearmanr([abs(r["g"]) for r in found],
                              [abs(r[path]) for r in found])[0]
        print(f"  |g| against |z| of {path}'s formula: Spearman {rho:.3f}")
    cases = [dict(c, g=g[(c["dataset"], c["name"], c["cut"])])
             for c in evidence
             if (c["dataset"], c["name"], c["cut"]) in g]
    print(f"{len(cases)} of {len(evidence)} cases of prior.py's corpus "
          "(both paths) have a g; held out one dataset at a time:")
    for with_g in (False, True):
        total = covered = 0.0
        for d in sorted({c["dataset"] for c in cases}):
            held = [c for c in cases if c["dataset"] == d]
            p, q = fit([c for c in cases if c["dataset"] != d], with_g)

            def extra(c):
                return (q * c["g"]) ** 2

            s = P.interval_score(p, held, extra)
            inside = P.coverage(p, held, extra)
            total += s * len(held)
            covered += inside * len(held)
            print(f"  {'with' if with_g else 'without':7} g, without {d:12}"
                  f" scale {p['scale']:.3f}, dof {p['dof']:.1f}, bias "
                  f"weight {p['bias_weight']:g}, noise weight "
                  f"{p['noise_weight']:.3f}, q {q:.3f}: score {s:.3f}, "
                  f"{100 * inside:.1f}% inside")
        print(f"{'with' if with_g else 'without'} the disagreement: "
              f"held-out interval score {total / len(cases):.3f}, "
              f"{100 * covered / len(cases):.1f}% inside")
    return 0


if __name__ == "__main__":
    sys.exit(main())
