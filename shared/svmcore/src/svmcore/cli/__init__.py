"""Plumbing of the monorepo's command-line tools, written once for every package.

- :func:`run`: runs a tool's function and turns what can go wrong into one line on
  stderr and an exit status (2 bad input, 1 failure, 130 Ctrl-C); a closed stdout
  (``| head``) ends the tool quietly, as the Python documentation recommends.
- :class:`ArgumentParser`: plain-text ``--help``, one-line option errors, no prefix
  matching; checked argparse types (:func:`positive_float`, :func:`fraction`, ...) and
  LIBSVM's kernel options (:func:`add_kernel_options`).
- :func:`read_data`, :func:`write_values`: svmlight/libsvm and CSV files in, one value
  per line out.
- :func:`save_model`, :func:`load_model`: portable model files (``.npz`` arrays and a
  JSON header; no pickle).
- :func:`train_tool`, :func:`predict_tool`, :func:`dispatch`: the LIBSVM-style
  ``<name>-train``/``<name>-predict`` pair and ``python -m <package> COMMAND``;
  :func:`tool_pair` makes a package's three entry points from its options in one call.

The tools themselves (``svmlin``, ``aesvm-train``, ``lpsvr-train``, ``aid-train`` and
their ``-predict`` partners) live in the packages; see the user guide's command-line page.
"""

from ._data import FORMATS, add_data_options, data_options, read_data, write_values
from ._model import (
    MODEL_FORMAT,
    MODEL_FORMAT_VERSION,
    load_model,
    read_model_header,
    save_model,
)
from ._pair import ToolPair, tool_pair
from ._parser import (
    KERNEL_CODES,
    ArgumentParser,
    add_kernel_options,
    fraction,
    gamma_value,
    kernel_params,
    kernel_value,
    nonnegative_float,
    positive_float,
    positive_int,
)
from ._run import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_INTERRUPTED, CLIError, run
from ._tools import dispatch, predict_tool, train_tool

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_FAILURE",
    "EXIT_INTERRUPTED",
    "FORMATS",
    "KERNEL_CODES",
    "MODEL_FORMAT",
    "MODEL_FORMAT_VERSION",
    "ArgumentParser",
    "CLIError",
    "ToolPair",
    "add_data_options",
    "add_kernel_options",
    "data_options",
    "dispatch",
    "fraction",
    "gamma_value",
    "kernel_params",
    "kernel_value",
    "load_model",
    "nonnegative_float",
    "positive_float",
    "positive_int",
    "predict_tool",
    "read_data",
    "read_model_header",
    "run",
    "save_model",
    "tool_pair",
    "train_tool",
    "write_values",
]
