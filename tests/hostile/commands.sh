#!/bin/sh
# commands.sh - hostile inputs to whole commands (the third campaign, issue
# 25): each case runs one command on inputs made in a scratch folder (from
# tests/hostile/commands/ and printf) and checks its exit status, a
# fragment of its output (standard output and error together), and that
# no escape or bell character reached the terminal.  A case named NN-...
# is finding NN of the issue.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Needs timeout(1).
SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
case $SCALEFIT in /*) ;; *) SCALEFIT=$(pwd)/$SCALEFIT ;; esac
case $srcdir in /*) ;; *) srcdir=$(pwd)/$srcdir ;; esac
w=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-commands.XXXXXX") || exit 99
trap 'rm -rf "$w"' EXIT
cp "$srcdir"/tests/hostile/commands/* "$w"/ && chmod -R u+w "$w" || exit 99
cd "$w" || exit 99
S=$SCALEFIT
esc=$(printf '\033')
bel=$(printf '\007')
passed=0
failed=0

# expect NAME STATUS FRAGMENT COMMAND...: COMMAND exits with STATUS within
# 30 s, its output holds FRAGMENT (a fixed string; "" matches anything)
# and no ESC or BEL.
expect() {
	name=$1
	want=$2
	fragment=$3
	shift 3
	timeout 30 "$@" >out 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $name: exit $got, expected $want"
		sed 's/^/  | /' out | head -n 20 | cat -v
		failed=$((failed + 1))
	elif [ -n "$fragment" ] && ! grep -qF -e "$fragment" out; then
		echo "FAIL: $name: output lacks '$fragment'"
		sed 's/^/  | /' out | head -n 20 | cat -v
		failed=$((failed + 1))
	elif grep -q "[$esc$bel]" out; then
		echo "FAIL: $name: an escape or bell character reached the terminal"
		failed=$((failed + 1))
	else
		echo "ok: $name"
		passed=$((passed + 1))
	fi
}

# lacks NAME TEXT: the output of the case before holds no TEXT (a fixed
# string, any case).
lacks() {
	if grep -qiF -e "$2" out; then
		echo "FAIL: $1: the output holds '$2'"
		grep -iF -e "$2" out | head -n 5 | sed 's/^/  | /'
		failed=$((failed + 1))
	else
		echo "ok: $1"
		passed=$((passed + 1))
	fi
}

# The data of a --by fit: a group key holds an OSC sequence.
title=$(printf '\033]0;pwned\007')
{
	echo 'job,p,t'
	for j in ok "$title"; do
		printf '"%s",1,11\n"%s",2,6\n"%s",4,3.5\n' "$j" "$j" "$j"
	done
} >esc.csv
printf 'name: bym\ndata:\n  file: esc.csv\n  output: t\ninputs:\n  p: p\nparameters:\n  a: {min: 0, max: 100}\n  c: {min: 0, max: 100}\ntime: a + c / p\n' >esc.yaml

# ---- 02: every string from data, a model or a FIT.json is escaped -------
expect 02-fit-by 0 'job=\x1b]0;pwned\x07' "$S" fit esc.yaml --by job -q
expect 02-fit-by-details 0 '== group job=\x1b]0;pwned\x07 ==' \
	"$S" fit esc.yaml --by job -q --details
expect 02-validate-by 0 'job=\x1b]0;pwned\x07' \
	"$S" validate esc.yaml --by job --loo -q
expect 02-compare-by 0 'job=\x1b]0;pwned\x07' "$S" compare esc.yaml esc.yaml --by job -q
"$S" fit esc.yaml --by job -q -o groups.json >/dev/null 2>&1
expect 02-predict-groups 0 '== group job=\x1b]0;pwned\x07 ==' \
	"$S" predict groups.json --at p=8 -q
expect 02-scale-groups 0 'job=\x1b]0;pwned\x07' "$S" scale groups.json --over p=1:16 -q
expect 02-predict-name 0 'x\x1b]0;pwned-title\x07y: predicted t\x1b[2J' \
	"$S" predict esc-fit.json --at p=8,n=0.5 -q
expect 02-scale-name 0 'x\x1b]0;pwned-title\x07y: t\x1b[2J over p' \
	"$S" scale esc-fit.json --over p=1:16 --set n=0.5 -q
expect 02-next-name 0 'next run for x\x1b]0;pwned-title\x07y' \
	"$S" next esc-fit.json --target p=64,n=0.5 --over p=1:32 -q
expect 02-average-name 0 't\x1b[2J averaged over 2 fits' \
	"$S" predict esc-fit.json esc-fit.json --at p=8,n=0.5 -q
printf 'gpus,time_s,net\n1,10,a\n2,6,%s\n4,4,b\n' "$title" >esc-init.csv
expect 02-init-stdout 0 '# 3 values: \x1B]0;pwned\x07, a, b' "$S" init esc-init.csv
mkdir -p lib/expressions lib/datasets
printf '# hello %s comment\nmodels:\n  - name: x\n    time: a\n' "$title" \
	>lib/expressions/comment.yaml
cp "$srcdir/expressions/ernest.yaml" "lib/expressions/n$(printf '\033')[2J.yaml"
expect 02-formulas-comment 0 'hello \x1b]0;pwned\x07 comment' \
	env SCALEFIT_LIBRARY="$w/lib" "$S" formulas
expect 02-formulas-name 0 '@n\x1b[2J ' env SCALEFIT_LIBRARY="$w/lib" "$S" formulas
rm -rf lib

# ---- 03: a FIFO is refused, or skipped with a warning, never waited on --
mkdir -p lib/expressions lib/datasets
printf 'p,t\n1,10\n2,6\n4,4\n' >lib/datasets/d.csv
printf '# one\ndata:\n  file: ../datasets/d.csv\n  output: t\ninputs:\n  p: p\nparameters:\n  a: {min: 0, max: 100}\n  c: {min: 0, max: 100}\ntime: a + c / p\n' \
	>lib/expressions/one.yaml
mkfifo lib/expressions/fifo.yaml
expect 03-formulas-fifo 0 'fifo.yaml: is a FIFO, not a regular file: skipped' \
	env SCALEFIT_LIBRARY="$w/lib" "$S" formulas
expect 03-name-beside-fifo 0 'ok: 1 model ready to fit' \
	env SCALEFIT_LIBRARY="$w/lib" "$S" check @one
expect 03-name-of-fifo 2 "has no formula 'fifo'" \
	env SCALEFIT_LIBRARY="$w/lib" "$S" check @fifo
rm -rf lib
mkfifo fifo.json
expect 03-fitfile-fifo 2 'fifo.json: is a FIFO, not a regular file' \
	"$S" predict fifo.json --at p=1
expect 03-fitfile-device 2 '/dev/zero: is a character device, not a regular file' \
	"$S" scale /dev/zero --over p=1:8
expect 03-fitfile-directory 2 ': is a directory, not a regular file' \
	"$S" next . --target p=8 --over p=1:4
rm -f fifo.json

# ---- 11: a number that is not finite is refused or explained ----------
expect 11-predict-at-zero 2 "--at 'p=0,n=0.5': the time is not a number there" \
	"$S" predict ernest.json --at p=0,n=0.5 -q
expect 11-predict-at-negative 2 "--at 'p=-1,n=0.5': the time is not a number" \
	"$S" predict ernest.json --at p=8,n=0.5 --at p=-1,n=0.5 -q
printf 'p,n\n8,0.5\n0,0.5\n' >grid.csv
expect 11-predict-grid-zero 2 'grid.csv:3: at p = 0, n = 0.5 the time is not a number' \
	"$S" predict ernest.json --grid grid.csv -q
expect 11-average-at-zero 2 "--at 'p=0,n=0.5': the time is not a number" \
	"$S" predict ernest.json ernest.json --at p=0,n=0.5 -q
expect 11-next-candidates 0 'cand.csv:3: candidate p = -4, b = 16, n = 256000 left out' \
	"$S" next ddp.json --target p=64,b=16,n=256000 --candidates cand.csv
lacks 11-next-candidates-no-nan nan
expect 11-next-over 0 '--over: candidate p = 0, b = 16, n = 256000 left out' \
	"$S" next ddp.json --target p=64,b=16,n=256000 --over p=0,2,4 --json
lacks 11-next-over-no-null "\"time\": null"
printf 'name: lg\ndata:\n  file: lg.csv\n  output: t\ninputs:\n  p: p\n  x: x\nparameters:\n  a: {min: 0, max: 100}\n  c: {min: 0, max: 100}\ntime: a + c * log(x) / p\n' >lg.yaml
printf 'p,x,t\n1,2,10\n2,2,6\n4,3,4\n8,4,3\n' >lg.csv
"$S" fit lg.yaml -q -o lg.json >/dev/null 2>&1
expect 11-scale-log-negative 2 'at x = -2 the time is not a number' \
	"$S" scale lg.json --over x=-2,0.5,1,2 --set p=2 -q
expect 11-next-none-left 2 'no candidate is left' \
	"$S" next ddp.json --target p=64,b=16,n=256000 --over p=0,-4

# ---- 12: a fit file's numbers that contradict each other are refused ---
# tamper NAME PYTHON: ernest.json edited by PYTHON (d is the document).
tamper() {
	python3 -c "import json, sys
d = json.load(open('ernest.json'))
$2
json.dump(d, open('$1.json', 'w'))"
}
if command -v python3 >/dev/null 2>&1; then
	cov="d['covariance']"
	tamper outbounds "d['parameters']['theta1']['value'] = -1e6"
	tamper minmax "d['parameters']['theta0']['min'] = 200"
	tamper asym "$cov[0][1] = 1e10"
	tamper corr "$cov[0][1] = $cov[1][0] = 100"
	tamper nullcov "$cov[0][1] = $cov[1][0] = None"
	tamper level7 "d['prediction_interval']['level'] = 7"
	boot="d['bootstrap'] = {'replicates': 10, 'samples': [[1, 162, 0, 1.5]] * 10}"
	tamper bootother "$boot"
	tamper bootbounds "$boot; d['bootstrap']['samples'][3] = [1, 2000, 0, 1.5]"
	tamper bootcount "$boot; d['bootstrap']['replicates'] = 12"
	tamper bootnames "$boot; d['bootstrap']['parameters'] = {'a': {}, 'b': {}, 'c': {}, 'd': {}}"
	spread="[[1 + k / 10, 162 + k, 0, 1.5 + k / 100] for k in range(10)]"
	tamper bootoutside "d['bootstrap'] = {'replicates': 10, 'samples': $spread}"
	at="--at p=8,n=0.5"
	expect 12-value-outside-bounds 2 'parameters.theta1.value is -1e+06, outside its bounds [0, 1000]' \
		"$S" predict outbounds.json $at -q
	expect 12-min-above-max 2 'parameters.theta0 has min 200 > max 100' \
		"$S" scale minmax.json --over p=1:8 --set n=0.5
	expect 12-asymmetric-covariance 2 'a covariance is symmetric' \
		"$S" predict asym.json $at -q
	expect 12-correlation-above-1 2 'covariance[1][0] is 100: a correlation of 1.905 between theta1 and theta0, outside [-1, 1]' \
		"$S" next corr.json --target p=64,n=0.5 --over p=1:32
	expect 12-null-covariance 2 'should be null exactly when the variance of theta1 or theta0 is' \
		"$S" predict nullcov.json $at -q
	expect 12-level-7 2 'prediction_interval.level is 7, but this version computes 95% intervals only' \
		"$S" predict level7.json $at -q
	expect 12-bootstrap-of-another-fit 2 "the 10 bootstrap replicates of theta0 are all 1, but the fit's value is 1.90013" \
		"$S" predict bootother.json $at -q
	expect 12-bootstrap-outside-bounds 2 'bootstrap.samples[3][1] is 2000, outside the bounds [0, 1000] of theta1' \
		"$S" predict bootbounds.json $at -q
	expect 12-bootstrap-count 2 'bootstrap.replicates is 12, but bootstrap.samples holds 10' \
		"$S" predict bootcount.json $at -q
	expect 12-bootstrap-names 2 "bootstrap.parameters names a where the fit's constant 1 is theta0" \
		"$S" predict bootnames.json $at -q
	expect 12-bootstrap-range-warning 0 'theta0 is 1.90013, outside the range [1, 1.9] of its 10 bootstrap replicates' \
		"$S" predict bootoutside.json $at -q
fi

# ---- 13: exact fits (AICc -inf) share the Akaike weight, explained -----
printf 'name: bym\ndata:\n  file: exact.csv\n  output: t\ninputs:\n  p: p\nparameters:\n  a: {min: 0, max: 100}\n  c: {min: 0, max: 100}\ntime: a + c / p\n' >exact.yaml
printf 'p,t\n1,10\n2,6\n4,4\n8,3\n' >exact.csv
expect 13-compare-exact 0 'they share the Akaike weight equally' \
	"$S" compare exact.yaml exact.yaml -q
lacks 13-compare-exact-no-nan nan
expect 13-compare-exact-json 0 '"akaike_weight": 0.5' \
	"$S" compare exact.yaml exact.yaml -q --json

# ---- 15: clear errors ---------------------------------------------------
printf 'job,p,t\na,1,11\na,2,6\na,4,3.5\nb,1,12\nb,2,7\nb,4,4.5\n' >jobs.csv
printf 'name: bym\ndata:\n  file: jobs.csv\n  output: t\ninputs:\n  p: p\nparameters:\n  a: {min: 0, max: 100}\n  c: {min: 0, max: 100}\ntime: a + c / p\n' >jobs.yaml
"$S" fit jobs.yaml --by job -q -o fleet.json >/dev/null 2>&1
expect 15-next-groups-file 2 'next answers for one; choose it with --group KEY (e.g. --group job=a)' \
	"$S" next fleet.json --target p=64 --over p=1:32
expect 15-next-group 0 'next run for bym' \
	"$S" next fleet.json --target p=64 --over p=1:32 --group job=b
expect 15-input-twice 2 "'p=q' and 'p=p' both give input p" \
	"$S" check jobs.yaml --input p=q --input p=p
expect 15-where-twice 2 "--where given twice ('p > 1', then 'p > 2')" \
	"$S" check jobs.yaml --where 'p > 1' --where 'p > 2'
expect 15-by-twice 2 "--by given twice ('job', then 'p')" \
	"$S" fit jobs.yaml --by job --by p -q
sum=$(printf 'p'; i=1; while [ $i -lt 3000 ]; do printf '+p'; i=$((i + 1)); done)
expect 15-flat-sum 2 'a sum of more than 2048 terms in a row, the most an expression holds' \
	"$S" check jobs.yaml --input "p=$sum"
lacks 15-flat-sum-not-nested 'deeply nested'
expect 15-output-dash 2 '-o -: standard output is not a file to write here' \
	"$S" fit jobs.yaml -q -o -
if [ -e ./- ]; then
	echo "FAIL: 15-output-dash-no-file: a file named '-' was made"
	failed=$((failed + 1))
	rm -f ./-
else
	echo "ok: 15-output-dash-no-file"
	passed=$((passed + 1))
fi

echo "commands: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
