#!/usr/bin/env python3
"""bench_python.py - the Python module's overhead: FITS fits of the quick
start (the generic data-parallel model on a-GPUBench's 4,829 runs, 224 of
them fitted) from Python against the same FITS fits through the C API
(bench/bench_api: the same calls, the DataFrame's columns given as Python
gives them), in two loops:

  once  model = scalefit.Model(path) and rows = scalefit.Data(df) made
        once, then FITS times scalefit.fit(model, data=rows, threads=1);
        bench_api opens the model handle and makes the data handle once,
        then for every fit makes the settings, runs the fit, reads the
        constants and frees the fit and the settings.  The target's loop:
        1,000 fits on the same rows, each handle made once on both sides.
  each  FITS times scalefit.fit(path, data=df, threads=1): every fit
        opens the model and converts the DataFrame again; bench_api opens
        the model and gives the columns for every fit too.

Both sides run in a new process each time (this script runs itself with
--python LOOP FITS for Python's side), so neither has a process warmed by
the runs before it; each reads its data (the DataFrame, bench_api's
typed columns) before its clock starts, and the clocks include making
the handles.  Each run measures both loops, C and Python back to back
(which goes first alternates from run to run), RUNS times; prints each run's seconds and its paired ratio, then per loop the
medians, the ratio of the medians and the median of the paired ratios
(target: Python within 1.2x of C), and the load average.  Both fit on one
thread (the same bytes as on any number): the comparison is of the
layers, not of OpenMP's thread pool on a shared machine.

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
LOOPS = ("once", "each")


def python_fits(fits, df, loop):
    """Seconds of fits fits from Python in loop, wall clock and CPU time,
    and the first constant."""
    start, cpu = time.perf_counter(), time.process_time()
    if loop == "once":
        model, rows = scalefit.Model(MODEL), scalefit.Data(df)
        for _ in range(fits):
            fit = scalefit.fit(model, data=rows, threads=1)
    else:
        for _ in range(fits):
            fit = scalefit.fit(MODEL, data=df, threads=1)
    return (time.perf_counter() - start, time.process_time() - cpu,
            next(iter(fit.params.values())))


def run(command):
    """A side's seconds, wall clock and CPU time, and first constant."""
    out = subprocess.run(command, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def python_run(fits, loop):
    """python_fits in a new Python process."""
    return run([sys.executable, os.path.abspath(__file__), "--python", loop,
                str(fits)])


def c_run(fits, loop):
    """The same through the C API."""
    return run([os.path.join(BUILD, "bench", "bench_api"), str(fits), MODEL,
                CSV, loop])


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--python":
        df = pandas.read_csv(CSV)
        print("%.6f %.6f %.17g" % python_fits(int(sys.argv[3]), df,
                                              sys.argv[2]))
        return
    fits = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    load = os.getloadavg()
    c = {loop: [] for loop in LOOPS}
    py = {loop: [] for loop in LOOPS}
    for r in range(runs):
        for loop in LOOPS:
            if r % 2 == 0:
                *tc, fc = c_run(fits, loop)
                *tp, fp = python_run(fits, loop)
            else:
                *tp, fp = python_run(fits, loop)
                *tc, fc = c_run(fits, loop)
            if fc != fp:
                sys.exit("the C and Python fits differ: %r %r" % (fc, fp))
            c[loop].append(tc)
            py[loop].append(tp)
            print("run %d, %s: C %.3f s (CPU %.3f s), Python %.3f s (CPU "
                  "%.3f s), %d fits each: Python / C %.3fx (CPU %.3fx)" %
                  (r + 1, loop, *tc, *tp, fits, tp[0] / tc[0],
                   tp[1] / tc[1]), flush=True)
    for loop in LOOPS:
        for k, what in enumerate(("wall clock", "CPU time")):
            mc = statistics.median(t[k] for t in c[loop])
            mp = statistics.median(t[k] for t in py[loop])
            paired = statistics.median(p[k] / q[k]
                                       for p, q in zip(py[loop], c[loop]))
            print("%s, median %s: C %.3f s (%.2f ms a fit), Python %.3f s "
                  "(%.2f ms a fit): Python / C %.3fx, paired %.3fx (target "
                  "1.2x)" % (loop, what, mc, 1e3 * mc / fits, mp,
                             1e3 * mp / fits, mp / mc, paired))
    print("load average before %.2f, after %.2f" %
          (load[0], os.getloadavg()[0]))


if __name__ == "__main__":
    main()
