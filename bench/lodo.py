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


# The keys of a left-out prior a model file gets.
KEYS = ("scale", "dof", "bias_weight", "noise_weight", "agreed_scale",
        "disagreement_weight", "hardware_scale")


def into_flow(line, pairs):
    """line with pairs added inside its first {...} mapping that ends
    before any comment: prior: {...} when the line has one."""
    m = re.search(r"prior:\s*\{([^}]*)\}", line) or \
        re.search(r"\{(.*)\}", line.split("#")[0])
    sep = ", " if m.group(1).strip() else ""
    return line[:m.end(1)] + sep + ", ".join(pairs) + line[m.end(1):]


def with_prior(text, dataset):
    """Model text with fit.prior set to dataset's left-out prior, beside
    what the file's prior: holds already (the disagreement discover
    writes, the input that is a hardware speed): a key it gives stays as
    it is.  The fit: block may be a flow mapping or a block, its prior:
    either, or absent."""
    p = prior_for(dataset)
    if p is None:
        return text

    def missing(given):
        return [f"{k}: {p[k]}" for k in KEYS
                if k in p and not re.search(rf"(?<![a-z_]){k}:", given)]

    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^fit:\s*\{", line):
            given = re.search(r"prior:\s*\{([^}]*)\}", line)
            if given is not None:
                lines[i] = into_flow(line, missing(given.group(1)))
            else:
                lines[i] = into_flow(
                    line, [f"prior: {{{', '.join(missing(''))}}}"])
            return "\n".join(lines) + "\n"
        if re.match(r"^fit:\s*(#.*)?$", line):
            end = next((j for j in range(i + 1, len(lines))
                        if re.match(r"^\S", lines[j])), len(lines))
            block = next((j for j in range(i + 1, end)
                          if re.match(r"^  prior:", lines[j])), None)
            if block is None:
                lines.insert(i + 1,
                             f"  prior: {{{', '.join(missing(''))}}}")
            elif re.match(r"^  prior:\s*\{", lines[block]):
                given = re.search(r"\{([^}]*)\}", lines[block]).group(1)
                lines[block] = into_flow(lines[block], missing(given))
            else:
                inner = next((j for j in range(block + 1, end)
                              if not lines[j].startswith("    ")), end)
                pairs = missing("\n".join(lines[block + 1:inner]))
                lines[block + 1:block + 1] = [f"    {x}" for x in pairs]
            return "\n".join(lines) + "\n"
    return text.rstrip("\n") + \
        f"\nfit: {{prior: {{{', '.join(missing(''))}}}}}\n"
