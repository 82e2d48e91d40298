#!/usr/bin/python3
"""Convert the 27 NIST StRD nonlinear regression problems into scalefit inputs.

For every NAME.dat in the NIST folder (default: ../../../shared/nist-strd, i.e.
/work/shared/nist-strd next to the repository) this writes, next to this script:

  NAME.csv        the data block, columns reordered to predictors first then y
                  (header "x,y", or "x1,x2,y" for Nelson), every number copied
                  as the very decimal string NIST printed;
  NAME.yaml       a scalefit model: the NIST formula in scalefit's expression
                  language, SSE loss, no regularisation, box bounds
                  [-10*m, 10*m] with m = max(|start 1|, |start 2|);
  NAME.certified  the certified values (exact NIST strings), the two starting
                  values, and the rules that make a fitted vector comparable
                  with the certified one (permute / sign); see README.md.

The script is deterministic: it reads only the .dat files, writes only the
files above, and running it twice gives the same bytes.  It also checks what
it writes: the certified values must lie inside the box, the hand-written
formula must agree with a mechanical translation of NIST's own text, the SSE
at the certified values must reproduce the certified RSS, and the certified
vector must already be in canonical order.

Usage: /usr/bin/python3 tests/nist/convert.py [NIST_DIR]
"""

import math
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SRC = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "nist-strd"))

# The NIST formula of each problem, transcribed by hand into scalefit's
# expression language (^ is power, exp/atan/cos/sin/log are functions, pi is
# the constant).  check_formula() compares each with a mechanical translation
# of the .dat text, so a typo here fails the conversion.
TIME = {
    "Bennett5": "b1 * (b2+x)^(-1/b3)",
    "BoxBOD":   "b1*(1-exp(-b2*x))",
    "Chwirut1": "exp(-b1*x)/(b2+b3*x)",
    "Chwirut2": "exp(-b1*x)/(b2+b3*x)",
    "DanWood":  "b1*x^b2",
    "ENSO":     "b1 + b2*cos(2*pi*x/12) + b3*sin(2*pi*x/12)"
                " + b5*cos(2*pi*x/b4) + b6*sin(2*pi*x/b4)"
                " + b8*cos(2*pi*x/b7) + b9*sin(2*pi*x/b7)",
    "Eckerle4": "(b1/b2) * exp(-0.5*((x-b3)/b2)^2)",
    "Gauss1":   "b1*exp(-b2*x) + b3*exp(-(x-b4)^2/b5^2) + b6*exp(-(x-b7)^2/b8^2)",
    "Gauss2":   "b1*exp(-b2*x) + b3*exp(-(x-b4)^2/b5^2) + b6*exp(-(x-b7)^2/b8^2)",
    "Gauss3":   "b1*exp(-b2*x) + b3*exp(-(x-b4)^2/b5^2) + b6*exp(-(x-b7)^2/b8^2)",
    "Hahn1":    "(b1 + b2*x + b3*x^2 + b4*x^3) / (1 + b5*x + b6*x^2 + b7*x^3)",
    "Kirby2":   "(b1 + b2*x + b3*x^2) / (1 + b4*x + b5*x^2)",
    "Lanczos1": "b1*exp(-b2*x) + b3*exp(-b4*x) + b5*exp(-b6*x)",
    "Lanczos2": "b1*exp(-b2*x) + b3*exp(-b4*x) + b5*exp(-b6*x)",
    "Lanczos3": "b1*exp(-b2*x) + b3*exp(-b4*x) + b5*exp(-b6*x)",
    "MGH09":    "b1*(x^2+x*b2) / (x^2+x*b3+b4)",
    "MGH10":    "b1 * exp(b2/(x+b3))",
    "MGH17":    "b1 + b2*exp(-x*b4) + b3*exp(-x*b5)",
    "Misra1a":  "b1*(1-exp(-b2*x))",
    "Misra1b":  "b1 * (1-(1+b2*x/2)^(-2))",
    "Misra1c":  "b1 * (1-(1+2*b2*x)^(-0.5))",
    "Misra1d":  "b1*b2*x*((1+b2*x)^(-1))",
    "Nelson":   "b1 - b2*x1 * exp(-b3*x2)",
    "Rat42":    "b1 / (1+exp(b2-b3*x))",
    "Rat43":    "b1 / ((1+exp(b2-b3*x))^(1/b4))",
    "Roszman1": "b1 - b2*x - atan(b3/(x-b4))/pi",
    "Thurber":  "(b1 + b2*x + b3*x^2 + b4*x^3) / (1 + b5*x + b6*x^2 + b7*x^3)",
}

