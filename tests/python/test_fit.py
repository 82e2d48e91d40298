"""scalefit.fit and a fit's predictions against the command line: the
same constants, bit for bit, from a DataFrame, a dict of columns or the
CSV file; the same predictions and intervals."""

import csv
import json
import math
import os
import subprocess
import sys
import threading

import pytest

import scalefit
from conftest import CSV, MODEL, TOP, command, command_json, path


def _params(report):
    return {k: v["value"] for k, v in report["parameters"].items()}


@pytest.fixture(scope="module")
def cli():
    """`scalefit fit MODEL CSV --json`."""
    return command_json("fit", MODEL, CSV)


def test_dataframe_constants_bit_for_bit(cli):
    pd = pytest.importorskip("pandas")
    fit = scalefit.fit(MODEL, data=pd.read_csv(CSV))
    assert fit.params == _params(cli)
    assert fit.stderr == {k: v["stderr"] for k, v in cli["parameters"].items()}
    assert fit.ci95 == {k: tuple(v["ci95"])
                        for k, v in cli["parameters"].items()}
    assert fit.metrics["mape"] == cli["metrics"]["mape"]
    assert fit.metrics["aicc"] == cli["metrics"]["aicc"]
    assert fit.report["covariance"] == cli["covariance"]
    assert fit.report["prediction_interval"] == cli["prediction_interval"]
    assert fit.report["data"]["file"] == "<DataFrame>"
    assert fit.report["data"]["rows"] == cli["data"]["rows"]


def test_csv_path_is_the_commands(cli):
    fit = scalefit.fit(MODEL, data=CSV)
    assert fit.params == _params(cli)
    assert fit.report["data"] == cli["data"]
    assert fit.report["parameters"] == cli["parameters"]


def test_data_made_once_runs_many_times(cli):
    """scalefit.Data: converted once, the same constants at every run as
    the command's, from a DataFrame, a dict or the CSV path; the
    DataFrame's later changes are not seen (its columns were copied)."""
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(CSV)
    rows = scalefit.Data(df)
    model = scalefit.Model(MODEL)
    first = scalefit.fit(model, data=rows, threads=1)
    df["train_time_s"] = 1.0
    second = scalefit.fit(model, data=rows, threads=1)
    assert first.params == second.params == _params(cli)
    assert second.report["data"]["file"] == "<DataFrame>"
    assert second.report["data"] == first.report["data"]
    assert scalefit.fit(MODEL, data=scalefit.Data(CSV)).report["data"] \
        == cli["data"]
    assert scalefit.fit(MODEL, data=scalefit.Data(_dict_of_columns())) \
        .params == _params(cli)


def test_data_errors_are_the_columns():
    with pytest.raises(scalefit.Error, match="a measurement is finite"):
        scalefit.Data({"x": [1.0, math.inf]})
    with pytest.raises(TypeError):
        scalefit.Data(3)


def test_model_data_file_and_library_name(cli):
    assert scalefit.fit(MODEL).params == _params(cli)
    assert scalefit.fit("@ddp-generic").params == _params(cli)


def _dict_of_columns():
    """The CSV as a dict of lists: numbers where every cell is one."""
    with open(CSV, newline="") as f:
        rows = list(csv.DictReader(f))
    columns = {k: [r[k] for r in rows] for k in rows[0]}
    for k, v in columns.items():
        try:
            columns[k] = [float(x) for x in v]
        except ValueError:
            pass
    return columns


def test_dict_of_columns(cli):
    fit = scalefit.fit(MODEL, data=_dict_of_columns())
    assert fit.params == _params(cli)


def test_without_numpy_and_pandas(cli):
    """In a process where neither imports: dicts and lists throughout."""
    code = """
import sys
sys.modules["numpy"] = None
sys.modules["pandas"] = None
import json, scalefit
sys.path.insert(0, %r)
from test_fit import _dict_of_columns
fit = scalefit.fit(%r, data=_dict_of_columns())
table = fit.predict({"p": [4, 16], "b": [16, 16], "n": [388288, 388288]})
study = fit.scale(over="p=1:8", set={"b": 32, "n": 388288})
print(json.dumps([fit.params, type(table).__name__, table["time"],
                  type(study.table).__name__]))
""" % (os.path.dirname(__file__), MODEL)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, check=True)
    params, kind, times, study_kind = json.loads(p.stdout)
    assert params == _params(cli)
    assert kind == "dict" and study_kind == "dict"
    assert len(times) == 2


POINTS = {"p": [1, 4, 16, 64], "b": [16, 32, 16, 8],
          "n": [388288, 388288, 1e6, 2.5e5]}


def test_predict_is_the_commands(quick_fit_file):
    fit = scalefit.fit(MODEL, data=CSV)
    at = ["p=%r,b=%r,n=%r" % p for p in zip(*POINTS.values())]
    args = ["predict", quick_fit_file]
    for a in at:
        args += ["--at", a]
    cli = command_json(*args)
    with pytest.warns(scalefit.ScalefitWarning, match="extrapolation"):
        table = fit.predict(POINTS)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else [
        dict(zip(table, r)) for r in zip(*table.values())]
    assert len(rows) == len(cli["points"])
    for row, point in zip(rows, cli["points"]):
        assert row["time"] == point["time"]
        assert row["lower95"] == point["interval95"][0]
        assert row["upper95"] == point["interval95"][1]
        assert row["band_lower95"] == point["ci95"][0]
        assert bool(row["extrapolated"]) == point["extrapolated"]
        for k in POINTS:
            assert row[k] == point["inputs"][k]


