#!/usr/bin/python3
"""Real fleets: one `scalefit fit --by` run each over

  1. every job of the Pollux traces (datasets/pollux_adaptdl_t4: six jobs,
     ResNet-18/CIFAR-10 to YOLOv3, 1-64 T4 GPUs), with Pollux's own
     iteration-time model (expressions/pollux.yaml without its where:
     filter, by: job);
  2. every network x framework x GPU of a-GPUBench
     (datasets/agpubench_gpu_training/training_times.csv), with the
     data-parallel formula bench/accuracy_agpubench.py calls ddp
     (t0 + steps (a + c b) + steps (l log2 p + w (p-1)/p) + r n).

Prints one row per group (rows, MAPE, R^2 or why it failed) and the run's
wall-clock time.  With SCALEFIT_MPI (a build configured --with-mpi) it runs
the same under `mpirun -np 2` (MPIRUN, default "mpirun --oversubscribe")
and checks that the JSON is the same once seconds and ranks are dropped.
Exits 1 with a message when a run fails (the plain one, or mpirun's) or
the two JSON documents differ.

Usage: /usr/bin/python3 bench/fleets_real.py  (from the built tree)
"""

import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_agpubench as agpu  # noqa: E402  (its formulas and inputs)

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                   ".."))
SCALEFIT = os.environ.get("SCALEFIT", os.path.join(TOP, "src", "scalefit"))
SCALEFIT_MPI = os.environ.get("SCALEFIT_MPI")
MPIRUN = os.environ.get("MPIRUN", "mpirun --oversubscribe").split()
# Open MPI refuses to run as root (as CI and these machines run) without
# these, as bench/mpi_common.sh and make check set them.
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def pollux_model(directory):
    """expressions/pollux.yaml for every job: its where: becomes by: job."""
    with open(os.path.join(TOP, "expressions", "pollux.yaml")) as f:
        text = f.read()
    data = os.path.join(TOP, "datasets", "pollux_adaptdl_t4",
                        "step_times.csv")
    text = text.replace("file: ../datasets/pollux_adaptdl_t4/step_times.csv",
                        "file: " + data)
    text = text.replace("  where: \"job == 'cifar10'\"\n", "  by: job\n")
    path = os.path.join(directory, "pollux-fleet.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


def agpu_model(directory):
    path = os.path.join(directory, "agpubench-fleet.yaml")
    with open(path, "w") as f:
        f.write(f"name: ddp\ndata:\n  file: {agpu.DATA}\n"
                f"  by: network, framework, gpu\n  output: train_time_s\n"
                f"{agpu.INPUTS}{agpu.FORMULAS['ddp']}"
                "fit: {loss: relative}\n")
    return path


def strip(text):
    return "\n".join(line for line in text.splitlines()
                     if '"seconds":' not in line and '"ranks":' not in line)


def fail(message):
    """A run this benchmark rests on failed: say which and why, exit 1 (a
    ratio or a comparison against a failed run means nothing)."""
    sys.exit("fleets_real.py: " + message)


def fleet(name, model, threads):
    args = ["fit", model, "--json", "-q", "--threads", str(threads)]
    start = time.monotonic()
    out = subprocess.run([SCALEFIT] + args, capture_output=True, text=True)
    seconds = time.monotonic() - start
    # 1: some groups failed, which the table shows; anything else: the run
    if out.returncode not in (0, 1):
        fail(f"{name}: {SCALEFIT} {' '.join(args)} exited "
             f"{out.returncode}: {out.stderr.strip()}")
    report = json.loads(out.stdout)
    print(f"\n{name}: {len(report['groups'])} groups, "
          f"{report['failed']} failed, {seconds:.1f} s "
          f"(one process, {threads} thread{'s' if threads > 1 else ''})")
    print(f"  {'group':52s} {'rows':>5s} {'MAPE':>7s} {'R^2':>7s}")
    mapes = []
    for g in report["groups"]:
        if "error" in g:
            print(f"  {g['label']:52s} {g['rows']:5d}  failed: {g['error']}")
            continue
        m = g["metrics"]
        mapes.append(m["mape"])
        r2 = m["r2"] if m["r2"] is not None else float("nan")
        print(f"  {g['label']:52s} {g['rows']:5d} {m['mape']:6.2f}% "
              f"{r2:7.4f}")
    mapes.sort()
    print(f"  median MAPE {mapes[len(mapes) // 2]:.2f}% over "
          f"{len(mapes)} fitted groups")
    if SCALEFIT_MPI:
        start = time.monotonic()
        mpi = subprocess.run(MPIRUN + ["-np", "2", SCALEFIT_MPI] + args,
                             capture_output=True, text=True, env=MPI_ENV)
        wall = time.monotonic() - start
        # mpirun refusing to start (as root without the variables below)
        # printed "2637.69x; JSON DIFFERENT" and exited 0
        if mpi.returncode != out.returncode:
            fail(f"{name}: mpirun -np 2 exited {mpi.returncode} (the "
                 f"plain run {out.returncode}): {mpi.stderr.strip()}")
        same = strip(mpi.stdout) == strip(out.stdout)
        print(f"  mpirun -np 2: {wall:.1f} s, "
              f"{seconds / wall:.2f}x; JSON "
              f"{'identical' if same else 'DIFFERENT'}")
        if not same:
            fail(f"{name}: mpirun -np 2 printed another JSON than the "
                 "plain run")


def main():
    with tempfile.TemporaryDirectory() as directory:
        fleet("Pollux traces, every job", pollux_model(directory), 1)
        fleet("a-GPUBench, every network x framework x GPU",
              agpu_model(directory), 1)


if __name__ == "__main__":
    main()
