#!/usr/bin/env python3
"""generate.py - the large inputs of the hostile-input campaign (issue 13,
finding 5), written on demand instead of kept in git.

    tests/hostile/generate.py KIND N DIR

writes into DIR (created if missing):

  params N     model.yaml with N parameters in one sum (and its data.csv)
  aliases N    model.yaml whose models: list names one anchored model N
               times (and data.csv)
  columns N    wide.csv with N columns and a model.yaml reading two of them
  rows N       model.yaml and data.csv with N rows (for fit -o and predict)
  constants N  model.yaml with N linear constants on 8 rows (and data.csv)
  candidates N candidates.csv: N runs p,b,n for `next --candidates` on
               tests/hostile/commands/ddp.json (issue 25, finding 04)
  grid N       grid.csv: N points p,n for `predict --grid` on
               tests/hostile/commands/ernest.json (issue 25, finding 07)

Every file is deterministic (no randomness), so runs compare.  Used by
tests/hostile/sizes.sh (make check, at sizes that finish well under a
second) and bench/hostile.sh (the campaign's sizes, time and peak memory).
"""
import os
import sys


def data_csv(path, rows):
    with open(path, "w") as f:
        f.write("p,time\n")
        for i in range(rows):
            p = 1 + i % 64
            f.write("%d,%.6g\n" % (p, 10.0 + 100.0 / p + 0.001 * (i % 7)))


def balanced_sum(terms):
    """A sum nested as a balanced tree: deep sums are refused (at most 2048
    operators deep), a balanced one of any length is not."""
    while len(terms) > 1:
        terms = ["(%s + %s)" % tuple(terms[i:i + 2]) if i + 1 < len(terms)
                 else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


def params(n, d):
    with open(os.path.join(d, "model.yaml"), "w") as f:
        f.write("data:\n  file: data.csv\n  output: time\n")
        f.write("inputs:\n  p: p\nparameters:\n")
        for i in range(n):
            f.write("  a%d: {min: 0, max: 10}\n" % i)
        f.write("time: " + balanced_sum(["a%d/p" % i for i in range(n)]) +
                "\n")
    data_csv(os.path.join(d, "data.csv"), 8)


def aliases(n, d):
    # 250 KB of comments first, so every node of the anchored model is
    # far into the file: its position was counted from the start for
    # every node of every alias, and every model kept a copy of the text.
    with open(os.path.join(d, "model.yaml"), "w") as f:
        for i in range(5000):
            f.write("# line %5d of a long comment before the models\n" % i)
        f.write("data:\n  file: data.csv\n  output: time\n")
        f.write("inputs:\n  p: p\n")
        f.write("models:\n")
        f.write("  - &m\n    parameters:\n")
        for i in range(10):
            f.write("      a%d: {min: 0, max: 10}\n" % i)
        f.write("    time: " +
                balanced_sum(["a%d/p" % i for i in range(10)]) + "\n")
        for i in range(n - 1):
            f.write("  - *m\n")
    data_csv(os.path.join(d, "data.csv"), 8)


def columns(n, d):
    with open(os.path.join(d, "wide.csv"), "w") as f:
        f.write(",".join("c%d" % i for i in range(n)) + "\n")
        for r in range(8):
            f.write(",".join(str(1 + (r + i) % 8) for i in range(n)) + "\n")
    with open(os.path.join(d, "model.yaml"), "w") as f:
        f.write("data:\n  file: wide.csv\n  output: c%d\n" % (n - 1))
        f.write("inputs:\n  p: c%d\n" % (n // 2))
        f.write("parameters:\n  a: {min: 0, max: 100}\n"
                "  b: {min: 0, max: 100}\ntime: a + b*p\n")


def rows(n, d):
    with open(os.path.join(d, "model.yaml"), "w") as f:
        f.write("data:\n  file: data.csv\n  output: time\n")
        f.write("inputs:\n  p: p\nparameters:\n"
                "  a: {min: 0, max: 100}\n  b: {min: 0, max: 1000}\n"
                "time: a + b/p\n")
    data_csv(os.path.join(d, "data.csv"), n)


def constants(n, d):
    with open(os.path.join(d, "model.yaml"), "w") as f:
        f.write("data:\n  file: data.csv\n  output: time\n")
        f.write("inputs:\n  p: p\nparameters:\n")
        for i in range(n):
            f.write("  c%d: {min: 0, max: 10}\n" % i)
        f.write("time: " + balanced_sum(["c%d*p" % i for i in range(n)]) +
                "\n")
    data_csv(os.path.join(d, "data.csv"), 8)


def candidates(n, d):
    with open(os.path.join(d, "candidates.csv"), "w") as f:
        f.write("p,b,n\n")
        for i in range(n):
            f.write("%d,16,256000\n" % (1 + i % 64))


def grid(n, d):
    with open(os.path.join(d, "grid.csv"), "w") as f:
        f.write("p,n\n")
        for i in range(n):
            f.write("%d,0.5\n" % (1 + i % 64))


KINDS = {"params": params, "aliases": aliases, "columns": columns,
         "rows": rows, "constants": constants, "candidates": candidates,
         "grid": grid}

if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit("usage: generate.py %s N DIR" % "|".join(KINDS))
    os.makedirs(sys.argv[3], exist_ok=True)
    KINDS[sys.argv[1]](int(sys.argv[2]), sys.argv[3])
