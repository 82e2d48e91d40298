#!/usr/bin/env python3
"""Tidy the ElasticFlow A100 throughput grid for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds throughputs.csv, the long form of
ElasticFlow/scheduler/throughputs_A100/*.csv (pkusys/ElasticFlow) made by
the project's raw-data store (SOURCE.md).  Writes throughputs.csv next to
this script and prints the SHA-256 of the files read and written.
Standard library only.
"""
import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    src = os.path.join(sys.argv[1], "throughputs.csv")
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for i, r in enumerate(rows):
        gpus, glob = int(r["workers"]), int(r["global_batch_size"])
        its = float(r["iterations_per_s"])
        if float(r["local_batch_size"]) != glob / gpus or its <= 0:
            sys.exit("%s:%d: inconsistent row" % (src, i + 2))
        per_gpu = glob / gpus
        per_gpu = str(int(per_gpu)) if per_gpu == int(per_gpu) else repr(per_gpu)
        # Derived columns are recomputed from the published iterations/s.
        out.append([r["job"], r["model"], r["dataset"], r["gpu"], r["nodes"], str(gpus),
                    str(glob), per_gpu, r["iterations_per_s"], repr(its * glob), repr(1 / its)])
    dst = os.path.join(HERE, "throughputs.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["job", "model", "dataset", "gpu", "nodes", "gpus", "global_batch",
                    "batch_per_gpu", "iterations_per_s", "samples_per_s", "step_time_s"])
        w.writerows(out)
    print("wrote throughputs.csv: %d rows, sha256 %s" % (len(out), sha256(dst)))
    print("read throughputs.csv: sha256 %s" % sha256(src))


if __name__ == "__main__":
    main()
