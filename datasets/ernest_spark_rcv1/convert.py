#!/usr/bin/env python3
"""Tidy Ernest's Spark RCV1 example (amplab/ernest examples/rcv1-parsed.csv) for scalefit.

Usage: python3 convert.py RCV1_PARSED_CSV

RCV1_PARSED_CSV is examples/rcv1-parsed.csv of amplab/ernest (added in
ae245bf6a454083a93d1bb8838837d5792b743f9, unchanged at HEAD 4a7359c2).  Its
header is a comment line, "#Cores,Input Fraction, Time (s)".  Writes
spark_lr_rcv1.csv next to this script and prints the SHA-256 of the files
read and written.  Standard library only.
"""
import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The setup, from examples/mllib_rcv1.md; constant over the seven runs.
FRAMEWORK = "Apache Spark 1.6.2 MLlib"
MODEL = "LogisticRegression (10 iterations)"
DATASET = "RCV1 (rcv1_test_256.binary)"
INSTANCE = "r3.xlarge (4 cores each)"
CORES_PER_MACHINE = 4


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    src = sys.argv[1]
    with open(src, newline="") as f:
        lines = f.read().splitlines()
    if [c.strip() for c in lines[0].lstrip("#").split(",")] != ["Cores", "Input Fraction", "Time (s)"]:
        sys.exit("%s:1: not the rcv1-parsed.csv header" % src)
    out = []
    for n, line in enumerate(lines[1:], 2):
        cores, fraction, time_s = [c.strip() for c in line.split(",")]
        if int(cores) % CORES_PER_MACHINE:
            sys.exit("%s:%d: cores not a multiple of %d" % (src, n, CORES_PER_MACHINE))
        float(fraction), float(time_s)
        out.append([FRAMEWORK, MODEL, DATASET, INSTANCE, cores,
                    str(int(cores) // CORES_PER_MACHINE), fraction, time_s])
    dst = os.path.join(HERE, "spark_lr_rcv1.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["framework", "model", "dataset", "instance", "cores", "machines",
                    "input_fraction", "time_s"])
        w.writerows(out)
    print("wrote spark_lr_rcv1.csv: %d rows, sha256 %s" % (len(out), sha256(dst)))
    print("read %s: sha256 %s" % (os.path.basename(src), sha256(src)))


if __name__ == "__main__":
    main()
