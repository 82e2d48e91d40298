"""Errors raise scalefit.Error (a ValueError) with the command line's
message; warnings are the command line's too."""

import glob
import os

import pytest

import scalefit
from conftest import CSV, MODEL, TOP, command, path


def _cli_error(*args):
    """The command's error message, without "scalefit: error: " and the
    usage line that follows a usage error."""
    status, out, err = command(*args, check=False)
    assert status != 0
    lines = err.rstrip("\n").split("\n")
    if lines[-1].startswith("Try 'scalefit help"):
        lines = lines[:-1]
    assert lines[0].startswith("scalefit: error: ")
    return "\n".join(lines)[len("scalefit: error: "):]


def test_error_is_a_value_error():
    assert issubclass(scalefit.Error, ValueError)


@pytest.mark.parametrize("option, value", [
    ("seed", "x"), ("threads", "0"), ("loss", "sse2"), ("algorithm", "jsoo"),
    ("lambda", "-1"), ("time_limit", "0"), ("max_evals", "0"),
    ("scale", "lin"), ("bootstrap", "3"), ("restarts", "1"),
    ("residuals", "some")])
def test_a_bad_option_value_is_the_commands_message(option, value):
    with pytest.raises(scalefit.Error) as e:
        scalefit.fit(MODEL, **{option: value})
    cli = _cli_error("fit", MODEL, "--" + option.replace("_", "-"), value)
    assert str(e.value) == cli
    assert e.value.code == 10  # SCALEFIT_EREQUEST


def test_an_unknown_option_is_named_with_the_nearest():
    with pytest.raises(scalefit.Error, match="unknown option 'sed'; did you "
                       "mean 'seed'"):
        scalefit.fit(MODEL, sed=1)
    with pytest.raises(scalefit.Error, match="fit takes no option 'loo'"):
        scalefit.fit(MODEL, loo=True)


HOSTILE = sorted(glob.glob(path("tests", "hostile", "*.yaml")))


@pytest.mark.parametrize("model", HOSTILE, ids=os.path.basename)
def test_a_bad_model_is_the_commands_message(model):
    """Every file of the hostile corpus that the command refuses: the
    same message, FILE:LINE:COL, quoted line and caret."""
    status, _, err = command("fit", model, CSV, check=False)
    if status != 2 or not err.startswith("scalefit: error: "):
        pytest.skip("the command does not refuse it with status 2")
    with pytest.raises(scalefit.Error) as e:
        scalefit.fit(model, data=CSV)
    first_error = err[len("scalefit: error: "):].split("\nscalefit: ")[0]
    assert str(e.value) == first_error.rstrip("\n")


def test_a_bad_cell_is_placed_in_the_columns():
    with pytest.raises(scalefit.Error) as e:
        scalefit.fit("@amdahl", data={"gpus": list(range(1, 11)) + ["two"],
                                      "step_time_s": [1.0] * 11,
                                      "job": ["resnet50"] * 11,
                                      "global_batch": [256] * 11})
    assert e.value.file == "<dict>"
    assert e.value.line == 12  # the eleventh row, after the header
    assert "'two' is not a number" in str(e.value)


def test_predict_needs_points():
    fit = scalefit.fit("@amdahl")
    with pytest.raises(scalefit.Error, match="say where to predict"):
        scalefit.predict(fit)
    with pytest.raises(scalefit.Error, match="unknown input 'q'"):
        fit.predict({"q": [1]})


def test_warnings_are_the_commands(quick_fit_file):
    _, _, err = command("predict", quick_fit_file, "--at",
                        "p=16,b=16,n=388288")
    fit = scalefit.load(quick_fit_file)
    with pytest.warns(scalefit.ScalefitWarning) as record:
        fit.predict({"p": [16], "b": [16], "n": [388288]})
    assert "scalefit: warning: " + str(record[0].message) + "\n" == err
