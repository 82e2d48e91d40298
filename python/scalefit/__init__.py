"""scalefit from Python: fit, judge, predict and study execution-time
formulas of distributed training, from a program or a notebook.

A thin layer over the C library libscalefit (scalefit(3)) that adds
nothing but conversions: every function runs the command of its name
with the same settings, numbers (bit for bit), JSON and messages as the
`scalefit` command line.

    import pandas, scalefit
    df = pandas.read_csv("training_times.csv")
    fit = scalefit.fit("@ddp-generic", data=df, seed=1)
    fit.params, fit.stderr, fit.metrics       # dicts: name -> float
    fit.predict({"p": [8, 16], "b": [16, 16], "n": [388288, 388288]})
    fit.scale(over="p=1:64", set={"b": 32, "n": 388288})

Models are a path, "@NAME" (a formula of the library, `scalefit
formulas`), YAML text (anything holding a line break) or a Model.  Data
are a CSV path, a pandas DataFrame or a dict of columns (lists or numpy
arrays), converted for each run, or a Data made once from one of those
for many runs (as a Model is opened once): scalefit.Data(df).  Options are the command line's, with underscores for dashes
(max_evals=, no_polish=True, lambda_= for lambda); a flag is True; a
repeatable option takes a list; inputs= takes a dict {"p": "gpus"}; output= and
output_column= name the measured column; model_name= chooses a model of
a `models:` file (the command line's --model); output_file= is the
command line's -o.  Tables are pandas DataFrames when pandas imports,
else dicts of lists.  Errors raise scalefit.Error (a ValueError) with the
command line's message; warnings go through the warnings module as
scalefit.ScalefitWarning.
"""

import array
import ctypes
import html
import json
import math
import os
import sys
import warnings as _warnings

from . import _lib

try:
    import numpy as _np
except ImportError:  # plain lists then
    _np = None
try:
    import pandas as _pd
except ImportError:  # dicts of lists then
    _pd = None

__all__ = ["Error", "ScalefitWarning", "Model", "Data", "Fit", "Report",
           "Study",
           "fit", "load", "validate", "compare", "discover", "predict",
           "scale", "next_runs"]

__version__ = _lib.lib.scalefit_version().decode()

_L = _lib.lib


class Error(ValueError):
    """A scalefit error: str() is the message as the command line prints
    it after "scalefit: error: " (FILE:LINE:COL: message, and the quoted
    line with a caret).  code is scalefit.h's code, file, line, column and
    message the parts."""

    def __init__(self, e):
        self.code = e.code
        self.file = e.file.decode(errors="replace")
        self.line = e.line
        self.column = e.column
        self.message = e.message.decode(errors="replace")
        super().__init__(e.text.decode(errors="replace"))


class ScalefitWarning(UserWarning):
    """A warning of a run, as the command line prints it after
    "scalefit: warning: "."""


def _call(function, *args):
    """Call a fallible function of the library; raise Error on failure."""
    e = _lib.Error()
    if function(*args, ctypes.byref(e)) != 0:
        raise Error(e)


def _warn(text):
    """Warn with text, at the caller's line outside this package."""
    level, frame = 2, sys._getframe(1)
    while frame is not None and frame.f_globals.get(
            "__name__", "").split(".")[0] == __name__:
        frame = frame.f_back
        level += 1
    _warnings.warn(text, ScalefitWarning, stacklevel=level)


def _text(b):
    return b.decode() if b is not None else None


# ---- models -----------------------------------------------------------------

class Model:
    """A model: a path, "@NAME" or YAML text (anything with a line break),
    or Model.formula() from its parts.  Open once, run many times."""

    def __init__(self, model):
        self._h = ctypes.c_void_p()
        if isinstance(model, os.PathLike):
            model = os.fspath(model)
        if "\n" in model:
            _call(_L.scalefit_model_parse, model.encode(), None,
                  ctypes.byref(self._h))
        else:
            _call(_L.scalefit_model_open, model.encode(),
                  ctypes.byref(self._h))

    @classmethod
    def formula(cls, time, inputs, parameters):
        """A model from its parts: the formula time, inputs {"p": "gpus"}
        (each a column or an expression over columns) and parameters
        {"a": (0, 1)} (fitted within bounds) or {"k": 2.0} (fixed)."""
        self = cls.__new__(cls)
        self._h = ctypes.c_void_p()
        ins = [f"{k}={v}".encode() for k, v in inputs.items()]
        params = []
        for k, v in parameters.items():
            if isinstance(v, (tuple, list)):
                params.append(f"{k}={_number(v[0])}:{_number(v[1])}")
            else:
                params.append(f"{k}={_number(v)}")
        params = [p.encode() for p in params]
        _call(_L.scalefit_model_formula, time.encode(),
              (ctypes.c_char_p * len(ins))(*ins), len(ins),
              (ctypes.c_char_p * len(params))(*params), len(params),
              ctypes.byref(self._h))
        return self

    @property
    def names(self):
        """The names of the models it holds (a models: file: several)."""
        return [_text(_L.scalefit_model_name(self._h, i))
                for i in range(_L.scalefit_model_count(self._h))]

    def __del__(self):
        if getattr(self, "_h", None):
            _L.scalefit_model_free(self._h)
            self._h = None


