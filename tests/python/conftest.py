"""What the Python module's tests share: the source tree, the scalefit
command to compare with, and its JSON."""

import json
import os
import subprocess

import pytest

TOP = os.environ.get("SCALEFIT_TOP", os.path.join(os.path.dirname(__file__),
                                                  "..", ".."))
SCALEFIT = os.environ.get("SCALEFIT", "scalefit")
# The quick start: the generic data-parallel model on a-GPUBench's runs.
MODEL = os.path.join(TOP, "expressions", "ddp-generic.yaml")
CSV = os.path.join(TOP, "datasets", "agpubench_gpu_training",
                   "training_times.csv")


def path(*parts):
    return os.path.join(TOP, *parts)


def command(*args, check=True):
    """Run the scalefit command: (status, stdout, stderr)."""
    p = subprocess.run([SCALEFIT, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("scalefit %s: %s" % (" ".join(args), p.stderr))
    return p.returncode, p.stdout, p.stderr


def command_json(*args):
    """What the command prints with --json, parsed."""
    return json.loads(command(*args, "--json")[1])


@pytest.fixture(scope="session")
def quick_fit_file(tmp_path_factory):
    """The quick start fitted by the command, saved (FIT.json)."""
    out = str(tmp_path_factory.mktemp("fit") / "fit.json")
    command("fit", MODEL, CSV, "-o", out)
    return out
