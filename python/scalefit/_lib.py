"""The C library libscalefit (scalefit.h, scalefit(3)) as ctypes sees it.

Nothing here but the library found and loaded, and each function's
argument and result types: the module scalefit converts, the library
works.  ctypes releases the GIL around every call, so Python threads run
fits at once as C threads do.
"""

import ctypes
import ctypes.util
import os

c_double_p = ctypes.POINTER(ctypes.c_double)
c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class Error(ctypes.Structure):
    """struct scalefit_error."""

    _fields_ = [
        ("code", ctypes.c_int),
        ("line", ctypes.c_int),
        ("column", ctypes.c_int),
        ("file", ctypes.c_char * 512),
        ("message", ctypes.c_char * 512),
        ("text", ctypes.c_char * 4096),
    ]


def _path():
    """Where libscalefit is: $SCALEFIT_LIBRARY_PATH (the build tree's
    tests point it at src/.libs), else the path configure wrote into
    _config.py at make install, else the system's search."""
    path = os.environ.get("SCALEFIT_LIBRARY_PATH")
    if path:
        return path
    try:
        from . import _config
        if os.path.exists(_config.LIBRARY):
            return _config.LIBRARY
    except ImportError:
        pass
    found = ctypes.util.find_library("scalefit")
    if found:
        return found
    raise ImportError(
        "libscalefit not found: install scalefit (make install), or set "
        "SCALEFIT_LIBRARY_PATH to the path of libscalefit.so")


lib = ctypes.CDLL(_path())

_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
_E = ctypes.POINTER(Error)
_S = ctypes.c_char_p
_N = ctypes.c_size_t
_I = ctypes.c_int
_D = ctypes.c_double

# name: (result, arguments)
_SIGNATURES = {
    "scalefit_version": (_S, []),
    "scalefit_code_name": (_S, [_I]),
    "scalefit_model_open": (_I, [_S, _PP, _E]),
    "scalefit_model_parse": (_I, [_S, _S, _PP, _E]),
    "scalefit_model_formula": (_I, [_S, c_char_pp, _N, c_char_pp, _N, _PP,
                                    _E]),
    "scalefit_model_count": (_N, [_P]),
    "scalefit_model_name": (_S, [_P, _N]),
    "scalefit_model_free": (None, [_P]),
    "scalefit_data_csv": (_I, [_S, _PP, _E]),
    "scalefit_data_new": (_I, [_S, _PP, _E]),
    "scalefit_data_add_numbers": (_I, [_P, _S, c_double_p, _N, _E]),
    "scalefit_data_add_texts": (_I, [_P, _S, c_char_pp, _N, _E]),
    "scalefit_data_add_levels": (_I, [_P, _S, c_char_pp, _N, c_int64_p, _N,
                                      _E]),
    "scalefit_data_free": (None, [_P]),
    "scalefit_settings_new": (_I, [_PP, _E]),
    "scalefit_settings_set": (_I, [_P, _S, _S, _E]),
    "scalefit_settings_free": (None, [_P]),
    "scalefit_run_fit": (_I, [_P, _P, _P, _PP, _E]),
    "scalefit_run_validate": (_I, [_P, _P, _P, _PP, _E]),
    "scalefit_run_compare": (_I, [_PP, _N, _P, _P, _PP, _E]),
    "scalefit_run_discover": (_I, [_P, _P, _P, _PP, _E]),
    "scalefit_run_predict": (_I, [_PP, _N, _P, _PP, _E]),
    "scalefit_run_scale": (_I, [_PP, _N, _P, _PP, _E]),
    "scalefit_run_next": (_I, [_PP, _N, _P, _PP, _E]),
    "scalefit_fit_load": (_I, [_S, _PP, _E]),
    "scalefit_fit_save": (_I, [_P, _S, _E]),
    "scalefit_fit_free": (None, [_P]),
    "scalefit_fit_report": (_P, [_P]),
    "scalefit_fit_parameter_count": (_N, [_P]),
    "scalefit_fit_parameter_name": (_S, [_P, _N]),
    "scalefit_fit_value": (_D, [_P, _N]),
    "scalefit_fit_stderr": (_D, [_P, _N]),
    "scalefit_fit_ci95": (None, [_P, _N, c_double_p, c_double_p]),
    "scalefit_report_free": (None, [_P]),
    "scalefit_report_command": (_S, [_P]),
    "scalefit_report_status": (_I, [_P]),
    "scalefit_report_json": (_S, [_P]),
    "scalefit_report_text": (_S, [_P]),
    "scalefit_report_svg": (_S, [_P]),
    "scalefit_report_warning_count": (_N, [_P]),
    "scalefit_report_warning": (_S, [_P, _N]),
    "scalefit_report_number": (_D, [_P, _S]),
    "scalefit_report_size": (_N, [_P, _S]),
    "scalefit_report_key": (_S, [_P, _S, _N]),
}

for _name, (_result, _args) in _SIGNATURES.items():
    _f = getattr(lib, _name)
    _f.restype = _result
    _f.argtypes = _args