def _model(model):
    return model if isinstance(model, Model) else Model(model)


# ---- data -------------------------------------------------------------------

def _number(x):
    """x as text that reads back as exactly x."""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (_np is not None and isinstance(x, _np.integer)):
        return str(int(x))
    return repr(float(x))


class Data:
    """Rows to run on, converted once: a CSV path, a pandas DataFrame or a
    dict of columns (lists or numpy arrays), as data= takes them.  Give it
    as data= to fit(), validate(), compare() and discover() to run many
    times on the same rows without converting them for each run:

        rows = scalefit.Data(df)
        fits = [scalefit.fit(model, data=rows, seed=s) for s in range(100)]

    It is the library's data handle (scalefit_data_new and its columns,
    or scalefit_data_csv), made once and read by every run, by runs in
    several threads at once too.  The columns are copied when it is made:
    later changes to the DataFrame are not seen.  A CSV path is read by
    each run, as the command reads its file.  Errors in the cells (an
    infinite number) raise Error here; the rows' own (a bad cell, a
    missing column) raise it in the run, as with a DataFrame."""

    def __init__(self, data):
        self._h = ctypes.c_void_p()
        if isinstance(data, (str, os.PathLike)):
            _call(_L.scalefit_data_csv, os.fspath(data).encode(),
                  ctypes.byref(self._h))
            return
        name = "<DataFrame>" if _is_frame(data) else "<dict>"
        _call(_L.scalefit_data_new, name.encode(), ctypes.byref(self._h))
        for column, values in _columns(data):
            self._add(str(column), values)

    def _add(self, name, values):
        numbers = _as_numbers(values)
        if numbers is not None:
            pointer, n, keep = numbers
            _call(_L.scalefit_data_add_numbers, self._h, name.encode(),
                  pointer, n, )
            del keep
            return
        levels, codes, n, keep = _as_levels(values)
        cells = (ctypes.c_char_p * len(levels))(*levels)
        _call(_L.scalefit_data_add_levels, self._h, name.encode(), cells,
              len(levels), codes, n)
        del keep

    def __repr__(self):
        return "<scalefit.Data>"

    def __del__(self):
        if getattr(self, "_h", None):
            _L.scalefit_data_free(self._h)
            self._h = None


def _is_frame(data):
    return _pd is not None and isinstance(data, _pd.DataFrame)


def _columns(data):
    if _is_frame(data):
        return list(data.items())
    if isinstance(data, dict):
        return list(data.items())
    raise TypeError("data is a CSV path, a pandas DataFrame or a dict of "
                    "columns, not %s" % type(data).__name__)


def _as_numbers(values):
    """A numeric column as (pointer to doubles, count, what keeps them
    alive), or None for text.  NaN and None are empty cells."""
    if _np is not None and not isinstance(values, (list, tuple)):
        a = _np.asarray(values)
        if a.dtype.kind not in "iuf":
            return None  # text; numbers among it are typed as in a CSV
        a = _np.ascontiguousarray(a, dtype=_np.float64)
        return a.ctypes.data_as(_lib.c_double_p), len(a), a
    values = list(values)
    if not all(v is None or (isinstance(v, (int, float)) and
                             not isinstance(v, bool)) or
               (_np is not None and isinstance(v, (_np.integer, _np.floating)))
               for v in values):
        return None
    a = array.array("d", (math.nan if v is None else float(v)
                          for v in values))
    pointer = (ctypes.c_double * len(a)).from_buffer(a)
    return ctypes.cast(pointer, _lib.c_double_p), len(a), (a, pointer)