# Nelson's model is log[y] = ...: the fitted output is log(y), and NIST's RSS
# is over log(y).  Every other problem fits y itself.
OUTPUT = {"Nelson": "log(y)"}

# Symmetries of the model: fitted vectors that give the same function.  A test
# maps a fitted vector to the canonical one before comparing with the
# certified values (format and meaning in README.md).
#   sign  P,Q...       if P < 0, negate P, Q, ... (the listed parameters flip together)
#   permute G1 G2 ... by K asc|desc
#                      groups of parameters (same length) that may be exchanged
#                      as wholes; order them by their K-th member (1-based).
CANON = {
    "ENSO":     ["alias b4,b7", "sign b4,b6", "sign b7,b9", "permute b4,b5,b6 b7,b8,b9 by 1 desc"],
    "Eckerle4": ["sign b2,b1"],
    "Gauss1":   ["sign b5", "sign b8", "permute b3,b4,b5 b6,b7,b8 by 2 asc"],
    "Gauss2":   ["sign b5", "sign b8", "permute b3,b4,b5 b6,b7,b8 by 2 asc"],
    "Gauss3":   ["sign b5", "sign b8", "permute b3,b4,b5 b6,b7,b8 by 2 asc"],
    "Lanczos1": ["permute b1,b2 b3,b4 b5,b6 by 2 asc"],
    "Lanczos2": ["permute b1,b2 b3,b4 b5,b6 by 2 asc"],
    "Lanczos3": ["permute b1,b2 b3,b4 b5,b6 by 2 asc"],
    "MGH17":    ["permute b2,b4 b3,b5 by 2 asc"],
}

NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def die(msg):
    sys.stderr.write("convert.py: error: %s\n" % msg)
    sys.exit(1)


def line_range(lines, label, path):
    """Return the (first, last) 1-based line numbers that the header gives for label."""
    for ln in lines[:20]:
        m = re.match(r"\s+%s\s+\(lines\s+(\d+)\s+to\s+(\d+)\)" % label, ln)
        if m:
            return int(m.group(1)), int(m.group(2))
    die("%s: no '%s (lines A to B)' in the header" % (path, label))


def parse_dat(path):
    """Parse one NIST .dat file into a dict of exact decimal strings."""
    with open(path, encoding="ascii") as f:
        lines = f.read().split("\n")
    name = os.path.basename(path)[:-4]
    text = "\n".join(lines)
    d = {"name": name}

    m = re.search(r"^\s*(\w+) Level of Difficulty", text, re.M)
    d["level"] = m.group(1).lower()
    m = re.search(r"^Model:\s+(.*?)\s*$", text, re.M)
    d["model_class"] = m.group(1)
    # The formula: from the line holding "y =" (or "log[y] =") up to "+  e".
    m = re.search(r"^\s+((?:log\[y\]|y)\s*=.*?)\+\s+e\s*$", text, re.M | re.S)
    d["nist_formula"] = " ".join(m.group(1).split())
    m = re.search(r"(\d+) Predictors?\b", text)
    d["npred"] = int(m.group(1))

    s0, s1 = line_range(lines, "Starting Values", path)
    params = []
    for ln in lines[s0 - 1:s1]:
        m = re.match(r"\s+(b\d+)\s+=\s+(%s)\s+(%s)\s+(%s)\s+(%s)\s*$" % (NUM, NUM, NUM, NUM), ln)
        if not m:
            die("%s: bad parameter line %r" % (path, ln))
        params.append(dict(zip(("name", "start1", "start2", "value", "sd"), m.groups())))
    d["params"] = params
    for key, label in (("rss", "Residual Sum of Squares"),
                       ("residual_sd", "Residual Standard Deviation"),
                       ("dof", "Degrees of Freedom"),
                       ("observations", "Number of Observations")):
        m = re.search(r"^%s:\s+(%s)\s*$" % (label, NUM), text, re.M)
        if not m:
            die("%s: no %s" % (path, label))
        d[key] = m.group(1)

    r0, r1 = line_range(lines, "Data", path)
    head = lines[r0 - 2].split()
    if head[0] != "Data:" or head[1] != "y":
        die("%s: line %d is not the data header: %r" % (path, r0 - 1, lines[r0 - 2]))
    cols = head[1:]
    rows = []
    for i in range(r0 - 1, r1):
        f = lines[i].split()
        if len(f) != len(cols) or not all(re.fullmatch(NUM, v) for v in f):
            die("%s:%d: bad data line %r" % (path, i + 1, lines[i]))
        rows.append(f)
    if any(ln.strip() for ln in lines[r1:]):
        die("%s: text after the data block" % path)
    if len(rows) != int(d["observations"]):
        die("%s: %d rows, header says %s" % (path, len(rows), d["observations"]))
    if len(cols) - 1 != d["npred"]:
        die("%s: %d predictor columns, description says %d" % (path, len(cols) - 1, d["npred"]))
    # NIST's Rat43.dat prints "Degrees of Freedom: 9" for n - k = 15 - 4 = 11;
    # its residual SD is sqrt(RSS/11).  Keep the printed string, note the slip.
    d["notes"] = []
    if int(d["dof"]) != len(rows) - len(params):
        d["notes"].append("NIST prints dof %s but n - k = %d" % (d["dof"], len(rows) - len(params)))
    sd = math.sqrt(float(d["rss"]) / (len(rows) - len(params)))
    if abs(sd - float(d["residual_sd"])) > 1e-9 * sd:
        die("%s: residual SD %s != sqrt(RSS/(n-k)) = %.10e" % (path, d["residual_sd"], sd))
    d["cols"] = cols
    d["rows"] = rows
    return d


