#!/usr/bin/python3
"""Reference benchmark: SciPy on the 27 NIST StRD nonlinear problems.

Reads what scalefit is given -- tests/nist/NAME.yaml, NAME.csv and
NAME.certified (written by tests/nist/convert.py) -- and for each problem:

  1. scipy.optimize.differential_evolution on the SSE over the YAML box
     (defaults: best1bin, popsize 15, tol 0.01, polish=True i.e. L-BFGS-B;
     fixed seed; non-finite costs count as +inf);
  2. scipy.optimize.least_squares (method 'trf', bounds = the box, default
     tolerances) started from DE's answer;
  3. LRE = -log10(|x - c| / |c|) of the RSS and of every parameter against
     the certified values, after mapping the fitted vector to canonical form
     with the NAME.certified sign/permute rules; LRE is clipped to
     [0, significant digits of the certified string].

Prints one row per problem and the count reaching LRE >= 6 on both the RSS
and every parameter.  Runs with Debian's python3-scipy (hence /usr/bin/python3).

Usage: /usr/bin/python3 bench/nist_scipy.py [--seed N] [PROBLEM...]
"""

import argparse
import math
import os
import re
import sys
import time
import warnings

import numpy as np
import yaml
from scipy.optimize import differential_evolution, least_squares

NIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "nist")

# The only translation from scalefit's expression language that the NIST
# formulas need: ^ -> ** (both right-associative, both tighter than unary
# minus) and these names.
FUNCS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "atan": np.arctan,
         "sin": np.sin, "cos": np.cos, "pi": np.pi}


def to_numpy(expr):
    return compile(expr.replace("^", "**"), expr, "eval")


def load(name):
    with open(os.path.join(NIST, name + ".yaml")) as f:
        model = yaml.safe_load(f)
    with open(os.path.join(NIST, model["data"]["file"])) as f:
        header = f.readline().strip().split(",")
        cols = np.loadtxt(f, delimiter=",", ndmin=2).T
    data = dict(zip(header, cols))
    env = dict(FUNCS)
    inputs = {var: eval(to_numpy(str(col)), {"__builtins__": {}}, {**env, **data})
              for var, col in model["inputs"].items()}
    y = eval(to_numpy(str(model["data"]["output"])), {"__builtins__": {}}, {**env, **data})
    names = list(model["parameters"])
    bounds = [(float(model["parameters"][p]["min"]), float(model["parameters"][p]["max"]))
              for p in names]
    cert = {"params": {}, "rules": []}
    with open(os.path.join(NIST, name + ".certified")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] in names:
                cert["params"][w[0]] = w[1]
            elif w[0] in ("rss", "level"):
                cert[w[0]] = w[1]
            elif w[0] in ("sign", "permute"):
                cert["rules"].append(w)
    assert model["fit"]["loss"] == "sse"
    return dict(name=name, level=cert["level"], names=names, bounds=bounds,
                code=to_numpy(str(model["time"])), inputs=inputs, env=env, y=y, cert=cert)


def residuals(prob, b):
    scope = dict(prob["env"], **prob["inputs"], **dict(zip(prob["names"], b)))
    with np.errstate(all="ignore"):
        f = eval(prob["code"], {"__builtins__": {}}, scope)
    return f - prob["y"]


def sse(prob, b):
    r = residuals(prob, b)
    with np.errstate(all="ignore"):
        s = float(np.dot(r, r))
    return s if math.isfinite(s) else math.inf


def canonical(rules, v):
    """The sign/permute rules of NAME.certified (see tests/nist/README.md)."""
    v = dict(v)
    for w in rules:
        if w[0] == "sign":
            g = w[1].split(",")
            if v[g[0]] < 0:
                for n in g:
                    v[n] = -v[n]
        else:
            i = w.index("by")
            groups = [g.split(",") for g in w[1:i]]
            k, desc = int(w[i + 1]) - 1, w[i + 2] == "desc"
            vals = sorted(([v[n] for n in g] for g in groups), key=lambda t: t[k], reverse=desc)
            for g, t in zip(groups, vals):
                v.update(zip(g, t))
    return v


def digits(s):
    """Significant digits of a decimal string such as 1.2881396800E+03."""
    mant = re.split(r"[eE]", s)[0].lstrip("+-").replace(".", "").lstrip("0")
    return len(mant)


def lre(x, c_str):
    c = float(c_str)
    cap = digits(c_str)
    if not math.isfinite(x):
        return 0.0
    if x == c:
        return float(cap)
    return max(0.0, min(float(cap), -math.log10(abs(x - c) / abs(c))))


def score(prob, b):
    rss = sse(prob, b)
    v = canonical(prob["cert"]["rules"], dict(zip(prob["names"], b)))
    lp = min(lre(v[n], prob["cert"]["params"][n]) for n in prob["names"])
    return rss, lre(rss, prob["cert"]["rss"]), lp


def run(prob, seed):
    t0 = time.perf_counter()
    de = differential_evolution(lambda b: sse(prob, b), prob["bounds"], seed=seed)
    lo, hi = np.array(prob["bounds"]).T
    x0 = np.clip(de.x, lo, hi)
    try:
        ls = least_squares(lambda b: residuals(prob, b), x0, method="trf", bounds=(lo, hi))
        x, lsq_nfev = ls.x, ls.nfev
    except ValueError as e:              # e.g. residuals not finite at x0
        sys.stderr.write("%s: least_squares: %s\n" % (prob["name"], e))
        x, lsq_nfev = x0, 0
    secs = time.perf_counter() - t0
    _, de_rss_lre, de_par_lre = score(prob, de.x)
    rss, rss_lre, par_lre = score(prob, x)
    return dict(de_nfev=de.nfev, lsq_nfev=lsq_nfev, secs=secs, rss=rss,
                de_rss_lre=de_rss_lre, de_par_lre=de_par_lre, rss_lre=rss_lre, par_lre=par_lre)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("problems", nargs="*")
    a = ap.parse_args()
    # Finite-difference Jacobians step into NaN regions (Bennett5's (b2+x)^..);
    # least_squares copes, its RuntimeWarnings would only break up the table.
    warnings.filterwarnings("ignore", category=RuntimeWarning)
    names = a.problems or sorted(f[:-5] for f in os.listdir(NIST) if f.endswith(".yaml"))
    print("SciPy %s differential_evolution(best1bin, popsize 15, tol 0.01, polish L-BFGS-B, seed %d)"
          " + least_squares(trf)" % (__import__("scipy").__version__, a.seed))
    print("LRE clipped to [0, certified digits]; 'DE' columns are before least_squares.")
    print("%-9s %-7s %8s %6s %8s %7s %7s %7s %8s %5s" % (
        "problem", "level", "DE nfev", "LS nfev", "seconds", "DE rss", "DE par",
        "LRE rss", "LRE par", "pass"))
    npass, t_all = 0, time.perf_counter()
    for n in names:
        r = run(load(n), a.seed)
        ok = r["rss_lre"] >= 6 and r["par_lre"] >= 6
        npass += ok
        print("%-9s %-7s %8d %7d %8.2f %7.1f %7.1f %7.1f %8.1f %5s" % (
            n, load(n)["level"], r["de_nfev"], r["lsq_nfev"], r["secs"], r["de_rss_lre"],
            r["de_par_lre"], r["rss_lre"], r["par_lre"], "yes" if ok else "NO"))
        sys.stdout.flush()
    print("%d of %d reach LRE >= 6 on both the RSS and every parameter (%.1f s in all)" % (
        npass, len(names), time.perf_counter() - t_all))


if __name__ == "__main__":
    main()