def _cell_text(v):
    """A text column's cell: None for an empty one."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, (float, int)) and not isinstance(v, bool):
        return _number(v)
    return str(v)


def _as_levels(values):
    """A text column as (its distinct cells encoded, codes into them as
    int64s, the count of rows, what keeps the codes alive); an empty cell
    has code -1."""
    if _pd is not None and _np is not None and not isinstance(values, list):
        if getattr(values, "dtype", None) == object:
            values = _np.asarray(values)  # the same codes, a third sooner
        else:
            values = _pd.Series(values)
        codes, uniques = _pd.factorize(values, sort=False)
        levels = [_cell_text(u) or "" for u in uniques]
        codes = _np.ascontiguousarray(codes, dtype=_np.int64)
        keep = codes
        pointer = codes.ctypes.data_as(_lib.c_int64_p)
    else:
        index, levels, out = {}, [], array.array("q")
        for v in values:
            t = _cell_text(v)
            if t is None:
                out.append(-1)
                continue
            if t not in index:
                index[t] = len(levels)
                levels.append(t)
            out.append(index[t])
        keep = out
        pointer = ctypes.cast((ctypes.c_int64 * len(out)).from_buffer(out),
                              _lib.c_int64_p)
    return [t.encode() for t in levels], pointer, len(keep), keep


# ---- settings ---------------------------------------------------------------

# Python's names that are not the command line's with dashes.
_RENAMED = {"output": "output-column", "output_file": "output",
            "model_name": "model", "inputs": "input"}


def _values(key, value):
    """The texts of option key's value: none for a flag, one or several."""
    if value is True:
        return [None]
    if key in ("input", "set", "at") and isinstance(value, dict):
        return [f"{k}={_number(v) if not isinstance(v, str) else v}"
                for k, v in value.items()]
    if key == "weights" and isinstance(value, (list, tuple)):
        # one weight a fit: the command's W1,W2,...
        return [",".join(_number(v) for v in value)]
    if isinstance(value, (list, tuple)):
        return [v if isinstance(v, str) else _number(v) for v in value]
    if isinstance(value, (str, os.PathLike)):
        return [os.fspath(value)]
    return [_number(value)]


class _Settings:
    """Options by name, given to one run."""

    def __init__(self, options):
        self._h = ctypes.c_void_p()
        _call(_L.scalefit_settings_new, ctypes.byref(self._h))
        for key, value in options.items():
            if value is None or value is False:
                continue
            key = key.rstrip("_")  # lambda_=: lambda is Python's
            name = _RENAMED.get(key, key.replace("_", "-"))
            for v in _values(name, value):
                _call(_L.scalefit_settings_set, self._h, name.encode(),
                      v.encode() if v is not None else None)

    def __del__(self):
        if getattr(self, "_h", None):
            _L.scalefit_settings_free(self._h)
            self._h = None


# ---- results ----------------------------------------------------------------

def _table(rows):
    """A list of dicts as a DataFrame, or a dict of lists without pandas."""
    if _pd is not None:
        return _pd.DataFrame(rows)
    columns = {}
    for row in rows:
        for k in row:
            columns.setdefault(k, [])
    for row in rows:
        for k in columns:
            columns[k].append(row.get(k))
    return columns


def _nan(x):
    return math.nan if x is None else x


def _point_row(p, group=None):
    """A point of a prediction or a study as a flat row: its inputs, time,
    a new run's 95% interval (lower95, upper95), the mean's band, ..."""
    row = {} if group is None else {"group": group}
    row.update(p.get("inputs", {}))
    for k, v in p.items():
        if k in ("inputs", "terms", "shares", "kinds", "models", "outside"):
            continue
        if k == "interval95":
            row["lower95"], row["upper95"] = map(_nan, v)
        elif k == "ci95":
            row["band_lower95"], row["band_upper95"] = map(_nan, v)
        elif isinstance(v, (list, dict)):
            continue
        else:
            row[k] = _nan(v)
    return row


