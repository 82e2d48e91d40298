#!/usr/bin/env python3
"""Tidy Gavel's measured stand-alone job throughputs for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds throughputs.csv, extracted from Gavel's
scheduler/simulation_throughputs.json and physical_cluster_throughputs.json
(stanford-futuredata/gavel) by the project's raw-data store (SOURCE.md).
Writes throughputs.csv next to this script and prints the SHA-256 of the
files read and written.  Standard library only.
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
    dropped = []
    for i, r in enumerate(rows):
        if r["framework"] != "PyTorch":
            sys.exit("%s:%d: unexpected framework" % (src, i + 2))
        # No measurement (0.0 in Gavel's files, empty in the raw CSV): no row.
        if not r["throughput_steps_per_s"]:
            dropped.append("%s %s x%s" % (r["job"], r["gpu"], r["workers"]))
            continue
        gpus = int(r["workers"])
        steps = float(r["throughput_steps_per_s"])
        per_gpu = r["batch_size_per_worker"]
        glob = str(gpus * int(per_gpu)) if per_gpu else ""
        samples = repr(steps * int(per_gpu)) if per_gpu else ""
        # Gavel sums the step counts of all workers, so one synchronous
        # iteration takes gpus / steps seconds.
        out.append([r["job"], r["model"], r["dataset"], r["task"], r["gpu"],
                    r["consolidated"], str(gpus), per_gpu, glob,
                    r["throughput_steps_per_s"], samples, repr(gpus / steps),
                    r["throughput_steps_per_s_physical_file"]])
    dst = os.path.join(HERE, "throughputs.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["job", "model", "dataset", "task", "gpu", "consolidated", "gpus",
                    "batch_per_gpu", "global_batch", "worker_steps_per_s", "samples_per_s",
                    "step_time_s", "worker_steps_per_s_physical"])
        w.writerows(out)
    print("dropped %d rows without a measurement: %s" % (len(dropped), "; ".join(dropped)))
    print("wrote throughputs.csv: %d rows, sha256 %s" % (len(out), sha256(dst)))
    print("read throughputs.csv: sha256 %s" % sha256(src))


if __name__ == "__main__":
    main()
