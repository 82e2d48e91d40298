#!/usr/bin/env python3
"""Tidy Baidu DeepBench's all-reduce latencies for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds allreduce.csv, the "All-Reduce" blocks of DeepBench's
results/train/*.xlsx (baidu-research/DeepBench) extracted by the project's
raw-data store (SOURCE.md).  Writes allreduce.csv next to this script and
prints the SHA-256 of the files read and written.  Standard library only.
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
    src = os.path.join(sys.argv[1], "allreduce.csv")
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for i, r in enumerate(rows):
        if r["benchmark"] != "DeepBench all-reduce (training, FP32)":
            sys.exit("%s:%d: unexpected benchmark" % (src, i + 2))
        floats = int(r["message_floats"])
        if int(r["message_bytes"]) != 4 * floats:
            sys.exit("%s:%d: bytes != 4 x floats" % (src, i + 2))
        ms = float(r["mean_time_ms"])
        # Times are kept in milliseconds as published; time_s is added so
        # that every bundled dataset has a time in seconds.
        out.append([r["device"], r["sheet"], r["ranks"], r["nodes"], str(floats),
                    r["message_bytes"], r["mean_time_ms"], r["std_time_ms"],
                    repr(ms / 1000), r["bandwidth_GBps_reported"], r["algorithm"]])
    dst = os.path.join(HERE, "allreduce.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["device", "sheet", "ranks", "nodes", "message_floats", "message_bytes",
                    "mean_time_ms", "std_time_ms", "time_s", "bandwidth_gb_per_s_reported",
                    "algorithm"])
        w.writerows(out)
    print("wrote allreduce.csv: %d rows, sha256 %s" % (len(out), sha256(dst)))
    print("read allreduce.csv: sha256 %s" % sha256(src))


if __name__ == "__main__":
    main()