def plain(dec):
    """A Decimal as a plain decimal string without exponent or trailing zeros."""
    s = format(dec.normalize(), "f")
    return "0" if s in ("-0", "0") else s


def bound(p):
    m = max(abs(Decimal(p["start1"])), abs(Decimal(p["start2"])))
    if m == 0:
        die("parameter %s: both starting values are 0" % p["name"])
    return -10 * m, 10 * m


# ---- checks --------------------------------------------------------------

def py_expr(expr):
    """scalefit expression -> Python expression (^ -> **); semantics agree:
    both make ** right-associative and tighter than unary minus."""
    return expr.replace("^", "**")


def nist_to_py(formula):
    """NIST's formula text -> Python expression, mechanically."""
    rhs = formula.split("=", 1)[1]
    rhs = rhs.replace("[", "(").replace("]", ")").replace("arctan", "atan")
    rhs = re.sub(r"(?<![\w.])\.(\d)", r"0.\1", rhs)
    return rhs.strip()


def env(d, values):
    e = {"exp": math.exp, "log": math.log, "sqrt": math.sqrt, "atan": math.atan,
         "sin": math.sin, "cos": math.cos, "pi": math.pi}
    for p, v in zip(d["params"], values):
        e[p["name"]] = v
    return e


def evaluate(expr, d, values):
    out = []
    code = compile(expr, d["name"], "eval")
    for row in d["rows"]:
        e = env(d, values)
        for c, v in zip(d["cols"], row):
            e[c] = float(v)
        try:
            r = eval(code, {"__builtins__": {}}, e)
            out.append(r if isinstance(r, float) else float("nan"))  # complex: nan
        except (OverflowError, ZeroDivisionError, ValueError):
            out.append(float("nan"))
    return out


def check_formula(d, time, output):
    """The hand transcription must equal NIST's text at three parameter vectors,
    and the SSE at the certified values must reproduce the certified RSS."""
    mech = nist_to_py(d["nist_formula"])
    lhs = d["nist_formula"].split("=", 1)[0].strip()
    if (lhs == "log[y]") != (output == "log(y)"):
        die("%s: output %s does not match NIST's left side %s" % (d["name"], output, lhs))
    for key in ("start1", "start2", "value"):
        vals = [float(p[key]) for p in d["params"]]
        a = evaluate(py_expr(time), d, vals)
        b = evaluate(mech, d, vals)
        for u, v in zip(a, b):
            if not (u == v or abs(u - v) <= 1e-12 * max(abs(u), abs(v)) or (u != u and v != v)):
                die("%s: formula differs from NIST's text at %s: %r vs %r" % (d["name"], key, u, v))
    vals = [float(p["value"]) for p in d["params"]]
    f = evaluate(py_expr(time), d, vals)
    y = evaluate(py_expr(output), d, vals)
    rss = math.fsum((a - b) ** 2 for a, b in zip(y, f))
    cert = float(d["rss"])
    rel = abs(rss - cert) / cert
    # Certified values carry 11 digits, so the RSS they give agrees to ~1e-10
    # relative -- except where the RSS is tiny next to sum(y^2): Lanczos1's
    # 1.4e-25 cannot be reproduced from 11-digit parameters (nor in double
    # precision), so there an absolute test against sum(y^2) stands in.
    scale = math.fsum(v * v for v in y)
    ok = rel <= 1e-6 or abs(rss - cert) <= 1e-15 * scale
    return rss, rel, ok


