"""Leave-one-dataset-out priors for the accuracy benchmarks.

bench/prior.py fits the prior of the model error beyond the fitted range
(fit/interval.h) on the bundled corpus, and again without each dataset,
into bench/prior.json.  A benchmark that scores intervals on a dataset
puts that dataset's own left-out prior into the model files it writes
(fit.prior, scalefit-model(5)), so no dataset calibrates its own
intervals: with_prior(text, dataset) returns the model text with it.
"""

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))


def prior_for(dataset):
    """The prior fitted without dataset (bench/prior.json), or None when
    the file has no such dataset (then the built-in one applies)."""
    with open(os.path.join(HERE, "prior.json")) as f:
        table = json.load(f)
    return table["leave_out"].get(dataset)


def with_prior(text, dataset):
    """Model text with fit.prior set to dataset's left-out prior (beside
    what a prior: block of fit: holds already: the disagreement discover
    writes, the input that is a hardware speed)."""
    p = prior_for(dataset)
    if p is None:
        return text
    keys = ("scale", "dof", "bias_weight", "noise_weight", "agreed_scale",
            "disagreement_weight", "hardware_scale")
    # a key the file's prior: gives already stays as it is
    pairs = [f"{k}: {p[k]}" for k in keys
             if k in p and not re.search(rf"(?<![a-z_]){k}:", text)]
    flow = f"prior: {{{', '.join(pairs)}}}"
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^fit:\s*\{", line):
            lines[i] = re.sub(r"\}\s*$", f", {flow}}}", line)
            return "\n".join(lines) + "\n"
        if re.match(r"^fit:\s*$", line):
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(r"^\S", lines[j])), len(lines))
            block = next((j for j in range(i + 1, end)
                          if re.match(r"^  prior:", lines[j])), None)
            if block is None:
                lines.insert(i + 1, f"  {flow}")
            elif re.match(r"^  prior:\s*\{.*\}\s*$", lines[block]):
                lines[block] = re.sub(r"\}\s*$", f", {', '.join(pairs)}}}",
                                      lines[block])
            else:
                lines[block + 1:block + 1] = [f"    {x}" for x in pairs]
            return "\n".join(lines) + "\n"
    return text.rstrip("\n") + f"\nfit: {{{flow}}}\n"
