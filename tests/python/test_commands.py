"""validate, compare, next_runs, predict and scale from Python: the
command's JSON, tables and options, and a fleet's fits."""

import json
import re

import pytest

import scalefit
from conftest import CSV, MODEL, command, command_json, path

AMDAHL = path("expressions", "amdahl.yaml")
CLOCKS = re.compile(
    r'("(?:seconds|elapsed|formulas_per_second)": )'
    r'(?:[-+0-9.eE]+|\{[^{}]*\})')


def _masked(text):
    """A JSON text with the clock readings masked, parsed."""
    return json.loads(CLOCKS.sub(r"\g<1>0", text))


def test_validate_is_the_commands():
    cli = command("validate", AMDAHL, "--kfold", "3", "--json")[1]
    report = scalefit.validate(AMDAHL, kfold=3)
    assert _masked(report.json) == _masked(cli)
    assert report.status == 0
    assert len(report.table["observed"]) == \
        report.report["validation"]["rows_predicted"]


def test_compare_is_the_commands():
    cands = path("expressions", "ddp-candidates.yaml")
    cli = command("compare", cands, "--train", "p <= 2", "--json")[1]
    with pytest.warns(scalefit.ScalefitWarning):
        report = scalefit.compare([cands], train="p <= 2")
    assert _masked(report.json) == _masked(cli)
    assert list(report.table["model"])[0] == \
        report.report["comparison"]["candidates"][0]["model"]
    assert "rank" in report.text


def test_next_runs_is_the_commands(quick_fit_file):
    cli = command_json("next", quick_fit_file, "--target",
                       "p=16,b=32,n=388288", "--over", "p=1:8")
    fit = scalefit.load(quick_fit_file)
    report = fit.next_runs(target="p=16,b=32,n=388288", over="p=1:8")
    assert report.report == cli
    assert len(report.table["rank"]) == len(cli["candidates"])


def test_next_runs_on_an_ensemble_is_the_commands(tmp_path):
    """An ensemble's FIT.json: the mixture's ranking, what each run tells
    of which formula holds, and no plan."""
    out = str(tmp_path / "ens.json")
    command("fit", path("tests", "data", "ensemble", "two.yaml"), "-o", out)
    cli = command_json("next", out, "--target", "p=16,b=32,n=388288",
                       "--over", "p=1:16")
    report = scalefit.load(out).next_runs(target="p=16,b=32,n=388288",
                                          over="p=1:16")
    assert report.report == cli
    assert cli["members"] == 2
    assert abs(cli["formula_entropy"] - 0.6931472) < 1e-6  # ln 2
    assert all(0 <= c["formula_information"] <= cli["formula_entropy"]
               for c in cli["candidates"])
    with pytest.raises(scalefit.Error, match="single runs"):
        scalefit.load(out).next_runs(target="p=16,b=32,n=388288",
                                     over="p=1:16", budget=1e5)


def test_next_runs_on_several_fits_is_the_commands(tmp_path):
    """Two fit files: their average's ranking, as the command gives it,
    and the ensemble's own when weighed as it is (equally)."""
    two = path("tests", "data", "ensemble", "two.yaml")
    files = []
    for m in ("generic", "linear"):
        files.append(str(tmp_path / (m + ".json")))
        command("fit", two, "--model", m, "-o", files[-1], "-q")
    ens = str(tmp_path / "ens.json")
    command("fit", two, "-o", ens, "-q")
    ask = {"target": "p=16,b=32,n=388288", "over": "p=1:16"}
    cli = command_json("next", *files, "--target", ask["target"], "--over",
                       ask["over"])
    report = scalefit.next_runs(files, **ask)
    assert report.report == cli
    assert [m["model"] for m in cli["models"]] == ["generic", "linear"]
    equal = scalefit.next_runs([scalefit.load(f) for f in files],
                               weights="equal", **ask)
    mine = scalefit.load(ens).next_runs(**ask)
    assert equal.report["candidates"] == mine.report["candidates"]
    with pytest.raises(scalefit.Error, match="two or more fit files"):
        scalefit.next_runs(files[0], weights="equal", **ask)
    # weights given as a list, one a fit, as the command's W1,W2
    given = scalefit.next_runs(files, weights=[1, 1], **ask)
    assert given.report["candidates"] == mine.report["candidates"]
    # no fit at all: the library's message, as the command's
    with pytest.raises(scalefit.Error, match="no fit file to predict with"):
        scalefit.predict([], {"p": [8], "b": [32], "n": [388288]})
    with pytest.raises(scalefit.Error, match="next needs a fit file"):
        scalefit.next_runs([], **ask)
    # one fit by a bytes path, as by a str
    assert (scalefit.next_runs(files[0].encode(), **ask).report ==
            scalefit.load(files[0]).next_runs(**ask).report)


