#!/usr/bin/env python3
"""Tidy the Pollux / AdaptDL T4 throughput traces for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds step_times.csv and validation.csv as extracted from
petuum/adaptdl (branch osdi21-artifact, sched/traces/*) by the project's
raw-data store; SOURCE.md describes that extraction.  Writes step_times.csv
and validation.csv next to this script and prints the SHA-256 of every file
read and written.  Standard library only; byte-for-byte reproducible.
"""
import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
read_files = []


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read(raw, name):
    path = os.path.join(raw, name)
    read_files.append(path)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write(name, header, rows):
    path = os.path.join(HERE, name)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print("wrote %s: %d rows, sha256 %s" % (name, len(rows), sha256(path)))


def whole(text, what):
    """A count written as 12 or 12.0, returned as '12'."""
    v = float(text)
    if v != int(v) or v < 0:
        sys.exit("%s is not a whole number: %r" % (what, text))
    return str(int(v))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    raw = sys.argv[1]

    out = []
    for i, r in enumerate(read(raw, "step_times.csv")):
        if r["framework"] != "PyTorch+AdaptDL" or r["gpu"] != "NVIDIA T4":
            sys.exit("step_times.csv:%d: unexpected framework or gpu" % (i + 2))
        gpus = whole(r["workers"], "workers")
        local = whole(r["local_batch_size"], "local_batch_size")
        glob = whole(r["global_batch_size"], "global_batch_size")
        if int(glob) != int(gpus) * int(local):
            sys.exit("step_times.csv:%d: global != workers x local" % (i + 2))
        # The placement "1224" (GPUs per node) becomes "[1,2,2,4]": a digit
        # string would read as a number, and this form reads as what it is.
        placement = r["placement"]
        if placement:
            if not placement.isdigit() or sum(map(int, placement)) != int(gpus) \
                    or len(placement) != int(r["nodes"]):
                sys.exit("step_times.csv:%d: placement %r does not match" % (i + 2, placement))
            placement = "[" + ",".join(placement) + "]"
        float(r["step_time_s"]), float(r["sync_time_s"])
        out.append([r["job"], r["model"], r["dataset"], r["source"], placement,
                    whole(r["nodes"], "nodes"), gpus, local, glob,
                    r["step_time_s"], r["sync_time_s"]])
    write("step_times.csv",
          ["job", "model", "dataset", "source", "placement", "nodes", "gpus",
           "batch_per_gpu", "global_batch", "step_time_s", "sync_time_s"], out)

    out = []
    for r in read(raw, "validation.csv"):
        out.append([r["job"], whole(r["batch_size"], "batch_size"), r["epoch"], r["progress"],
                    r["iteration"], r["metric"], r["grad_sqr"], r["grad_var"]])
    write("validation.csv",
          ["job", "global_batch", "epoch", "progress", "iterations", "metric",
           "grad_sqr", "grad_var"], out)

    for path in read_files:
        print("read %s: sha256 %s" % (os.path.basename(path), sha256(path)))


if __name__ == "__main__":
    main()
