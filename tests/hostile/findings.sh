#!/bin/sh
# findings.sh - the hostile-input campaign's findings (issue 13), each
# reproducer run against this build: prints a Markdown table of the
# finding, the input, what the campaign saw before the fixes (from the
# issue) and what happens now (exit status and the first line of the
# output, or time and peak memory for the size findings).
#
#   tests/hostile/findings.sh [SCALEFIT]
#
# Run from the top of the source tree after `make`.  Not part of make
# check (the size rows take a minute); make check runs the checks behind
# each row (tests/cli.sh, tests/predict.sh, tests/hostile/run.sh,
# tests/hostile/sizes.sh and the CUnit programs).  Needs python3 and GNU
# time (/usr/bin/time).  Run as root, the device rows also show that
# /dev/null is still a character device after `fit -o /dev/null`.
SCALEFIT=${1:-./src/scalefit}
case $SCALEFIT in /*) ;; *) SCALEFIT=$(pwd)/$SCALEFIT ;; esac
top=$(pwd)
ernest=$top/expressions/ernest.yaml
w=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-findings.XXXXXX") || exit 99
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 99

# run: the exit status and the output's first error or warning line, else
# its first line (control characters shown as ^X, pipes escaped for the
# table).
run() {
	"$SCALEFIT" "$@" >out 2>&1
	st=$?
	msg=$(grep -m 1 '^scalefit: error' out || grep -m 1 '^scalefit: ' out ||
		head -n 1 out)
	msg=$(printf '%s' "$msg" | cut -c 1-320 | cat -v | sed 's/|/\\|/g')
	echo "exit $st: $msg"
}
row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }
sized() { # DIR ARGS...: wall time and peak memory
	d=$1
	shift
	(cd "$d" && /usr/bin/time -f '%e s, %M KB' "$SCALEFIT" "$@" >/dev/null 2>time.err)
	echo "exit $?: $(tail -n 1 "$d/time.err" | awk '{ printf "%s s, %.0f MB", $1, $3 / 1024 }')"
}

cp "$top/datasets/ernest_spark_rcv1/spark_lr_rcv1.csv" data.csv
sed 's|file: ../datasets/ernest_spark_rcv1/spark_lr_rcv1.csv|file: data.csv|' "$ernest" >m.yaml
"$SCALEFIT" fit m.yaml -q -o fit.json >/dev/null 2>&1
printf 'p,t\n1,10\n2,5\n4,3\n8,2\n' >runs.csv
model() { # FILE TIME: a one-parameter model of runs.csv
	printf 'inputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: %s\ndata:\n  file: runs.csv\n  output: t\n' "$2" >"$1"
}

echo "| # | input | before (issue 13) | after |"
echo "|---|---|---|---|"
# 1. outputs
cp fit.json ro.json && chmod 0444 ro.json
row 1 "fit m.yaml -o /dev/null" "/dev/null became a regular file (as root)" \
	"$(run fit m.yaml -q -o /dev/null); /dev/null is $(stat -c %F /dev/null)"
row 1 "fit m.yaml -o ro.json (0444)" "overwritten" "$(run fit m.yaml -q -o ro.json)"
cp fit.json rw.json && chmod 0664 rw.json
"$SCALEFIT" fit m.yaml -q -o rw.json >/dev/null 2>&1
row 1 "fit m.yaml -o rw.json (0664)" "came back 0644" "mode now $(stat -c %a rw.json)"
row 1 "fit m.yaml -o m.yaml" "overwrote its input, exit 0" "$(run fit m.yaml -q -o m.yaml)"
row 1 "fit m.yaml data.csv -o data.csv" "overwrote its input, exit 0" "$(run fit m.yaml data.csv -q -o data.csv)"
row 1 "scale fit.json --plot fit.json" "overwrote its input, exit 0" "$(run scale fit.json --over p=1:64 --plot fit.json)"
long=$(printf '%0250d' 0 | tr 0 x).json
row 1 "fit -o (a 250-character name)" "failed (.tmp.XXXXXX suffix)" "$(run fit m.yaml -q -o "$long"); $(ls | grep -c '^xxx') file"
# 2. where: NaN
printf 'inputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: a / p\ndata:\n  file: runs.csv\n  output: t\n  where: "log(p - 3)"\n' >where.yaml
row 2 'where: "log(p - 3)"' "kept p = 1, 2" "$(run check where.yaml); $(grep -o '[0-9]* rows* to fit' out)"
# 3. \0
printf 'inputs:\n  p: p\n  q: p\nparameters:\n  s: {min: 0, max: 10}\ntime: "s + q/p\\0 + 1000*zz"\ndata:\n  file: runs.csv\n  output: t\n' >nul.yaml
row 3 'time: "s + q/p\0 + 1000*zz"' "checked as s + q/p" "$(run check nul.yaml)"
# 4. unbounded reads
row 4 "predict fit.json --grid /dev/zero" "grew to 24 GB, OOM-killed" "$(run predict fit.json --grid /dev/zero)"
row 4 "check /dev/zero" "8 GB in 10 s" "$(run check /dev/zero)"
# 5. sizes (tests/hostile/generate.py)
for k in "params 20000" "aliases 1000" "columns 100000" "constants 1000" "rows 1000000"; do
	set -- $k
	python3 "$top/tests/hostile/generate.py" "$1" "$2" "$w/$1" || exit 99
done
row 5 "check: 20,000 parameters (generate.py params 20000)" "6.3 s (300 KB model)" "$(sized "$w/params" check model.yaml)"
row 5 "check: 1,000 aliased models (generate.py aliases 1000)" "> 120 s, 304 MB" "$(sized "$w/aliases" check model.yaml)"
row 5 "check: 100,000-column CSV header (generate.py columns 100000)" "24 s, 445 MB" "$(sized "$w/columns" check model.yaml)"
row 5 "fit: 1,000 linear constants on 8 rows (generate.py constants 1000)" "37 s" "$(sized "$w/constants" fit model.yaml)"
row 5 "fit -o: 1,000,000 rows (generate.py rows 1000000; the issue: 4.1M)" "4.1M rows: 778 MB JSON, 32 s, 6.9 GB" \
	"$(sized "$w/rows" fit model.yaml -q -o fit.json); JSON $(($(stat -c %s "$w/rows/fit.json") / 1024)) KB"
row 5 "predict on that fit" "5.7 GB for one point" "$(sized "$w/rows" predict fit.json --at p=3)"
"$SCALEFIT" fit "$w/rows/model.yaml" -q --residuals all -o "$w/rows/all.json" >/dev/null 2>&1
row 5 "predict on fit --residuals all (every row)" "5.7 GB for one point" \
	"$(sized "$w/rows" predict all.json --at p=3); JSON $(($(stat -c %s "$w/rows/all.json") / 1048576)) MB"
# 6. threads
row 6 "OMP_NUM_THREADS=100000 fit" "segfault in libgomp (139)" "$(OMP_NUM_THREADS=100000 run fit m.yaml)"
row 6 "OMP_NUM_THREADS=50000 fit" "exit 1, fit failed" "$(OMP_NUM_THREADS=50000 run fit m.yaml)"
# 7. escapes
printf 'name: "\\e]0;owned\\a"\ninputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: a / p\ndata:\n  file: runs.csv\n  output: t\n' >esc.yaml
row 7 'name: "\e]0;owned\a" (check prints the name)' "sent to the terminal" \
	"$(run check esc.yaml); $(grep -c "$(printf '\033')" out) lines with ESC"
# 8. check vs fit
printf 'inputs:\n  p: p\nparameters:\n  a: {min: -1e308, max: 1e308}\ntime: a * p\ndata:\n  file: runs.csv\n  output: t\n' >wide.yaml
row 8 "bounds [-1e308, 1e308]" "check passed; fit failed, 'parameter 0', no position" "$(run check wide.yaml)"
printf 'inputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: a * p\ndata:\n  file: runs.csv\n  output: t\nfit: {optimizer: {population: 1e9}}\n' >pop.yaml
row 8 "population: 1e9" "failed without position" "$(run check pop.yaml)"
printf 'inputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: a * p\ndata:\n  file: runs.csv\n  output: t\nfit: {optimizer: {max_evals: 9007199254740993}}\n' >big.yaml
row 8 "max_evals: 9007199254740993 (2^53+1)" "silently rounded" "$(run check big.yaml)"
row 8 "fit --max-evals 9007199254740993" "silently rounded" "$(run fit m.yaml -q --max-evals 9007199254740993)"
# 9. scale (another issue's; shown as it is)
row 9 "scale --over p=1:1e200" "table 50.1% at p = 16, answer 'up to p = 15'" \
	"$(run scale fit.json --over p=1:1e200 --set n=0.125); $(grep -m 1 'up to' out)"
row 9 "scale --over p=-1e308:1e308" "'fastest b = inf', exit 0" "$(run scale fit.json --over p=-1e308:1e308 --set n=0.125)"
row 9 "scale --cost 1e308" "cost inf" "$(run scale fit.json --over p=1:64 --set n=0.125 --cost 1e308)"
# 10. exit statuses
"$SCALEFIT" fit --help >/dev/full 2>/dev/null
row 10 "fit --help >/dev/full" "exit 0" "exit $?"
rm -f full.json
"$SCALEFIT" fit m.yaml -q -o full.json >/dev/full 2>/dev/null
row 10 "fit -o F >/dev/full" "exit 2 but F written" "exit $?; F $([ -e full.json ] && echo written || echo absent)"
# 11. compare
mkdir -p compare fit
cp "$top/tests/data/compare/candidates.yaml" "$top/tests/data/compare/bad-column.yaml" compare/
cp "$top/tests/data/fit/reps.csv" fit/
start=$(date +%s)
row 11 "compare candidates.yaml bad-column.yaml (tests/data/compare)" "fitted the first for 21 s, then missing columns" \
	"$(run compare compare/candidates.yaml compare/bad-column.yaml); $(($(date +%s) - start)) s"
# 12. corrupted FIT.json
python3 - fit.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = json.loads(json.dumps(d)); c["covariance"][1][1] = -1.0
json.dump(c, open("negvar.json", "w"), indent=2)
c = json.loads(json.dumps(d)); c["scalefit_version"] = "99.0.0"
json.dump(c, open("future.json", "w"), indent=2)
PY
row 12 "covariance with a negative variance" "zero-width band" "$(run predict negvar.json --at p=8,n=1)"
row 12 "scalefit_version 99.0.0" "accepted silently" "$(run predict future.json --at p=8,n=1)"
# 13. messages
printf 'p,t\n1,10\n2,5.5\n4,oops\n8,2\n' >text.csv
printf 'inputs:\n  p: p\nparameters:\n  a: {min: 0, max: 10}\ntime: a / p\ndata:\n  file: text.csv\n  output: t\n' >text.yaml
row 13 "output: t, a column with a cell 'oops'" "text input 't' can only be compared with a string (no cell)" "$(run check text.yaml)"
model paren.yaml "(a / p"
row 13 "time: (a / p" "the '(' at column 1 (the formula's column)" "$(run check paren.yaml)"
row 13 "fit -o ''" "names no file" "$(run fit m.yaml -q -o '')"
echo '[]' >top.json
row 13 "predict on [] (a FIT.json)" "a blank name" "$(run predict top.json --at p=1)"
printf 'inputs:\n  p: p\nparameters:\n  a: {min: 1, max: 10}\ntime: a * log(p - 1.5)\ndata:\n  file: runs.csv\n  output: t\nfit: {loss: sse}\n' >log.yaml
row 13 "time: a * log(p - 1.5), loss sse (p = 1 gives NaN)" "does not name the rows" "$(run fit log.yaml -q)"
printf 'p,t\r1,10\r2,5\r16,2\r' >cr.csv
row 13 "a CSV whose lines end with CR alone" "duplicate column name '16'" "$(run check m.yaml cr.csv)"