def test_a_fleet_and_its_groups(tmp_path):
    fleet = path("tests", "data", "fleet", "fleet.yaml")
    status, out, _ = command("fit", fleet, "--json", check=False)
    assert status == 1  # two of its groups fail
    cli = json.loads(out)
    with pytest.warns(scalefit.ScalefitWarning, match="row skipped"):
        fit = scalefit.fit(fleet)
    assert fit.status == 1
    assert fit.params == {}
    assert _masked(fit.json) == _masked(out)
    out = tmp_path / "fleet.json"
    fit.save(out)
    table = scalefit.load(out).predict({"n": [4, 8]})
    assert set(table["group"]) == {g["label"] for g in cli["groups"]
                                   if "error" not in g}
    fitted = [g["label"] for g in cli["groups"] if "error" not in g]
    one = fit.predict({"n": [4]}, group=fitted[0])
    assert len(one["time"]) == 1


def test_an_average_of_fits(quick_fit_file):
    a = scalefit.load(quick_fit_file)
    b = scalefit.fit(MODEL, data=CSV, lambda_=0.01)
    report = scalefit.predict([a, b], {"p": [2], "b": [16], "n": [388288]},
                              weights="equal")
    assert len(report.report["models"]) == 2
    assert report.table["time"][0] == report.report["points"][0]["time"]


@pytest.mark.parametrize("options, args", [
    ({"points": 1}, ["--points", "1"]),
    ({"panel": "bars"}, ["--panel", "bars"]),
    ({"unit": "sec"}, ["--unit", "sec"]),
    ({"cost": 0}, ["--cost", "0"]),
    ({"log": True, "linear": True}, ["--log", "--linear"]),
])
def test_a_bad_scale_option_is_the_commands_message(quick_fit_file, options,
                                                    args):
    status, _, err = command("scale", quick_fit_file, "--over", "p=1:8",
                             *args, check=False)
    assert status == 2
    with pytest.raises(scalefit.Error) as e:
        scalefit.load(quick_fit_file).scale(over="p=1:8", **options)
    assert "scalefit: error: " + str(e.value) + "\n" in err


@pytest.mark.parametrize("options, args", [
    ({"budget": "-1"}, ["--budget", "-1"]),
    ({"runs": 0}, ["--runs", "0"]),
    ({"top": "x"}, ["--top", "x"]),
    ({"set": "b=32"}, ["--candidates", CSV, "--set", "b=32"]),
])
def test_a_bad_next_option_is_the_commands_message(quick_fit_file, options,
                                                   args):
    extra = {} if "set" in options else {"over": "p=1:8"}
    status, _, err = command("next", quick_fit_file, "--target",
                             "p=16,b=32,n=388288",
                             *(["--over", "p=1:8"] if extra else []), *args,
                             check=False)
    assert status == 2
    if "set" in options:
        options = dict(options, candidates=CSV)
    with pytest.raises(scalefit.Error) as e:
        scalefit.load(quick_fit_file).next_runs(
            target="p=16,b=32,n=388288", **extra, **options)
    assert "scalefit: error: " + str(e.value) + "\n" in err


def test_validate_needs_one_way_of_holding_out():
    status, _, err = command("validate", AMDAHL, check=False)
    with pytest.raises(scalefit.Error) as e:
        scalefit.validate(AMDAHL)
    assert "scalefit: error: " + str(e.value) + "\n" in err
    with pytest.raises(scalefit.Error, match="validate takes no option "
                       "'bootstrap'"):
        scalefit.validate(AMDAHL, loo=True, bootstrap=10)


def test_discover_is_the_commands(tmp_path):
    out = str(tmp_path / "found.yaml")
    cli_out = str(tmp_path / "cli.yaml")
    cli = command("discover", AMDAHL, "--threads", "1", "-o", cli_out,
                  "--json")[1]
    report = scalefit.discover(AMDAHL, threads=1, output_file=out)
    mine, theirs = _masked(report.json), _masked(cli)
    assert mine["discover"]["output"] == out
    mine["discover"]["output"] = theirs["discover"]["output"] = None
    assert mine == theirs
    assert "best found" in report.text
    # the written model file, but for the data file's relative path
    with open(out) as a, open(cli_out) as b:
        assert a.read().count("\n") == b.read().count("\n")
    assert scalefit.discover(AMDAHL, shapes=True).report["shapes"]


def test_discover_to_is_the_commands():
    """--to (the value of the extrapolated input the ensemble's parting is
    shown at) by keyword, as the command line takes it and refuses it."""
    ddp = path("expressions", "ddp-generic.yaml")
    cli = command("discover", ddp, "--train", "p <= 3", "--to", "64",
                  "--threads", "1", "--json")[1]
    report = scalefit.discover(ddp, train="p <= 3", to=64, threads=1)
    assert _masked(report.json) == _masked(cli)
    assert report.report["discover"]["ensemble_apart"]["at"] == 64
    assert "4.42 doublings beyond the training rows" in report.text
    with pytest.raises(scalefit.Error, match="--to needs a value of the "
                       "extrapolated input > 0, not '-1'"):
        scalefit.discover(ddp, to=-1)


def test_discover_refuses_rows_in_memory():
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv(path("datasets", "elasticflow_a100",
                             "throughputs.csv"))
    with pytest.raises(scalefit.Error, match="names its data file"):
        scalefit.discover(AMDAHL, frame, threads=1)