class Report:
    """What a run gave back: report (the dict of its --json), json, text,
    warnings, status (the command's exit status: 1 when its goal
    failed)."""

    def __init__(self, handle, owned=True):
        self._h = handle
        self._owned = owned
        self._report = None
        self.command = _text(_L.scalefit_report_command(handle))
        self.status = _L.scalefit_report_status(handle)
        self.warnings = [
            _text(_L.scalefit_report_warning(handle, i))
            for i in range(_L.scalefit_report_warning_count(handle))]
        for w in self.warnings:
            _warn(w)

    @property
    def json(self):
        """The JSON text the command prints with --json."""
        return _text(_L.scalefit_report_json(self._h))

    @property
    def text(self):
        """The text report the command prints (None for a loaded fit)."""
        return _text(_L.scalefit_report_text(self._h))

    @property
    def report(self):
        """The JSON document as a dict."""
        if self._report is None:
            self._report = json.loads(self.json)
        return self._report

    @property
    def table(self):
        """The rows the report is about, as a table: a prediction's or a
        study's points, validate's held-out predictions, compare's
        candidates, discover's board, next's candidates."""
        r = self.report
        if "groups" in r and "points" not in r:
            return _table([_point_row(p, g.get("label"))
                           for g in r["groups"] for p in g.get("points", [])])
        if "points" in r:
            return _table([_point_row(p) for p in r["points"]])
        for key in ("validation", "comparison", "discover"):
            if key in r:
                r = r[key]
        for key in ("predictions", "candidates", "board"):
            if key in r:
                return _table([_point_row(p) for p in r[key]])
        return _table([])

    def _repr_html_(self):
        text = self.text if self.text is not None else self.json
        return "<pre>%s</pre>" % html.escape(text)

    def __repr__(self):
        return "<scalefit.%s of %s>" % (type(self).__name__, self.command)

    def __del__(self):
        if getattr(self, "_owned", False) and getattr(self, "_h", None):
            _L.scalefit_report_free(self._h)
            self._h = None


class Study(Report):
    """A scale study: table (its points, the table of `scalefit scale`),
    answers, svg (its chart, which a notebook shows); study["time"] is
    study.table["time"]."""

    def __getitem__(self, column):
        return self.table[column]

    @property
    def answers(self):
        return self.report.get("answers")

    @property
    def svg(self):
        return _text(_L.scalefit_report_svg(self._h))

    def _repr_svg_(self):
        return self.svg

    _repr_html_ = None


class Fit(Report):
    """A fit: params, stderr, ci95, metrics (dicts by name), report (the
    dict of `scalefit fit --json`), text; predict(), scale(), next_runs(),
    save()."""

    def __init__(self, handle):
        self._fit = handle
        super().__init__(_L.scalefit_fit_report(handle), owned=False)
        n = _L.scalefit_fit_parameter_count(handle)
        names = [_text(_L.scalefit_fit_parameter_name(handle, i))
                 for i in range(n)]
        self.params = {k: _L.scalefit_fit_value(handle, i)
                       for i, k in enumerate(names)}
        self.stderr = {k: _L.scalefit_fit_stderr(handle, i)
                       for i, k in enumerate(names)}

    @property
    def ci95(self):
        """name -> (lower, upper) of each constant's 95% interval."""
        out = {}
        lo, hi = ctypes.c_double(), ctypes.c_double()
        for i, k in enumerate(self.params):
            _L.scalefit_fit_ci95(self._fit, i, ctypes.byref(lo),
                                 ctypes.byref(hi))
            out[k] = (lo.value, hi.value)
        return out

    @property
    def metrics(self):
        """The numbers of the report's "metrics" (mape, rmse, r2, aicc,
        ...) by name."""
        h, out = self._h, {}
        for i in range(_L.scalefit_report_size(h, b"metrics")):
            key = _L.scalefit_report_key(h, b"metrics", i)
            value = _L.scalefit_report_number(h, b"metrics." + key)
            if not math.isnan(value) or key != b"rank_deficient":
                out[key.decode()] = value
        return out

    @property
    def inputs(self):
        """The formula's inputs, in order."""
        return list(self.report.get("model", {}).get("inputs", {}))

    def predict(self, points=None, **options):
        """The time at points (a DataFrame or dict of columns named after
        the inputs; other columns are left out), with a new run's 95%
        interval (lower95, upper95) and whether it is an extrapolation:
        a table.  Options: predict's (at=, grid=, unit=, group=, ...)."""
        return predict(self, points, **options).table

    def scale(self, over, set=None, chart=True, **options):
        """The study of `scalefit scale`: the time along over ("p=1:64"),
        the other inputs at set ({"b": 32}), a Study."""
        return scale(self, over=over, set=set, chart=chart, **options)

    def next_runs(self, **options):
        """Which runs to measure next (`scalefit next`): a Report."""
        return next_runs(self, **options)

    def save(self, path):
        """Write the fit (FIT.json) to path, atomically."""
        _call(_L.scalefit_fit_save, self._fit, os.fspath(path).encode())

    def __del__(self):
        if getattr(self, "_fit", None):
            _L.scalefit_fit_free(self._fit)
            self._fit = None


