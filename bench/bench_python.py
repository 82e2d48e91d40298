#!/usr/bin/env python3
"""bench_python.py - the Python module's overhead: FITS fits of the quick
start (the generic data-parallel model on a-GPUBench's 4,829 runs, 224 of
them fitted) from Python, scalefit.fit(model, data=DataFrame), against the
same FITS fits through the C API (bench/bench_api: the same calls, the
DataFrame's columns given as Python gives them).  Runs alternate, C then
Python, RUNS times; prints each run's seconds, the medians and their
ratio (target: Python within 1.2x of C), and the load average.  Both fit
on one thread (the same bytes as on any number): the comparison is of
the layers, not of OpenMP's thread pool on a shared machine.

Run from the built tree (it loads src/.libs/libscalefit.so and python/):
    make bench/bench_api && /usr/bin/python3 bench/bench_python.py [FITS [RUNS]]
It needs pandas (Debian's python3-pandas).
"""

import os
import statistics
import subprocess
import sys
import time

BUILD = os.getcwd()
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
os.environ.setdefault("SCALEFIT_LIBRARY_PATH",
                      os.path.join(BUILD, "src", ".libs", "libscalefit.so"))
os.environ.setdefault("SCALEFIT_LIBRARY", TOP)
sys.path.insert(0, os.path.join(TOP, "python"))

import pandas  # noqa: E402
import scalefit  # noqa: E402

MODEL = os.path.join(TOP, "expressions", "ddp-generic.yaml")
CSV = os.path.join(TOP, "datasets", "agpubench_gpu_training",
                   "training_times.csv")


def python_run(fits, df):
    """Seconds of fits fits from Python, wall clock and CPU time, and the
    first constant."""
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(fits):
        fit = scalefit.fit(MODEL, data=df, threads=1)
    return (time.perf_counter() - start, time.process_time() - cpu,
            next(iter(fit.params.values())))


def c_run(fits):
    """The same through the C API."""
    out = subprocess.run([os.path.join(BUILD, "bench", "bench_api"),
                          str(fits), MODEL, CSV], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def main():
    fits = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    df = pandas.read_csv(CSV)
    load = os.getloadavg()
    c, py = [], []
    for r in range(runs):
        *tc, fc = c_run(fits)
        *tp, fp = python_run(fits, df)
        if fc != fp:
            sys.exit("the C and Python fits differ: %r %r" % (fc, fp))
        c.append(tc)
        py.append(tp)
        print("run %d: C %.3f s (CPU %.3f s), Python %.3f s (CPU %.3f s), "
              "%d fits each" % (r + 1, *tc, *tp, fits))
    for k, what in enumerate(("wall clock", "CPU time")):
        mc = statistics.median(t[k] for t in c)
        mp = statistics.median(t[k] for t in py)
        print("median %s: C %.3f s (%.2f ms a fit), Python %.3f s (%.2f ms "
              "a fit): Python / C %.3fx (target 1.2x)" %
              (what, mc, 1e3 * mc / fits, mp, 1e3 * mp / fits, mp / mc))
    print("load average before %.2f, after %.2f" %
          (load[0], os.getloadavg()[0]))


if __name__ == "__main__":
    main()