def test_predict_from_a_dataframe_leaves_other_columns_out():
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(CSV)
    fit = scalefit.fit(MODEL, data=df)
    points = pd.DataFrame({"p": [2, 4], "b": [16, 16], "n": [388288] * 2,
                           "note": ["x", "y"]})
    table = fit.predict(points)
    assert list(table["p"]) == [2, 4]
    assert "note" not in table


def test_save_and_load(tmp_path, quick_fit_file):
    fit = scalefit.fit(MODEL, data=CSV)
    out = tmp_path / "fit.json"
    fit.save(out)
    again = scalefit.load(out)
    assert again.params == fit.params
    assert again.report["parameters"] == fit.report["parameters"]
    assert again.text is None
    assert json.loads(out.read_text()) == fit.report
    # A fit saved by the command reads back the same.
    assert scalefit.load(quick_fit_file).params == fit.params
    # Predictions of the loaded fit are the fresh one's.
    p = {"p": [8], "b": [16], "n": [388288]}
    with pytest.warns(scalefit.ScalefitWarning):
        a, b = fit.predict(p), again.predict(p)
    assert list(a["time"]) == list(b["time"])


def test_report_and_notebook_views():
    fit = scalefit.fit(MODEL, data=CSV, seed=3, threads=1)
    assert fit.text.startswith("fit of ddp-generic")
    assert "<pre>fit of ddp-generic" in fit._repr_html_()
    assert json.loads(fit.json) == fit.report
    with pytest.warns(scalefit.ScalefitWarning):
        study = fit.scale(over="p=1:64", set={"b": 32, "n": 388288})
    assert study.svg.lstrip().startswith("<")
    assert "</svg>" in study._repr_svg_()
    assert study.answers["fastest"]["x"] == 64
    assert list(study.table["p"])[:3] == [1, 2, 4]
    assert study.table["time"][0] == study.report["points"][0]["time"]
    assert list(study["p"]) == list(study.table["p"])


def test_scale_is_the_commands(quick_fit_file):
    cli = command_json("scale", quick_fit_file, "--over", "p=1:64", "--set",
                       "b=32,n=388288")
    fit = scalefit.load(quick_fit_file)
    with pytest.warns(scalefit.ScalefitWarning):
        study = fit.scale(over="p=1:64", set={"b": 32, "n": 388288})
    mine = study.report
    assert mine["points"] == cli["points"]
    assert mine["answers"] == cli["answers"]


def test_scale_averages_fits_as_the_command(tmp_path):
    # Two candidate formulas fitted to the same rows, swept as their
    # average (weights=): the command's sweep of the same two files.
    files = []
    for m in ("generic", "amdahl"):
        out = str(tmp_path / (m + ".json"))
        command("fit", path("expressions", "ddp-candidates.yaml"), "--model",
                m, "-o", out, "-q")
        files.append(out)
    args = ["--over", "p=1:64", "--set", "b=32,n=388288", "--weights",
            "equal"]
    cli = command_json("scale", *files, *args, "-q")
    with pytest.warns(scalefit.ScalefitWarning):
        study = scalefit.scale([scalefit.load(f) for f in files],
                               over="p=1:64", set={"b": 32, "n": 388288},
                               weights="equal")
    assert study.report["points"] == cli["points"]
    assert study.report["answers"] == cli["answers"]
    # the average is one study, not one per fit
    assert "studies" not in cli


def test_two_threads_give_the_same_constants(cli):
    results = [None] * 4

    def run(i):
        results[i] = scalefit.fit(MODEL, data=CSV, threads=1).params

    threads = [threading.Thread(target=run, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == _params(cli) for r in results)


def test_model_from_its_parts():
    amdahl = scalefit.Model.formula(
        "t1 * ((1 - f) + f / p)", inputs={"p": "gpus"},
        parameters={"t1": (0.001, 10), "f": (0, 1)})
    data = path("datasets", "elasticflow_a100", "throughputs.csv")
    fit = scalefit.fit(amdahl, data=data,
                       where="job == 'resnet50' && global_batch == 256",
                       output="step_time_s")
    cli = command_json("fit", path("expressions", "amdahl.yaml"))
    assert fit.params == pytest.approx(_params(cli), rel=1e-6)
    assert amdahl.names == ["formula"]


def test_yaml_text_model():
    with open(MODEL) as f:
        text = f.read().replace("../datasets", os.path.join(TOP, "datasets"))
    fit = scalefit.fit(text)
    assert fit.params == scalefit.fit(MODEL).params


def test_data_options_map_a_model_to_other_columns():
    """inputs= and where= replace the model's data section for one run,
    as --input and --where do."""
    data = path("datasets", "elasticflow_a100", "throughputs.csv")
    renamed = {"workers" if k == "gpus" else k: v
               for k, v in _columns_of(data).items()}
    fit = scalefit.fit("@amdahl", data=renamed, inputs={"p": "workers"})
    cli = command_json("fit", "@amdahl", data)
    assert fit.params == _params(cli)
    fewer = scalefit.fit("@amdahl", data=data, where="job == 'resnet50' && "
                         "global_batch == 256 && gpus <= 16")
    assert fewer.report["data"]["rows"] < cli["data"]["rows"]


def _columns_of(csv_path):
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {k: [r[k] for r in rows] for k in rows[0]}