def canonical(rules, values):
    """Apply sign/permute rules to {name: float}; return a new dict."""
    v = dict(values)
    for rule in rules:
        f = rule.split()
        if f[0] == "sign":
            names = f[1].split(",")
            if v[names[0]] < 0:
                for n in names:
                    v[n] = -v[n]
        elif f[0] == "permute":
            groups = [g.split(",") for g in f[1:f.index("by")]]
            k = int(f[f.index("by") + 1]) - 1
            desc = f[f.index("by") + 2] == "desc"
            tuples = sorted(([v[n] for n in g] for g in groups), key=lambda t: t[k], reverse=desc)
            for g, t in zip(groups, tuples):
                for n, x in zip(g, t):
                    v[n] = x
    return v


# ---- writers -------------------------------------------------------------

def write(path, text):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def write_csv(d):
    cols = d["cols"][1:] + ["y"]           # predictors first, then y
    out = [",".join(cols)]
    for r in d["rows"]:
        out.append(",".join(r[1:] + [r[0]]))
    write(os.path.join(HERE, d["name"] + ".csv"), "\n".join(out) + "\n")
    return cols[:-1]


def write_yaml(d, inputs, time, output):
    n = d["name"]
    y = []
    y.append("name: %s" % n)
    y.append("description: |")
    y.append("  NIST StRD nonlinear regression problem %s, %s level of difficulty." % (n, d["level"]))
    y.append("  NIST model: %s, %s." % (d["model_class"], d["nist_formula"]))
    y.append("  Provenance: NIST ITL Statistical Reference Datasets (public domain, U.S. Government")
    y.append("  work), file %s.dat, converted by tests/nist/convert.py; bounds are [-10m, 10m]," % n)
    y.append("  m = max(|start 1|, |start 2|) of NIST's starting values.")
    y.append("data:")
    y.append("  file: %s.csv" % n)
    y.append("  output: %s" % output)
    y.append("inputs:")
    for c in inputs:
        y.append("  %s: %s" % (c, c))
    y.append("parameters:")
    for p in d["params"]:
        lo, hi = bound(p)
        y.append("  %s: {min: %s, max: %s}" % (p["name"], plain(lo), plain(hi)))
    y.append("time: %s" % time)
    y.append("fit:")
    y.append("  loss: sse")
    y.append("  regularization: {type: none}")
    write(os.path.join(HERE, n + ".yaml"), "\n".join(y) + "\n")


def write_certified(d, rules):
    n = d["name"]
    c = ["# NIST StRD certified values for %s (from %s.dat), written by tests/nist/convert.py." % (n, n),
         "# Format: see README.md.  NAME VALUE STDDEV per parameter, exact NIST strings.",
         "level %s" % d["level"]]
    for p in d["params"]:
        c.append("%s %s %s" % (p["name"], p["value"], p["sd"]))
    c.append("rss %s" % d["rss"])
    c.append("residual_sd %s" % d["residual_sd"])
    c.append("dof %s" % d["dof"])
    for note in d["notes"]:
        c.append("# note: %s; residual_sd = sqrt(rss/(n-k))." % note)
    c.append("observations %s" % d["observations"])
    for p in d["params"]:
        c.append("start %s %s %s" % (p["name"], p["start1"], p["start2"]))
    c.extend(rules)
    write(os.path.join(HERE, n + ".certified"), "\n".join(c) + "\n")


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SRC
    names = sorted(f[:-4] for f in os.listdir(src) if f.endswith(".dat"))
    if sorted(TIME) != names:
        die("problems in %s differ from the 27 expected: %s" % (src, sorted(set(names) ^ set(TIME))))
    for n in names:
        d = parse_dat(os.path.join(src, n + ".dat"))
        time, output = TIME[n], OUTPUT.get(n, "y")
        rules = CANON.get(n, [])
        rss, rel, ok = check_formula(d, time, output)
        if not ok:
            die("%s: SSE at the certified values %.10e vs certified %s (rel %.1e)" % (n, rss, d["rss"], rel))
        notes = list(d["notes"])
        for p in d["params"]:
            lo, hi = bound(p)
            if not lo <= Decimal(p["value"]) <= hi:
                notes.append("certified %s=%s outside [%s, %s]" % (p["name"], p["value"], plain(lo), plain(hi)))
        cert = {p["name"]: float(p["value"]) for p in d["params"]}
        if canonical(rules, cert) != cert:
            die("%s: the certified values are not in canonical order under %s" % (n, rules))
        inputs = write_csv(d)
        write_yaml(d, inputs, time, output)
        write_certified(d, rules)
        print("%-9s %-7s k=%d n=%-3d rss@certified %.10e rel.err %.1e%s" % (
            n, d["level"], len(d["params"]), len(d["rows"]), rss, rel,
            "".join("; " + s for s in notes)))


if __name__ == "__main__":
    main()
