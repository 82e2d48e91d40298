#!/usr/bin/env python3
"""Tidy the a-GPUBench training times (aMLLibrary inputs/gpudata) for scalefit.

Usage: python3 convert.py RAW_DIR

RAW_DIR holds the raw CSV files of aMLLibrary's inputs/gpudata/ folder at
commit 34f4d19c4297335bca339f3fe43331a14fd3565b (byte-identical copies are
fine).  Writes training_times.csv and resnet_depth.csv next to this script
and prints the SHA-256 of every file read and written.  Standard library
only; the output is byte-for-byte reproducible.  See SOURCE.md for the rules.
"""
import csv
import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Peak single-precision GFLOPS recorded by the harness -> GPU model.  P600 and
# M60 are named by the source; K80 and 1080 Ti are matched by specification.
GPU_BY_GFLOPS = {
    "1195": "Quadro P600",
    "5591": "Tesla K80",
    "7365": "Tesla M60",
    "11339": "GTX 1080 Ti",
}

# The full per-network files, in the order they are concatenated.  The
# extrapolation_P_*.csv files are row subsets of these and are not read.
MAIN = [
    ("alexnet_pt.csv", "alexnet", "pytorch"),
    ("alexnet_tf.csv", "alexnet", "tensorflow"),
    ("resnet50_pt.csv", "resnet50", "pytorch"),
    ("resnet50_tf.csv", "resnet50", "tensorflow"),
    ("vgg19_pt.csv", "vgg19", "pytorch"),
    ("vgg19_tf.csv", "vgg19", "tensorflow"),
    ("deepspeech_tf.csv", "deepspeech", "tensorflow"),
]
DEPTH = [
    ("extrapolation_N_resnet_1.csv", 1),
    ("extrapolation_N_resnet_2.csv", 2),
    ("extrapolation_N_resnet_4.csv", 4),
]

GFLOPS = "GFlops(7)"
DISK = "disk speed(8)"
GPUS = "GPU number(9)"
DEPTH_COL = "Network depth(11)"
BATCH = "batch size(13)"
ITERS = "Real Iterations Number(15)"
THREADS = "CPU threads(19)"
TIME = "overall execution time(31)"

read_files = []


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read(raw, name):
    path = os.path.join(raw, name)
    read_files.append(path)
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def is_int(text):
    return text.isdigit()


def check_row(name, i, row, int_cols):
    for col in int_cols:
        if col in row and not is_int(row[col]):
            sys.exit("%s:%d: %s is not a whole number: %r" % (name, i + 2, col, row[col]))
    float(row[TIME])


def write(name, header, rows):
    path = os.path.join(HERE, name)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print("wrote %s: %d rows, sha256 %s" % (name, len(rows), sha256(path)))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2])
    raw = sys.argv[1]

    out = []
    for name, network, framework in MAIN:
        for i, r in enumerate(read(raw, name)):
            check_row(name, i, r, [GFLOPS, DISK, GPUS, BATCH, ITERS, THREADS])
            out.append([network, framework, GPU_BY_GFLOPS[r[GFLOPS]], r[GFLOPS],
                        r[DISK], r[GPUS], r[BATCH], r[ITERS], r[THREADS], r[TIME]])
    write("training_times.csv",
          ["network", "framework", "gpu", "gpu_gflops", "disk_speed_score", "gpus",
           "global_batch", "iterations", "cpu_threads", "train_time_s"], out)

    # Each run of the depth study is logged twice: with its iteration count
    # and with 20 fewer, the wall-clock time identical to the last digit.
    # Keep one row per run, the one with the larger count.
    out = []
    dropped = 0
    for name, gpus in DEPTH:
        rows = read(raw, name)
        for i, r in enumerate(rows):
            check_row(name, i, r, [DISK, DEPTH_COL, BATCH, ITERS, THREADS])
        for i, r in enumerate(rows):
            twin = [s for s in rows if s is not r and s[TIME] == r[TIME]
                    and all(s.get(k) == r.get(k) for k in r if k != ITERS)]
            if len(twin) == 1 and int(twin[0][ITERS]) - int(r[ITERS]) == 20:
                dropped += 1
                continue
            if len(twin) > 1:
                sys.exit("%s:%d: more than one twin" % (name, i + 2))
            out.append(["Tesla M60", "7365", r.get(DISK, ""), str(gpus), r[DEPTH_COL],
                        r[BATCH], r[ITERS], r[THREADS], r[TIME]])
    print("resnet_depth: dropped %d twin rows (iterations - 20)" % dropped)
    write("resnet_depth.csv",
          ["gpu", "gpu_gflops", "disk_speed_score", "gpus", "inner_modules",
           "global_batch", "iterations", "cpu_threads", "train_time_s"], out)

    for path in read_files:
        print("read %s: sha256 %s" % (os.path.basename(path), sha256(path)))


if __name__ == "__main__":
    main()
