#!/usr/bin/env python3
"""snapshot.py - every command's output on every shipped model, for
before/after comparisons of a change that must not change behaviour.

    tests/snapshot.py SCALEFIT OUTDIR [--quick]

Runs check, fit (text, JSON), validate (k-fold and an extrapolation split),
compare, discover (text, JSON, the written model), predict, scale (text,
JSON, SVG) and next on each model of expressions/ (each model of a models:
file), one thread, seed 1, and writes every output and exit status under
OUTDIR, with the clock readings (seconds, elapsed, formulas per second)
replaced by "#" and the tree's and OUTDIR's paths by <top> and <out>, so
snapshots of two checkouts compare.  Compare two snapshots with `diff -r A B`.  --quick skips
discover (the slowest part: about a minute in all).

Not run by make check; the house issues' "byte-identical outputs" are
checked with it.  Needs only Python's standard library.
"""
import json
import os
import re
import subprocess
import sys

TIMING_JSON = re.compile(
    r'("(?:seconds|elapsed|formulas_per_second)": )(?:[-+0-9.eE]+|\{[^{}]*\})')
TIMING_TEXT = re.compile(
    r'\b[0-9][0-9.,]*(?:e[-+]?[0-9]+)? ?(s|ms|formulas/s|a second)\b')


PLACES = []  # (path, name): the tree and the output folder, named alike


def strip(text):
    for path, name in PLACES:
        text = text.replace(path, name)
    text = TIMING_JSON.sub(r'\1"#"', text)
    # a written model's data file, relative to OUTDIR wherever it is
    text = re.sub(r'(file: "?)(?:\.\./)+(?:[^"\n]*/)?(datasets/)', r'\1<rel>/\2', text)
    lines = []
    for line in text.splitlines():
        if re.search(r'a second\)|elapsed|evaluations|global search', line):
            line = TIMING_TEXT.sub('#', line)
        lines.append(line)
    return '\n'.join(lines) + '\n'


def models(top):
    out = []
    for name in sorted(os.listdir(os.path.join(top, 'expressions'))):
        if not name.endswith('.yaml'):
            continue
        path = os.path.join(top, 'expressions', name)
        with open(path) as f:
            text = f.read()
        if re.search(r'^models:', text, re.M):
            for m in re.findall(r'^  - name: *([A-Za-z0-9_.-]+)', text, re.M):
                out.append((name[:-5] + '.' + m, path, ['--model', m]))
        else:
            out.append((name[:-5], path, []))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    outdir = sys.argv[2]
    quick = '--quick' in sys.argv[3:]
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, SCALEFIT_LIBRARY=top, OMP_NUM_THREADS='1',
               LC_ALL='C')
    os.makedirs(outdir, exist_ok=True)
    PLACES.extend([(os.path.abspath(outdir), '<out>'), (top, '<top>')])

    def run(tag, args, files=()):
        p = subprocess.run([exe] + args, cwd=outdir, env=env,
                           capture_output=True, text=True)
        with open(os.path.join(outdir, tag), 'w') as f:
            f.write(strip('$ scalefit ' + ' '.join(args)))
            f.write('exit %d\n' % p.returncode)
            f.write(strip(p.stdout))
            f.write('--- stderr\n' + strip(p.stderr))
        for name in files:
            path = os.path.join(outdir, name)
            if os.path.exists(path):
                with open(path) as f:
                    text = f.read()
                with open(path, 'w') as f:
                    f.write(strip(text))
        return p

    common = ['--seed', '1', '--threads', '1']
    discovered = set()
    for tag, path, sel in models(top):
        run(tag + '.check', ['check', path] + sel[:0])
        run(tag + '.fit.txt', ['fit', path] + sel + common)
        fitjson = tag + '.fit.json'
        run(tag + '.fit.stdout', ['fit', path] + sel + common +
            ['--json', '-q', '-o', fitjson], [fitjson])
        try:
            with open(os.path.join(outdir, fitjson)) as f:
                fit = json.load(f)
        except (OSError, ValueError):
            continue
        ranges = fit.get('input_ranges', {})
        names = list(ranges)
        if not names:
            continue
        sweep = 'p' if 'p' in ranges else names[0]
        lo, hi = ranges[sweep]
        mid = {k: (v[0] + v[1]) / 2 for k, v in ranges.items()}
        cut = lo + (hi - lo) / 2
        run(tag + '.validate.kfold',
            ['validate', path] + sel + common + ['--kfold', '4', '--json'])
        run(tag + '.validate.train.txt',
            ['validate', path] + sel + common + ['--train', '%s <= %g' % (sweep, cut)])
        run(tag + '.validate.train.json',
            ['validate', path] + sel + common +
            ['--train', '%s <= %g' % (sweep, cut), '--json'])
        run(tag + '.compare.txt', ['compare', path] + sel + common)
        run(tag + '.compare.json', ['compare', path] + sel + common + ['--json'])
        if not quick and path not in discovered:
            discovered.add(path)
            out = tag + '.discover.yaml'
            run(tag + '.discover.txt', ['discover', path] + common)
            run(tag + '.discover.json',
                ['discover', path] + common + ['--json', '-o', out], [out])
        point = ','.join('%s=%g' % (k, hi * 2 if k == sweep else mid[k])
                         for k in names)
        near = ','.join('%s=%g' % (k, mid[k]) for k in names)
        others = ','.join('%s=%g' % (k, mid[k]) for k in names if k != sweep)
        sets = ['--set', others] if others else []
        run(tag + '.predict.txt', ['predict', fitjson, '--at', point, '--at', near])
        run(tag + '.predict.json',
            ['predict', fitjson, '--at', point, '--at', near, '--json'])
        over = '%s=%g:%g' % (sweep, lo, hi * 4)
        svg = tag + '.scale.svg'
        run(tag + '.scale.txt', ['scale', fitjson, '--over', over] + sets +
            ['--plot', svg], [svg])
        run(tag + '.scale.json', ['scale', fitjson, '--over', over] + sets +
            ['--json', '--cost', '2'])
        run(tag + '.next.txt', ['next', fitjson, '--target', point,
                                '--over', '%s=%g:%g' % (sweep, lo, hi * 2)])
        run(tag + '.next.json', ['next', fitjson, '--target', point,
                                 '--over', '%s=%g:%g' % (sweep, lo, hi * 2),
                                 '--json'])
    run('formulas', ['formulas'])
    csv = os.path.join(top, 'datasets', 'agpubench_gpu_training',
                       'training_times.csv')
    run('init', ['init', csv])
    run('compare.candidates',
        ['compare', os.path.join(top, 'expressions', 'ddp-candidates.yaml'),
         '--train', 'p <= 2', '--json'] + common)


if __name__ == '__main__':
    main()
