#!/usr/bin/env python3
"""Tidy the MLPerf Training results (v0.6 - v4.0) for scalefit: one row per system.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds summary.csv, the per-(round, submitter, system, benchmark)
summary that the project's raw-data store built from the compliance logs of
mlcommons/training_results_v0.6 ... v4.0 (SOURCE.md).  Writes systems.csv
next to this script and prints the SHA-256 of the files read and written.
Standard library only.

Subset rule: keep a summary row when it is not a copy of an earlier round
(duplicate_of_round empty), at least one run succeeded (n_success >= 1) and
the accelerator count is known.
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
    src = os.path.join(sys.argv[1], "summary.csv")
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    several = []
    for i, r in enumerate(rows):
        if r["duplicate_of_round"] or not r["accelerators"] or int(r["n_success"]) < 1:
            continue
        # A system whose runs logged different global batch sizes ("816;1024")
        # gets an empty global_batch: no single number describes it.
        batch = r["global_batch_size"]
        if ";" in batch:
            several.append("%s %s %s %s: %s" % (r["round"], r["submitter"], r["system"],
                                                r["benchmark"], batch))
            batch = ""
        elif batch:
            int(batch)
        for k in ("nodes", "accelerators_per_node", "accelerators"):
            int(r[k])
        out.append([r["round"], r["submitter"], r["system"], r["benchmark"], r["division"],
                    r["nodes"], r["accelerators_per_node"], r["accelerators"],
                    r["accelerator"], r["framework"], batch, r["n_runs"], r["n_success"],
                    r["time_median_s"], r["time_olympic_mean_s"], r["time_mean_s"],
                    r["time_min_s"], r["time_max_s"], r["median_last_epoch_num"]])
    dst = os.path.join(HERE, "systems.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["round", "submitter", "system", "benchmark", "division", "nodes",
                    "accelerators_per_node", "accelerators", "accelerator", "framework",
                    "global_batch", "runs", "runs_success", "time_to_train_median_s",
                    "time_to_train_olympic_mean_s", "time_to_train_mean_s",
                    "time_to_train_min_s", "time_to_train_max_s", "last_epoch_num_median"])
        w.writerows(out)
    print("several global batch sizes (left empty): %s" % "; ".join(several))
    print("wrote systems.csv: %d of %d rows, sha256 %s" % (len(out), len(rows), sha256(dst)))
    print("read summary.csv: sha256 %s" % sha256(src))


if __name__ == "__main__":
    main()
