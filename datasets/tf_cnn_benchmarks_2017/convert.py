#!/usr/bin/env python3
"""Tidy the tf_cnn_benchmarks images/s table (TensorFlow docs, May 2017) for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds images_per_sec.csv, the hand transcription of
tensorflow/docs_src/performance/benchmarks.md made by the project's raw-data
store (SOURCE.md).  Writes images_per_sec.csv next to this script and prints
the SHA-256 of the files read and written.  Standard library only.
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
    src = os.path.join(sys.argv[1], "images_per_sec.csv")
    with open(src, newline="") as f:
        rows = list(csv.DictReader(f))
    out = []
    for i, r in enumerate(rows):
        if r["framework"] != "TensorFlow (tf_cnn_benchmarks)":
            sys.exit("%s:%d: unexpected framework" % (src, i + 2))
        gpus, per_gpu, glob = int(r["workers"]), int(r["batch_size_per_gpu"]), int(r["global_batch_size"])
        if glob != gpus * per_gpu:
            sys.exit("%s:%d: global batch != workers x per-GPU batch" % (src, i + 2))
        ips = float(r["images_per_sec"])
        # The step time is derived again at full precision (the raw file
        # rounds it to 6 decimals): one synchronous step moves the global batch.
        out.append([r["platform"], r["instance"], r["gpu"], r["model"], r["data"],
                    r["variable_update"], r["local_parameter_device"], r["nodes"],
                    str(gpus), str(per_gpu), str(glob), r["images_per_sec"], repr(glob / ips)])
    dst = os.path.join(HERE, "images_per_sec.csv")
    with open(dst, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["platform", "instance", "gpu", "model", "data", "variable_update",
                    "local_parameter_device", "nodes", "gpus", "batch_per_gpu",
                    "global_batch", "images_per_s", "step_time_s"])
        w.writerows(out)
    print("wrote images_per_sec.csv: %d rows, sha256 %s" % (len(out), sha256(dst)))
    print("read images_per_sec.csv: sha256 %s" % sha256(src))


if __name__ == "__main__":
    main()