# ---- the runs ---------------------------------------------------------------

def fit(model, data=None, **options):
    """`scalefit fit`: the constants of model fitted to data (None: the
    model's data.file).  A Fit."""
    m, d, s = _model(model), _data(data), _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_fit, m._h, d and d._h, s._h, ctypes.byref(h))
    return Fit(h)


def load(path):
    """A fit saved before (FIT.json)."""
    h = ctypes.c_void_p()
    _call(_L.scalefit_fit_load, os.fsencode(path), ctypes.byref(h))
    return Fit(h)


def _data(data):
    if data is None or isinstance(data, Data):
        return data
    return Data(data)


def validate(model, data=None, **options):
    """`scalefit validate` (train=, kfold= or loo=True): a Report whose
    table is the held-out predictions."""
    m, d, s = _model(model), _data(data), _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_validate, m._h, d and d._h, s._h, ctypes.byref(h))
    return Report(h)


def compare(models, data=None, **options):
    """`scalefit compare`: the models fitted to the same rows and ranked.
    A Report whose table is the candidates."""
    ms = [_model(m) for m in models]
    d, s = _data(data), _Settings(options)
    handles = (ctypes.c_void_p * len(ms))(*[m._h for m in ms])
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_compare, handles, len(ms), d and d._h, s._h,
          ctypes.byref(h))
    return Report(h)


def discover(model, data=None, **options):
    """`scalefit discover`: the formula found from the data.  A Report
    whose table is the board; output_file= writes the winner's model file
    (an ensemble with members= above 1; the model file's own formulas when
    the held-back check refuted the search), which names its data file, so
    data must be a CSV path (a DataFrame or dict is refused); to=V says
    how far the ensemble's formulas part at that value of the extrapolated
    input (report["discover"]["ensemble_apart"]); shapes=True gives
    report["shapes"], the grammar's term shapes."""
    m, d, s = _model(model), _data(data), _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_discover, m._h, d and d._h, s._h, ctypes.byref(h))
    return Report(h)


def _fits(fits):
    """One fit (a Fit or a FIT.json path) or several, as Fits and the
    library's handles."""
    if isinstance(fits, (Fit, str, bytes, os.PathLike)):
        fits = [fits]
    fits = [f if isinstance(f, Fit) else load(f) for f in fits]
    return fits, (ctypes.c_void_p * len(fits))(*[f._fit for f in fits])


def _at(points, inputs):
    """The points of a table as predict's --at texts, one per row."""
    columns = dict(_columns(points))
    names = [k for k in columns if k in inputs] or list(columns)
    values = [list(columns[k]) for k in names]
    return [",".join(f"{k}={_cell_text(v)}" for k, v in zip(names, row))
            for row in zip(*values)]


def predict(fits, points=None, **options):
    """`scalefit predict` with one fit, or the average of several: a
    Report whose table is the points."""
    fits, handles = _fits(fits)
    if points is not None and fits:  # no fit: the library says so
        at = options.get("at", [])
        at = [at] if isinstance(at, str) else list(at)
        options["at"] = at + _at(points, fits[0].inputs)
    s = _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_predict, handles, len(fits), s._h, ctypes.byref(h))
    return Report(h)


def scale(fits, chart=True, **options):
    """`scalefit scale` (over=, set=, ...): a Study, one per fit, or with
    weights= one of their average, with its chart (chart=False: none)."""
    options["chart"] = chart
    fits, handles = _fits(fits)
    s = _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_scale, handles, len(fits), s._h, ctypes.byref(h))
    return Study(h)


def next_runs(fits, **options):
    """`scalefit next` (target=, over= or candidates=, ...) with one fit,
    or the average of several (weights=): a Report whose table is the
    candidates ranked."""
    fits, handles = _fits(fits)
    s = _Settings(options)
    h = ctypes.c_void_p()
    _call(_L.scalefit_run_next, handles, len(fits), s._h, ctypes.byref(h))
    return Report(h)
