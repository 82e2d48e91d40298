#!/bin/sh
# predict.sh - drive `scalefit predict`, `scale` and `plot` end to end:
# numbers on a hand-made fit, usage errors (exit 2, named text, "did you
# mean"), FIT.json errors at FILE:LINE:COL, charts that are well-formed
# SVG, and no half-written output file on any error.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Prints one line per
# check and a closing "N passed, N failed" line; exits non-zero on failure.

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
data="$srcdir/tests/data/fit"
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-predict.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

. "$srcdir/tests/verdict.sh"

# expect STATUS PATTERN DESCRIPTION -- ARGS...: run scalefit with ARGS and
# check its exit status and that stdout+stderr match the grep PATTERN.
expect() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$SCALEFIT" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, expected $want"
		sed 's/^/  | /' "$work/out" "$work/err"
	elif ! cat "$work/out" "$work/err" | grep -q -e "$pattern"; then
		fail "$what: output lacks '$pattern'"
		sed 's/^/  | /' "$work/out" "$work/err"
	else
		pass "$what"
	fi
}

# stdout_empty DESCRIPTION: the last run printed nothing on stdout.
stdout_empty() {
	if [ -s "$work/out" ]; then
		fail "$1: stdout not empty"
	else
		pass "$1"
	fi
}

# no_temporaries DESCRIPTION: no temporary file was left in $work.
no_temporaries() {
	if ls "$work" | grep -q '\.tmp\.'; then
		fail "$1: a temporary file was left behind"
	else
		pass "$1"
	fi
}

simple="$data/simple.json"

# ---- predict -----------------------------------------------------------
expect 0 '^ *8 *1 *17 ' "predict at the optimum" -- predict "$simple" --at p=8,n=1
expect 0 '\[16.305, 17.695\]' "delta-method band" -- predict "$simple" --at p=8,n=1
expect 0 '"time": 17,' "predict --json" -- predict "$simple" --at p=8,n=1 --json
expect 0 '"compute": 8' "predict --json has the terms" -- predict "$simple" --at p=8,n=1 --json
expect 0 'outside the fitted range (p = 32 > 16)' "extrapolation warning" \
	-- predict "$simple" --at p=32,n=1
expect 0 '"extrapolated": true' "extrapolation in JSON" \
	-- predict "$simple" --at p=32,n=1 --json
expect 0 '^ *32 *1 *35 ' "two --at points" -- predict "$simple" --at p=8,n=1 --at p=32,n=1
expect 0 '^ *32 *1 *35 ' "a --grid" -- predict "$simple" --grid "$data/grid.csv"
expect 0 '\[16.55, 18.45\]' "bootstrap band" -- predict "$data/bootstrap.json" --at p=8,n=1
expect 0 '^ *4 *32 *1.28e+06 *cnn *522 ' "text inputs and no covariance" \
	-- predict "$data/ddp.json" --at p=4,b=32,n=1.28e6,model=cnn
expect 0 '^Usage: scalefit predict' "predict --help" -- predict --help

expect 2 "'abc' is not a number (for p)" "bad number in --at" \
	-- predict "$simple" --at p=abc,n=1
stdout_empty "a bad --at writes only stderr"
expect 2 "unknown input 'pp'; did you mean 'p'?" "unknown input in --at" \
	-- predict "$simple" --at pp=8,n=1
expect 2 "no value for input n" "missing input in --at" -- predict "$simple" --at p=8
expect 2 "'p8' is not NAME=VALUE" "--at without =" -- predict "$simple" --at p8
expect 2 "p is given twice" "an input twice" -- predict "$simple" --at p=8,p=9,n=1
expect 2 "did you mean 'cnn'" "unknown text value" \
	-- predict "$data/ddp.json" --at p=4,b=32,n=1,model=cnm
expect 2 "say where to predict" "no points" -- predict "$simple"
expect 2 "predict needs a fit file" "no fit file" -- predict --at p=1,n=1
expect 2 "unknown option '--att'; did you mean '--at'" "misspelt option" \
	-- predict "$simple" --att p=1
expect 2 "no/such.json: cannot open" "missing fit file" -- predict no/such.json --at p=1

printf 'p,N\n8,1\n' >"$work/grid.csv"
expect 2 "grid.csv:1: no column 'n' for input n, nor 'samples' (n = samples in the fit's inputs); did you mean 'N'?" \
	"grid without a column" -- predict "$simple" --grid "$work/grid.csv"

# Issue 29, item 3: a grid of the data's own columns is read through the
# fit's inputs (p = workers, n = samples); with the output (epoch_s) each
# row gets its error and the rows their scores, as validate's.
printf 'workers,samples,epoch_s,host\n8,1,18,a\n32,1,30,b\n4,1,,c\n' >"$work/data.csv"
expect 0 '^ *8 *1 *17 *18 *-5.56% ' "a grid of the data's columns, with its error" \
	-- predict "$simple" --grid "$work/data.csv" -q
expect 0 '^ *4 *1 *21 *- *- ' "an empty output cell: no error" \
	-- predict "$simple" --grid "$work/data.csv" -q
expect 0 "^against the grid's epoch_s: 2 rows, MAPE 11.1%, max error 16.7%, bias +5.56%$" \
	"the grid's scores" -- predict "$simple" --grid "$work/data.csv" -q
expect 0 '"error_pct": -5.55555' "its JSON: each point's error" \
	-- predict "$simple" --grid "$work/data.csv" -q --json
expect 0 '"observed": 18,' "and observed value" \
	-- predict "$simple" --grid "$work/data.csv" -q --json
expect 0 '"mape": 11.1111' "and the scores" \
	-- predict "$simple" --grid "$work/data.csv" -q --json
expect 0 '"coverage95": null' "no interval: no coverage" \
	-- predict "$simple" --grid "$work/data.csv" -q --json
printf 'p,n,w,epoch_s\n8,1,16,18\n' >"$work/both.csv"
expect 0 '^ *16 *1 *21 *18 *+16.67% ' "--input overrides the column of the input's name" \
	-- predict "$simple" --grid "$work/both.csv" --input p=w -q
expect 0 '^ *4 *1 *21 *18 ' "--input takes an expression" \
	-- predict "$simple" --grid "$work/both.csv" --input 'p=w / 4' -q
if "$SCALEFIT" predict "$simple" --grid "$data/grid.csv" -q | grep -q 'observed\|against'; then
	fail "a grid of inputs without the output shows no scores"
else
	pass "a grid of inputs without the output shows no scores"
fi
expect 2 "data.csv:1: no column 'wokers' (p = wokers in --input); did you mean 'workers'?" \
	"--input naming a missing column" -- predict "$simple" --grid "$work/data.csv" --input p=wokers
expect 2 "data.csv:1: input p (p = workers \* in --input): " "--input's bad expression" \
	-- predict "$simple" --grid "$work/data.csv" --input 'p=workers *'
expect 2 "--input 'q=workers': unknown input 'q'; did you mean 'p'?" "--input of an unknown input" \
	-- predict "$simple" --grid "$work/data.csv" --input q=workers
expect 2 "--input p is given twice" "--input twice" \
	-- predict "$simple" --grid "$work/data.csv" --input p=workers --input p=samples
expect 2 "'p' is not NAME=EXPR" "--input without =" \
	-- predict "$simple" --grid "$work/data.csv" --input p
expect 2 "'p=  ' is not NAME=EXPR" "--input with a blank expression" \
	-- predict "$simple" --grid "$work/data.csv" --input 'p=  '
expect 2 "'=workers' is not NAME=EXPR" "--input without a name" \
	-- predict "$simple" --grid "$work/data.csv" --input '=workers'
expect 0 '^ *4 *1 *21 *18 ' "--input's name with blanks around it, as fit reads it" \
	-- predict "$simple" --grid "$work/both.csv" --input ' p = w / 4' -q
expect 2 "--input maps the columns of a --grid" "--input without --grid" \
	-- predict "$simple" --at p=1,n=1 --input p=workers
expect 2 "data.csv:3: input p (p = samples / (workers - 32) in --input) is infinite on this row" \
	"an input that is not a number at a row" \
	-- predict "$simple" --grid "$work/data.csv" --input 'p=samples / (workers - 32)'
expect 2 "data.csv:2:8: column 'host' should hold numbers for input p" "a text column for a numeric input" \
	-- predict "$simple" --grid "$work/data.csv" --input p=host

# Issue 29, item 10: --csv prints the table as CSV (RFC 4180 quoting).
expect 0 '^p,n,time,observed,error_pct,ci95_lo,ci95_hi,serial,compute,comm,io,extrapolated$' \
	"predict --csv: a header line" -- predict "$simple" --grid "$work/data.csv" --csv -q
expect 0 '^8,1,17,18,-5.5555555555555554,16.304991489132892,17.695008510867108,1,8,8,0,false$' \
	"and a line a point" -- predict "$simple" --grid "$work/data.csv" --csv -q
expect 0 '^4,1,21,,,' "an empty cell: an empty field" -- predict "$simple" --grid "$work/data.csv" --csv -q
sed 's/"levels": \["cnn", "rnn"\]/"levels": ["c,nn", "r\\"nn"]/' "$data/ddp.json" >"$work/quoted.json"
printf 'p,b,n,model\n4,32,1.28e6,"c,nn"\n4,32,1.28e6,"r""nn"\n' >"$work/quoted.csv"
expect 0 '^4,32,1280000,"c,nn",522,' "a comma: the field quoted" \
	-- predict "$work/quoted.json" --grid "$work/quoted.csv" --csv
expect 0 '^4,32,1280000,"r""nn",522,' "a double quote: doubled, the field quoted" \
	-- predict "$work/quoted.json" --grid "$work/quoted.csv" --csv
expect 2 "--json and --csv: choose one" "predict --json --csv" \
	-- predict "$simple" --at p=8,n=1 --json --csv
expect 0 '^p,time,ci95_lo,ci95_hi,speedup,efficiency,cost,serial,compute,comm,io,extrapolated$' \
	"scale --csv: a header line" -- scale "$simple" --over p=1:16 --cost 3 --csv -q
expect 0 '^8,17,16.304991489132892,17.695008510867108,3.8823529411764706,0.48529411764705882,0.11333333333333333,1,8,8,0,false$' \
	"and a line a point" -- scale "$simple" --over p=1:16 --cost 3 --csv -q
expect 0 '^p,simple,simple-bootstrap,extrapolated$' "scale --csv of several fits: a time column each" \
	-- scale "$simple" "$data/bootstrap.json" --over p=1:16 --csv -q
expect 2 "--json and --csv: choose one" "scale --json --csv" \
	-- scale "$simple" --over p=1:16 --json --csv

# FIT.json errors name FILE:LINE:COL.
printf '{\n  "model": {\n    "time": "a",,\n' >"$work/syntax.json"
expect 2 "syntax.json:3:17: not valid JSON" "JSON syntax error at line:col" \
	-- predict "$work/syntax.json" --at p=1
printf '{\n  "model": {"terms": {}, "inputs": {}},\n  "parameters": {}\n}\n' \
	>"$work/nokey.json"
expect 2 "nokey.json:2:12: model has no key 'time'" "missing key" \
	-- predict "$work/nokey.json" --at p=1
printf '{"model": {"time": "a * x", "terms": {},\n "inputs": {"p": "c"}},\n "parameters": {"a": {"value": 1}}}\n' \
	>"$work/name.json"
expect 2 "name.json:1:25: in model.time: unknown name 'x'" "unknown name in the formula" \
	-- predict "$work/name.json" --at p=1

# ---- scale ---------------------------------------------------------------
expect 0 'up to p = 7$' "efficiency >= 50% up to p = 7" -- scale "$simple" --over p=1:64
expect 0 'fastest  *p = 8: 17 ' "fastest p = 8" -- scale "$simple" --over p=1:64
expect 0 'overtakes compute (compute) at p = 9$' "crossover at p = 9" \
	-- scale "$simple" --over p=1:64
expect 0 'cheapest  *p = 1: cost 0.066 ' "cheapest p with --cost" \
	-- scale "$simple" --over p=1:64 --cost 3.6
expect 0 'cost 3.96 ' "--time-unit min" \
	-- scale "$simple" --over p=1:64 --cost 3.6 --time-unit min
expect 0 '^ *8 *17 .* 3.882 *48.5%' "table row at p = 8" -- scale "$simple" --over p=1:64
expect 0 '"efficient_up_to": 7' "scale --json" -- scale "$simple" --over p=1:64 --json
expect 0 'compute (compute) overtakes communication (comm) at n = 1$' \
	"crossover along n, between grid points" -- scale "$simple" --over n=0.1:10 --set p=8
expect 0 '^ *3 ' "an explicit list of points" -- scale "$simple" --over p=1,3,9
expect 0 'rest' "the rest of the time" \
	-- scale "$data/ddp.json" --over p=1:64 --set b=32,n=1.28e6,model=rnn

expect 2 "whole numbers >= 1" "fractional worker range" -- scale "$simple" --over p=1.5:8
expect 2 "p counts workers, so its values need to be whole numbers >= 1, not 2.5" \
	"fractional worker count inside a list" -- scale "$simple" --over p=1,2.5,4
stdout_empty "a fractional worker count in a list prints no table"
expect 2 "unknown input 'q'; did you mean 'p'?" "unknown --over input" \
	-- scale "$simple" --over q=1:8
expect 2 "leave it out of --set" "swept input in --set" \
	-- scale "$simple" --over p=1:8 --set p=2
expect 2 "no value for input b" "missing --set" -- scale "$data/ddp.json" --over p=1:8
expect 2 "say what to sweep" "no --over" -- scale "$simple"
expect 2 "--cost needs a price per worker-hour > 0, not '-1'" "bad --cost" \
	-- scale "$simple" --over p=1:8 --cost -1
expect 2 "did you mean 'min'" "bad --time-unit" \
	-- scale "$simple" --over p=1:8 --cost 1 --time-unit minn

# ---- charts ----------------------------------------------------------------
expect 0 'fastest' "scale --plot" -- scale "$simple" --over p=1:64 --plot "$work/chart.svg"
if head -c 5 "$work/chart.svg" | grep -q '<?xml' && tail -n 1 "$work/chart.svg" | grep -q '</svg>'; then
	pass "the chart is a whole SVG file"
else
	fail "the chart is not a whole SVG file"
fi
if command -v xmllint >/dev/null 2>&1; then
	if xmllint --noout "$work/chart.svg" 2>"$work/err"; then
		pass "xmllint: the chart is well-formed"
	else
		fail "xmllint: the chart is not well-formed"
		sed 's/^/  | /' "$work/err"
	fi
	"$SCALEFIT" scale "$data/ddp.json" --over p=1:64 --set b=32,n=1.28e6,model=rnn \
		--panel shares --plot "$work/shares.svg" >/dev/null 2>&1
	if xmllint --noout "$work/shares.svg" 2>"$work/err"; then
		pass "xmllint: the shares chart is well-formed"
	else
		fail "xmllint: the shares chart is not well-formed"
	fi
else
	echo "(xmllint not installed: well-formedness checked by test_predict only)"
fi
grep -q 'measured' "$work/chart.svg" && pass "the chart shows the measured points" ||
	fail "the chart lacks the measured points"

# A fit of this version carries its error model: predict, scale and the
# chart show a new run's 95% interval next to the mean's band.
"$SCALEFIT" fit "$srcdir/expressions/ddp-generic.yaml" -q -o "$work/ddp-now.json" >/dev/null 2>&1
expect 0 '95% new run' "predict shows a new run's interval" \
	-- predict "$work/ddp-now.json" --at p=8,b=16,n=256000
expect 0 '"interval95": \[' "predict's JSON has interval95" \
	-- predict "$work/ddp-now.json" --at p=8,b=16,n=256000 --json
expect 0 'fastest .*(a new run: 95% in ' "scale's fastest answer gives a new run's interval" \
	-- scale "$work/ddp-now.json" --over p=1:16 --set b=16,n=256000
expect 0 '"fastest_interval95": \[' "scale's JSON has it too" \
	-- scale "$work/ddp-now.json" --over p=1:16 --set b=16,n=256000 --json
"$SCALEFIT" scale "$work/ddp-now.json" --over p=1:64 --set b=16,n=256000 \
	--plot "$work/interval.svg" >/dev/null 2>&1
grep -q 'class="interval"' "$work/interval.svg" &&
	grep -q '>95% interval of a new run<' "$work/interval.svg" &&
	pass "the chart shades a new run's interval" ||
	fail "the chart lacks a new run's interval"
grep -q 'class="beyond"' "$work/interval.svg" &&
	pass "the chart greys the region beyond the fitted range" ||
	fail "the chart does not grey the region beyond the fitted range"
expect 0 'no interval for a new run' "an older fit file has none, and says so" \
	-- predict "$data/ddp.json" --at p=8,b=16,n=256000,model=rnn
# Measurements the fit did not see, drawn as rings (scale --data).
printf 'p,n,epoch_s\n32,1,15.1\n64,1,16.4\n32,2,30\n' >"$work/later.csv"
"$SCALEFIT" scale "$simple" --over p=1:64 --plot "$work/held.svg" --data "$work/later.csv" >/dev/null 2>&1
[ "$(grep -c 'class="held"' "$work/held.svg")" -eq 2 ] &&
	grep -q '>measured, not fitted<' "$work/held.svg" &&
	pass "scale --data draws the two runs on the curve (n = 1) as rings" ||
	fail "scale --data did not draw the runs that were not fitted"
expect 2 "goes with --plot" "--data without --plot" \
	-- scale "$simple" --over p=1:64 --data "$work/later.csv"
printf 'p,n,time\n32,1,15.1\n' >"$work/no-output.csv"
expect 2 "no column 'epoch_s'" "--data without the output's column" \
	-- scale "$simple" --over p=1:64 --plot "$work/held2.svg" --data "$work/no-output.csv"

# ---- model averaging -------------------------------------------------------
for m in generic amdahl; do
	"$SCALEFIT" fit "$srcdir/expressions/ddp-candidates.yaml" --model $m -q \
		-o "$work/cand-$m.json" >/dev/null 2>&1
done
expect 0 'averaged over 2 fits (weighted by extrapolation evidence): generic 0\.9[0-9]*, amdahl 0\.0' \
	"predict over two fits weighs them by their extrapolation evidence" \
	-- predict "$work/cand-generic.json" "$work/cand-amdahl.json" --at p=8,b=16,n=256000 -q
expect 0 'averaged over 2 fits (Akaike weights): generic 1.000, amdahl 0.000' \
	"predict --weights aicc weighs them by AICc" \
	-- predict "$work/cand-generic.json" "$work/cand-amdahl.json" --weights aicc --at p=8,b=16,n=256000 -q
# A fit of as many constants as rows has no error model: averaging says so.
printf 'p,time\n1,10.5\n2,7\n4,6\n' >"$work/three.csv"
printf 'data: {file: three.csv, output: time}\ninputs: {p: p}\nmodels:\n  - {name: exact, parameters: {a: {min: 0, max: 100}, b: {min: 0, max: 100}, c: {min: 0, max: 100}}, time: a + b / p + c * p}\n  - {name: amdahl, parameters: {a: {min: 0, max: 100}, b: {min: 0, max: 100}}, time: a + b / p}\n' >"$work/three.yaml"
for m in exact amdahl; do
	"$SCALEFIT" fit "$work/three.yaml" --model $m -q -o "$work/three-$m.json" >/dev/null 2>&1
done
expect 2 "three-exact.json cannot be averaged: its 3 rows leave no residual degree of freedom for its 3 constants" \
	"predict refuses to average a fit without an error model, saying why" \
	-- predict "$work/three-exact.json" "$work/three-amdahl.json" --at p=8
# The same fit twice, equal weights: the mixture is the fit's own interval.
# averaged_interval ARGS...: the first point's interval of predict ARGS.
averaged_interval() {
	"$SCALEFIT" predict "$@" --at p=8,b=16,n=256000 --json -q | tr -d ' \n' |
		sed 's/.*"points":\[{"inputs":{[^}]*},"time":[^,]*,"interval95":\(\[[^]]*\]\).*/\1/'
}
# same_interval DESCRIPTION A B: the intervals A and B agree to 1e-9.
same_interval() {
	if [ -n "$2" ] && python3 -c "import sys; a=eval(sys.argv[1]); b=eval(sys.argv[2]); sys.exit(0 if all(abs(x-y) <= 1e-9*abs(x) for x,y in zip(a,b)) else 1)" "$2" "$3" 2>/dev/null; then
		pass "$1"
	elif ! command -v python3 >/dev/null 2>&1; then
		echo "(python3 not installed: $1 is checked by eye only)"
	else
		fail "$1: $2 vs $3"
	fi
}
one=$("$SCALEFIT" predict "$work/cand-generic.json" --at p=8,b=16,n=256000 --json -q |
	tr -d ' \n' | sed 's/.*"interval95":\(\[[^]]*\]\).*/\1/')
same_interval "a fit averaged with itself keeps its interval" "$one" \
	"$(averaged_interval "$work/cand-generic.json" "$work/cand-generic.json" --weights equal)"
# The same fit as if of one row fewer: other rows.
sed 's/"rows": 224/"rows": 223/' "$work/ddp-now.json" >"$work/ddp-p3.json"
expect 2 'were not fitted to the same rows' "fits of other rows are not averaged" \
	-- predict "$work/cand-generic.json" "$work/ddp-p3.json" --at p=8,b=16,n=256000
expect 2 'weights goes with two or more fit files' "--weights with one fit" \
	-- predict "$work/cand-generic.json" --weights equal --at p=8,b=16,n=256000
# Weights given, one a file: all on the first, the mixture is its interval.
same_interval "weights given all on one fit keep its interval" "$one" \
	"$(averaged_interval "$work/cand-generic.json" "$work/cand-amdahl.json" --weights 1,0)"
expect 0 'averaged over 2 fits (the weights given): generic 0.750, amdahl 0.250' \
	"predict --weights W1,W2 weighs the fits as given, normalised" \
	-- predict "$work/cand-generic.json" "$work/cand-amdahl.json" --weights 3,1 --at p=8,b=16,n=256000 -q
expect 2 'weights gives 3 weights for 2 fit files: one a file, in their order' \
	"--weights with more weights than fit files" \
	-- predict "$work/cand-generic.json" "$work/cand-amdahl.json" --weights 1,1,1 --at p=8,b=16,n=256000
for w in -1,2 0,0 1,,2 1,x 1, nan,1 inf,1; do
	expect 2 "weights is extrapolation, aicc, equal or a weight per fit file (W1,W2,...: at most 64 numbers >= 0, not all 0), not '$w'" \
		"--weights $w is refused" \
		-- predict "$work/cand-generic.json" "$work/cand-amdahl.json" --weights "$w" --at p=8,b=16,n=256000
done

# What makes the interval wide beyond the range, in text and JSON.
expect 0 "point 1: model error" "predict names the interval's largest part beyond the range" \
	-- predict "$work/ddp-now.json" --at p=64,b=16,n=256000
expect 0 '"interval_parts": {' "predict --json gives each point's interval parts" \
	-- predict "$work/ddp-now.json" --at p=64,b=16,n=256000 --json
# Formulas that part ways fast (fit.prior.disagreement, as discover
# writes it) are the largest part of a single fit's interval far out; a
# tampered disagreement in the fit file is refused at its place.
top=$(cd "$srcdir" && pwd)
# generic_with PRIOR OUT: the quick start's model with fit.prior PRIOR.
generic_with() {
	sed -e "s#file: ../datasets/#file: $top/datasets/#" \
		-e "s/^  loss: relative\$/  loss: relative\n  prior: {$1}/" \
		"$srcdir/expressions/ddp-generic.yaml" >"$2"
}
generic_with "disagreement: 1" "$work/ddp-apart.yaml"
"$SCALEFIT" fit "$work/ddp-apart.yaml" -q -o "$work/ddp-apart.json" >/dev/null 2>&1
expect 0 "point 1: formula disagreement" "predict names the formulas' disagreement a fit's model file gave" \
	-- predict "$work/ddp-apart.json" --at p=64,b=16,n=256000
sed 's/"disagreement": 1,/"disagreement": -1,/' "$work/ddp-apart.json" >"$work/ddp-bad.json"
expect 2 "prediction_interval.prior.disagreement should be a finite number >= 0, not -1" \
	"a negative disagreement in a fit file" \
	-- predict "$work/ddp-bad.json" --at p=64,b=16,n=256000
# in_p FROM TO IN OUT: fit file IN with the first match of the awk regex
# FROM in model_error's entry of input p replaced by TO, into OUT.
in_p() {
	awk -v from="$1" -v to="$2" \
		'/"input": "p"/ { p = 1 } p && match($0, from) { sub(from, to); p = 0 } { print }' \
		"$3" >"$4"
}
# hi_of FILE AT: the upper end of the new run's interval predict gives
# at AT (p = 64 or 3).
hi_of() { "$SCALEFIT" predict "$1" --at "$2" -q | awk '$1 == "64" || $1 == "3" { gsub(/[],]/, "", $6); print $6 }'; }
# exceeds B F A: B > F x A, A not empty.
exceeds() { awk -v b="$1" -v f="$2" -v a="$3" 'BEGIN { exit !(a != "" && b > f * a) }'; }

# Above the range a new run's noise is the top level's, read back from
# the fit file (model_error[].noise_above): a large one there widens the
# interval above the range, where predict names the noise, and leaves the
# interval inside it alone; a negative one is refused at its place.
in_p '"noise_above": [^,]*' '"noise_above": 0.9' "$work/ddp-now.json" "$work/ddp-loud.json"
expect 0 "point 1: noise" "predict names the top level's noise above the range" \
	-- predict "$work/ddp-loud.json" --at p=8,b=16,n=256000
"$SCALEFIT" predict "$work/ddp-now.json" --at p=3,b=16,n=256000 -q >"$work/inside-now" 2>&1
"$SCALEFIT" predict "$work/ddp-loud.json" --at p=3,b=16,n=256000 -q 2>&1 |
	grep -v 'above the range' >"$work/inside-loud"
grep -v 'above the range' "$work/inside-now" | cmp -s - "$work/inside-loud" &&
	grep -q '0.9' "$work/ddp-loud.json"
judge $? "the top level's noise leaves the interval inside the range alone"
sed 's/"noise_above": [^,]*,/"noise_above": -1,/' "$work/ddp-now.json" >"$work/ddp-bad.json"
expect 2 "prediction_interval.model_error\[0\].noise_above should be a finite number >= 0, not -1" \
	"a negative noise above the range in a fit file" \
	-- predict "$work/ddp-bad.json" --at p=8,b=16,n=256000
# A chain whose line climbs toward its top (model_error[].trend, with
# trend_sd and trend_cov, read back from the fit file) carries its slope
# beyond the top: the interval a doubling and more above the range reaches
# higher, inside it nothing moves, and a falling one lower; the three keys
# come together, a spread that is not positive, a covariance no variance
# allows and a slope beside an unknown error are refused at their place.
in_p '"evidence": ' '"trend": 0.25, "trend_sd": 0.05, "trend_cov": 0, "evidence": ' \
	"$work/ddp-now.json" "$work/ddp-climb.json"
in_p '"evidence": ' '"trend": -0.1, "trend_sd": 0.05, "trend_cov": 0, "evidence": ' \
	"$work/ddp-now.json" "$work/ddp-fall.json"
expect 0 "along p (rising 25 points a doubling)" "predict names a model error whose line climbs" \
	-- predict "$work/ddp-climb.json" --at p=64,b=16,n=256000
now64=$(hi_of "$work/ddp-now.json" p=64,b=16,n=256000)
now3=$(hi_of "$work/ddp-now.json" p=3,b=16,n=256000)
exceeds "$(hi_of "$work/ddp-climb.json" p=64,b=16,n=256000)" 1.5 "$now64" &&
	[ -n "$now3" ] && [ "$now3" = "$(hi_of "$work/ddp-climb.json" p=3,b=16,n=256000)" ]
judge $? "a climbing model error lifts the interval above the range, not inside it"
exceeds "$now64" 1 "$(hi_of "$work/ddp-fall.json" p=64,b=16,n=256000)"
judge $? "a falling model error lowers the interval above the range"
# refused EDIT PATTERN DESCRIPTION: the climbing fit file edited by the
# sed expression EDIT is refused with PATTERN.
refused() {
	sed "$1" "$work/ddp-climb.json" >"$work/ddp-bad.json"
	expect 2 "$2" "$3" -- predict "$work/ddp-bad.json" --at p=8,b=16,n=256000
}
refused 's/"trend_cov": 0, //' \
	"prediction_interval.model_error\[0\] should have all of trend, trend_sd and trend_cov or none of them" \
	"a climb without its covariance in a fit file"
refused 's/"trend_sd": 0.05,/"trend_sd": -1,/' \
	"prediction_interval.model_error\[0\].trend_sd should be a finite number >= 0, not -1" \
	"a negative spread of the climb in a fit file"
refused 's/"trend_sd": 0.05,/"trend_sd": 0,/' \
	"prediction_interval.model_error\[0\].trend_sd should be positive with a finite square, not 0" \
	"a climb without spread in a fit file"
refused 's/"trend_cov": 0,/"trend_cov": 5,/' \
	"prediction_interval.model_error\[0\].trend_cov should be at most trend_sd times growth in size" \
	"a climb's covariance no variance allows in a fit file"
in_p '"growth": [^,]*' '"growth": null' "$work/ddp-climb.json" "$work/ddp-bad.json"
expect 2 "prediction_interval.model_error\[0\] has a trend beside a null growth" \
	"a climb beside an unknown model error in a fit file" \
	-- predict "$work/ddp-bad.json" --at p=8,b=16,n=256000
# An input the model file calls a hardware speed (fit.prior.hardware) has
# the prior's hardware scale, read back from the fit file: beyond its range
# the interval is wider than the same fit's without it, inside the range
# nothing moves; a name that is no input, or one without its scale, is
# refused at its place.
generic_with "hardware: b" "$work/ddp-hw.yaml"
"$SCALEFIT" fit "$work/ddp-hw.yaml" -q -o "$work/ddp-hw.json" >/dev/null 2>&1
expect 0 '"hardware": "b"' "a fit file names its hardware speed" \
	-- fit "$work/ddp-hw.yaml" --json -q
expect 0 "(a hardware speed, fit.prior.hardware" "the fit report says which input is a hardware speed" \
	-- fit "$work/ddp-hw.yaml"
hw_now=$("$SCALEFIT" predict "$work/ddp-now.json" --at p=3,b=256,n=256000 -q | awk '$1 == "3" { gsub(/[],]/, "", $6); print $6 }')
hw_wide=$("$SCALEFIT" predict "$work/ddp-hw.json" --at p=3,b=256,n=256000 -q | awk '$1 == "3" { gsub(/[],]/, "", $6); print $6 }')
exceeds "$hw_wide" 1.2 "$hw_now" && [ -n "$now3" ] &&
	[ "$now3" = "$(hi_of "$work/ddp-hw.json" p=3,b=16,n=256000)" ]
judge $? "a hardware speed widens the interval beyond its range, not inside it"
# below its range the interval is the prior's alone, read from the fit
# file's hardware_scale_at_noise (above it model_error already says)
lo_now=$("$SCALEFIT" predict "$work/ddp-now.json" --at p=3,b=1,n=256000 -q | awk '$1 == "3" { gsub(/[],[]/, "", $5); print $5 }')
lo_wide=$("$SCALEFIT" predict "$work/ddp-hw.json" --at p=3,b=1,n=256000 -q | awk '$1 == "3" { gsub(/[],[]/, "", $5); print $5 }')
exceeds "$lo_now" 1.2 "$lo_wide"
judge $? "below a hardware speed's range the interval is its prior's, read back"
# a formulas' disagreement (along the workers) is none of the hardware
# speed's error: below b's range alone, the model error is the largest part
generic_with "hardware: b, disagreement: 1" "$work/ddp-hw-apart.yaml"
"$SCALEFIT" fit "$work/ddp-hw-apart.yaml" -q -o "$work/ddp-hw-apart.json" >/dev/null 2>&1
expect 0 "point 1: model error" "a formulas' disagreement takes no share of a hardware speed's error" \
	-- predict "$work/ddp-hw-apart.json" --at p=3,b=1,n=256000
# a text input is no speed: refused in the model file and the fit file
printf 'p,cat,y\n1,x,1\n2,y,2.1\n4,x,3.9\n8,y,8.2\n3,x,3.1\n' >"$work/hwc.csv"
printf 'name: hwc\ndata: {file: hwc.csv, output: y}\ninputs: {p: p, c: cat}\nparameters: {a: {min: 0, max: 10}}\ntime: a * p\nfit: {prior: {hardware: c}}\n' >"$work/hwc.yaml"
expect 2 "hwc.yaml:6:25: fit.prior.hardware 'c' is a text input" \
	"a text input named as a hardware speed in a model file" \
	-- fit "$work/hwc.yaml"
# and so is an input past the first 16, which share one model error
awk 'BEGIN { for (i = 0; i < 17; i++) printf "c%d,", i; print "y";
	for (r = 1; r <= 6; r++) { for (i = 0; i < 17; i++) printf "%d,", r + i; print r } }' \
	>"$work/h17.csv"
awk 'BEGIN { printf "name: h17\ndata: {file: h17.csv, output: y}\ninputs: {";
	for (i = 0; i < 17; i++) printf "%sx%d: c%d", i ? ", " : "", i, i;
	print "}\nparameters: {a: {min: 0, max: 10}}\ntime: a * x0\nfit: {prior: {hardware: x16}}" }' \
	>"$work/h17.yaml"
expect 2 "h17.yaml:6:25: fit.prior.hardware 'x16' is past the model's first 16 inputs" \
	"a 17th input named as a hardware speed" \
	-- fit "$work/h17.yaml"
sed 's/^fit: .*$/fit: {loss: relative}/' "$work/hwc.yaml" >"$work/hwc-plain.yaml"
"$SCALEFIT" fit "$work/hwc-plain.yaml" -q -o "$work/hwc.json" >/dev/null 2>&1
sed 's/"scale_at_noise": \([^,}]*\)/"scale_at_noise": \1, "hardware": "c", "hardware_scale_at_noise": 0.5/' \
	"$work/hwc.json" >"$work/hwc-bad.json"
expect 2 "prediction_interval.prior.hardware names 'c', a text input" \
	"a text input named as a hardware speed in a fit file" \
	-- predict "$work/hwc-bad.json" --at p=2,c=x
sed 's/"hardware": "b"/"hardware": "zz"/' "$work/ddp-hw.json" >"$work/ddp-bad.json"
expect 2 "prediction_interval.prior.hardware names 'zz', which is not an input of the fit" \
	"a hardware speed that is no input in a fit file" \
	-- predict "$work/ddp-bad.json" --at p=8,b=16,n=256000
sed 's/"hardware_scale_at_noise"/"hardware_noise"/' "$work/ddp-hw.json" >"$work/ddp-bad.json"
expect 2 "prediction_interval.prior has no key 'hardware_scale_at_noise'" \
	"a hardware speed without its scale in a fit file" \
	-- predict "$work/ddp-bad.json" --at p=8,b=16,n=256000

# ---- next ------------------------------------------------------------------
# A run that moves the range up along a line that climbs starts the error
# per doubling there at what the slope has reached: the target's interval
# after a run at 32 reaches higher than the same fit's without the slope.
after32() { "$SCALEFIT" next "$1" --target p=64,b=16,n=256000 --over p=1:32 -q | awk '$2 == "32" { gsub(/[],]/, "", $8); print $8 }'; }
exceeds "$(after32 "$work/ddp-climb.json")" 1.2 "$(after32 "$work/ddp-now.json")"
judge $? "next: a run up a climbing line leaves the target's interval higher"
expect 0 '^     1        32 ' "next ranks the run nearest the target first" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=1:32
expect 0 'plan within a budget of 20000' "next plans within a budget" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=1:32 --budget 20000
# Issue 29, item 7: a target inside the fitted range whose interval is
# nearly all noise is said to be; with --budget, runs that narrow it by
# less than 1% are not planned, and the plan says why it stopped.
expect 0 "^  nearly all noise: the scatter of runs is 98% of that interval's variance (+-9.2% alone), so no run will narrow it much$" \
	"next says when the target's interval is nearly all noise" \
	-- next "$work/ddp-now.json" --target p=2,b=8,n=388240 --over p=1:3
expect 0 '"noise_share": 0.98' "and its JSON" \
	-- next "$work/ddp-now.json" --target p=2,b=8,n=388240 --over p=1:3 --json
if "$SCALEFIT" next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=1:32 | grep -q "nearly all noise"; then
	fail "next far beyond the range: not noise"
else
	pass "next far beyond the range: not noise"
fi
expect 0 "plan within a budget of 1e+06, leaving out runs that narrow the interval by less than 1% of its half-width" \
	"next --budget shows its threshold" \
	-- next "$work/ddp-now.json" --target p=8,b=64,n=1280000 --over p=1:8 --budget 1e6
expect 0 "^    then stop: every run the rest of the budget (9.545e+05) affords narrows the interval by less than 1%$" \
	"and stops at runs that narrow less" \
	-- next "$work/ddp-now.json" --target p=8,b=64,n=1280000 --over p=1:8 --budget 1e6
expect 0 '"plan_stopped_small": true' "and its JSON says so" \
	-- next "$work/ddp-now.json" --target p=8,b=64,n=1280000 --over p=1:8 --budget 1e6 --json
expect 0 '"min_narrowing_pct": 1,' "with the threshold" \
	-- next "$work/ddp-now.json" --target p=8,b=64,n=1280000 --over p=1:8 --budget 1e6 --json
printf 'p,b,n\n8,16,256000\n4,16,256000\n' >"$work/cands.csv"
expect 0 '"candidates": \[' "next --candidates --json" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --candidates "$work/cands.csv" --json
expect 2 "say where the answer matters" "next without --target" \
	-- next "$work/ddp-now.json" --over p=1:32
expect 2 "one of them" "next with both --over and --candidates" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=1:32 --candidates "$work/cands.csv"
expect 2 "no value for input n" "next --target without every input" \
	-- next "$work/ddp-now.json" --target p=64,b=16 --over p=1:32
expect 2 "--budget needs a cost > 0" "next with a bad budget" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=1:32 --budget -3
expect 2 "whole and >= 1 for workers" "next --over fractional workers" \
	-- next "$work/ddp-now.json" --target p=64,b=16,n=256000 --over p=0.5:8
expect 2 "no prediction_interval (written by an older scalefit): refit it with this version" "next on an older fit file" \
	-- next "$data/ddp.json" --target p=64,b=16,n=256000,model=rnn --over p=1:32
# refused_edit SED NAME PATTERN WHAT: ddp-now.json edited by SED into
# NAME.json is refused by predict with PATTERN.
refused_edit() {
	sed "$1" "$work/ddp-now.json" >"$work/$2.json"
	expect 2 "$3" "$4" -- predict "$work/$2.json" --at p=8,b=16,n=256000
}
refused_edit 's/"errors": "multiplicative"/"errors": "sideways"/' bad-pi \
	'bad-pi.json:[0-9]*:[0-9]*: .*prediction_interval.errors should be "multiplicative" or "additive", not "sideways"' \
	"a bad error model is refused with its place"
refused_edit 's/"sigma": [0-9.e-]*/"sigma": -1/' bad-sigma \
	'prediction_interval.sigma should be a finite number >= 0, not -1' \
	"a negative noise is refused"
refused_edit 's/"growth": [0-9.e-]*/"growth": -0.5/' bad-growth \
	'bad-growth.json:[0-9]*:[0-9]*: .*prediction_interval.model_error\[0\].growth should be a finite number >= 0, not -0.5' \
	"a negative model error is refused with its place"
refused_edit '/"model_error"/,/"model_weight"/s/"input": "p"/"input": "gpus"/' bad-along \
	"model_error\[0\] names 'gpus', which is not an input of the fit" \
	"a model error along an unknown input is refused"
refused_edit 's/"model_error": \[/"model_error": 3, "was": [/' bad-list \
	"prediction_interval.model_error should be a list" \
	"a model error that is not a list is refused"
# A FIT.json before model_error (one model_growth for every input): its
# model error is unknown, and predict says so.
sed 's/"model_error"/"model_growth": 0.1, "was"/' "$work/ddp-now.json" >"$work/old-pi.json"
expect 0 "model error beyond the fitted range not estimated" \
	"an older error model is read with its model error unknown" \
	-- predict "$work/old-pi.json" --at p=8,b=16,n=256000

# An error leaves an existing chart as it was, and no temporary file.
echo "old chart" >"$work/keep.svg"
expect 2 "unknown input 'nn'" "error with --plot" \
	-- scale "$simple" --over p=1:64 --set nn=1 --plot "$work/keep.svg"
if [ "$(cat "$work/keep.svg")" = "old chart" ]; then
	pass "an error leaves the old chart untouched"
else
	fail "an error changed the old chart"
fi
no_temporaries "no temporary file after an error"
expect 2 "cannot create a file beside it" "unwritable chart path" \
	-- scale "$simple" --over p=1:64 --plot "$work/no/such/dir/chart.svg"
stdout_empty "an unwritable chart prints no table"
if [ -e "$work/fresh.svg" ]; then rm -f "$work/fresh.svg"; fi
expect 2 "whole numbers" "a usage error writes no chart" \
	-- scale "$simple" --over p=0.5:8 --plot "$work/fresh.svg"
if [ -e "$work/fresh.svg" ]; then
	fail "a usage error created the chart"
else
	pass "a usage error creates no chart"
fi

# ---- term shares only when the time is the sum of its terms ------------------
# Issue 16's product: shares printed 6084.9% for a step count.
cat >"$work/product.json" <<'EOF_JSON'
{"model": {"name": "product", "time": "t0 + steps * step_time",
  "terms": {"steps": "a / p", "step_time": "c * p^0.5"},
  "inputs": {"p": "workers"}, "output": "epoch_time_s"},
 "parameters": {"t0": {"value": 1}, "a": {"value": 100}, "c": {"value": 2}}}
EOF_JSON
expect 0 '^time is not the sum of its terms; shares not shown' "a product's terms: a note" \
	-- scale "$work/product.json" --over p=1:16 -q
expect 0 '^ *1 *201 .* 100 *2$' "a product's terms: their values, not shares" \
	-- scale "$work/product.json" --over p=1:16 -q
if grep -q '%  *[0-9.]*%$' "$work/out" || grep -q 'rest' "$work/out"; then
	fail "a product's terms still show shares"
else
	pass "a product's terms show no share and no rest"
fi
if grep -q 'crossover' "$work/out"; then
	fail "scale printed a crossover line without the kinds it needs"
else
	pass "no crossover line without compute and communication terms"
fi
expect 0 '"note": "time is not the sum of its terms; shares not shown"' "a product's terms: JSON note" \
	-- scale "$work/product.json" --over p=1:16 -q --json
expect 0 'fastest' "a product's chart" \
	-- scale "$work/product.json" --over p=1:16 -q --panel shares --plot "$work/product.svg"
grep -q '>time is not the sum of its terms; shares not shown<' "$work/product.svg" &&
	pass "the product's chart says why it shows no shares" ||
	fail "the product's chart lacks the note"

# Issue 13's absurd batch range: refused, not "fastest b = inf".
expect 2 "the fastest b over -1e+308 to 1e+308 is not a finite number" "scale --over b=-1e308:1e308" \
	-- scale "$data/ddp.json" --over b=-1e308:1e308 --set p=4,n=1.28e6,model=cnn

# ---- several fits: a column and a line each --------------------------------
expect 0 '^ *p *simple  *95% band  *simple-bootstrap  *95% band$' "scale with two fits: a column each, and its band" \
	-- scale "$simple" "$data/bootstrap.json" --over p=1:64 -q --plot "$work/two.svg"
expect 0 '^simple-bootstrap:' "scale with two fits: each one's answers" \
	-- scale "$simple" "$data/bootstrap.json" --over p=1:64 -q
[ "$(grep -c 'class="series"' "$work/two.svg")" -eq 2 ] &&
	pass "the chart of two fits draws two series" ||
	fail "the chart of two fits does not draw two series"
expect 0 '"label": "simple-bootstrap"' "scale --json with two fits: studies with labels" \
	-- scale "$simple" "$data/bootstrap.json" --over p=1:64 -q --json
expect 0 '^ *p *simple (.*simple.json) ' "two fits of the same name are told apart" \
	-- scale "$simple" "$simple" --over p=1:64 -q

# Several fits with their error model: each one's new-run interval in the
# table and on the chart, and --data's runs as rings on each one's series,
# a group's only its own rows (issue 29, item 5).
printf 'model,p,epoch_s\n' >"$work/runs.csv"
for p in 1 2 4 8 16 32; do
	awk -v p="$p" 'BEGIN {
		c = 2 + 60 / p + 0.3 * p; r = 5 + 120 / p + 0.8 * p
		printf "cnn,%d,%.4f\ncnn,%d,%.4f\n", p, c * 1.02, p, c * 0.98
		printf "rnn,%d,%.4f\nrnn,%d,%.4f\n", p, r * 1.03, p, r * 0.97
	}' >>"$work/runs.csv"
done
cat >"$work/toy.yaml" <<EOF
name: toy
data: {file: runs.csv, where: "p <= 8", output: epoch_s}
inputs: {p: p}
parameters: {a: {min: 0, max: 100}, b: {min: 0, max: 1000}, c: {min: 0, max: 10}}
terms:
  serial: {expr: a, kind: overhead}
  compute: {expr: b / p, kind: compute}
  comm: {expr: c * p, kind: communication}
time: serial + compute + comm
EOF
"$SCALEFIT" fit "$work/toy.yaml" --by model -q -o "$work/toy.json" >/dev/null 2>&1
expect 0 '^ *p *model=cnn  *95% new run  *model=rnn  *95% new run$' \
	"scale of a groups file: each group's new-run interval in the table" \
	-- scale "$work/toy.json" --over p=1:32 -q
expect 0 '^ *32 .*\] .*\]  *\*$' "scale of several fits: a row of intervals, marked beyond the range" \
	-- scale "$work/toy.json" --over p=1:32 -q
"$SCALEFIT" scale "$work/toy.json" --over p=1:32 -q --plot "$work/toy.svg" \
	--data "$work/runs.csv" >/dev/null 2>&1
[ "$(grep -c 'class="interval"' "$work/toy.svg")" -eq 2 ] &&
	grep -q '>95% interval of a new run<' "$work/toy.svg" &&
	pass "the chart of several fits shades each one's new-run interval" ||
	fail "the chart of several fits lacks the new-run intervals"
# 2 models x p = 16, 32 x 2 runs; the file's fitted rows are not rings.
[ "$(grep -c 'class="held"' "$work/toy.svg")" -eq 8 ] &&
	grep -q '>measured, not fitted<' "$work/toy.svg" &&
	{ ! command -v xmllint >/dev/null 2>&1 || xmllint --noout "$work/toy.svg"; } &&
	pass "scale --data with several fits: each group's runs not fitted as rings" ||
	fail "scale --data with several fits did not draw each group's runs"
grep 'class="held"' "$work/toy.svg" | grep -q 'E69F00' &&
	pass "the rings take their series' colour" ||
	fail "the rings of the second series are not in its colour"
cut -d, -f2,3 "$work/runs.csv" >"$work/nokey.csv"
expect 2 "has no column 'model', which tells the groups' rows apart" \
	"--data without the groups' column is refused with several groups" \
	-- scale "$work/toy.json" --over p=1:32 --plot "$work/nokey.svg" --data "$work/nokey.csv"
"$SCALEFIT" scale "$simple" "$data/bootstrap.json" --over p=1:64 -q \
	--plot "$work/x.svg" --data "$work/later.csv" >/dev/null 2>&1
[ "$(grep -c 'class="held"' "$work/x.svg")" -eq 4 ] &&
	pass "scale --data with two fit files: rings on both series" ||
	fail "scale --data with two fit files did not draw rings on both"

# ---- chart details (issue 29, item 11) -------------------------------------
awk 'BEGIN {
	print "p,b,epoch_s"
	for (p = 1; p <= 8; p *= 2)
		for (b = 16; b <= 128; b *= 2) {
			s = 51200 / (p * b)
			t = 3 + s * (0.05 + 0.002 * b) + s * 0.02 * p
			printf "%d,%d,%.4f\n", p, b, t * (1 + 0.02 * ((i++ % 3) - 1))
		}
}' >"$work/batch.csv"
cat >"$work/batch.yaml" <<EOF
name: batch
data: {file: batch.csv, output: epoch_s}
inputs: {p: p, b: b}
parameters: {t0: {min: 0, max: 100}, a: {min: 0, max: 10}, c: {min: 0, max: 1}, l: {min: 0, max: 1}}
terms:
  steps: 51200 / (p * b)
  overhead: {expr: t0, kind: overhead}
  compute: {expr: steps * (a + c * b), kind: compute}
  comm: {expr: steps * l * p, kind: communication}
time: overhead + compute + comm
EOF
"$SCALEFIT" fit "$work/batch.yaml" -q -o "$work/batch.json" >/dev/null 2>&1
# The powers of two and the table's points were searched: say both.
expect 0 "(searched 13 values: the powers of two from 16 to 128 and the table's 11 points)" \
	"a batch sweep says it searched the table's points too" \
	-- scale "$work/batch.json" --over b=16:128 --set p=2 -q
expect 0 "(searched the powers of two from 16 to 128)" \
	"a table of powers of two says only those" \
	-- scale "$work/batch.json" --over b=16:128 --set p=2 -q --points 4 --log
# Nothing beyond the fitted range: no grey, and no legend entry for it.
"$SCALEFIT" scale "$work/batch.json" --over b=16:128 --set p=2 -q \
	--plot "$work/batch.svg" >/dev/null 2>&1
! grep -q 'beyond the fitted range' "$work/batch.svg" &&
	! grep -q 'class="beyond"' "$work/batch.svg" &&
	pass "a sweep within the fitted range names no region beyond it" ||
	fail "the legend names a region beyond the fitted range that is not drawn"
# chart_has PATTERN DESCRIPTION -- ARGS...: the chart of scale ARGS --plot
# holds PATTERN.
chart_has() {
	pattern=$1 what=$2
	shift 3
	rm -f "$work/has.svg"
	"$SCALEFIT" scale "$@" --plot "$work/has.svg" >/dev/null 2>&1
	grep -q -e "$pattern" "$work/has.svg" && pass "$what" || fail "$what"
}
chart_has '>beyond the fitted range<' "a sweep beyond the fitted range names it" \
	-- "$work/batch.json" --over b=16:512 --set p=2 -q
# The crossover (p = 3) near the middle of the fitted range: the label
# goes beside its line, not on it; with no line near, it is centred.
chart_has 'class="fit-label" text-anchor="end"' "the fitted range's label stays off the crossover line" \
	-- "$work/batch.json" --over p=1:32 --set b=4 -q
chart_has 'class="fit-label" text-anchor="middle"' "the fitted range's label is centred when no line is near" \
	-- "$work/batch.json" --over p=1:32 --set b=32 -q

# ---- plot: where a fit misses (issue 29, item 10) ---------------------------
# well_formed FILE: xmllint finds FILE well-formed (passes without xmllint).
well_formed() {
	! command -v xmllint >/dev/null 2>&1 || xmllint --noout "$1" 2>/dev/null
}
"$SCALEFIT" fit "$work/toy.yaml" --where "model == 'cnn' && p <= 8" -q \
	-o "$work/cnn.json" >/dev/null 2>&1
awk -F, 'NR == 1 || $1 == "cnn"' "$work/runs.csv" >"$work/cnn.csv"
expect 0 '^  fitted  *8 rows  MAPE .*largest miss' "plot: the fitted rows, their MAPE and largest miss" \
	-- plot "$work/cnn.json" -o "$work/cnn.svg"
well_formed "$work/cnn.svg" &&
	grep -q 'class="diagonal"' "$work/cnn.svg" &&
	[ "$(grep -c 'class="errors"' "$work/cnn.svg")" -eq 1 ] &&
	! grep -q 'class="held"' "$work/cnn.svg" &&
	grep -q '>fitted: 8 rows, MAPE ' "$work/cnn.svg" &&
	pass "plot draws observed against predicted and the errors by p" ||
	fail "plot's chart lacks the diagonal, the errors or the fitted rows"
# The data file holds the fitted rows too: only the 4 others are rings.
expect 0 '^  not fitted  *4 rows  MAPE [0-9.]*%  *largest miss [-+][0-9.]*% at p = [13][26]$' "plot --data: the rows not fitted, and the worst of them" \
	-- plot "$work/cnn.json" -o "$work/cnn-held.svg" --data "$work/cnn.csv"
well_formed "$work/cnn-held.svg" &&
	[ "$(grep -c 'class="held"' "$work/cnn-held.svg")" -eq 8 ] &&
	grep -q '>not fitted: 4 rows, MAPE ' "$work/cnn-held.svg" &&
	pass "plot --data marks the rows not fitted, in both panels" ||
	fail "plot --data did not mark the rows not fitted"
"$SCALEFIT" plot "$work/ddp-now.json" -o "$work/ddp-fit.svg" >/dev/null 2>&1
[ "$(grep -c 'class="errors"' "$work/ddp-fit.svg")" -eq 3 ] && well_formed "$work/ddp-fit.svg" &&
	pass "plot draws a panel of errors per input that varies" ||
	fail "plot lacks a panel of errors per input"
expect 2 "say where to write the chart: -o FILE.svg" "plot without -o" \
	-- plot "$work/cnn.json"
expect 2 "plot needs a fit file" "plot without a fit file" -- plot -o "$work/x.svg"
expect 2 "unexpected argument" "plot of two fits" \
	-- plot "$work/cnn.json" "$work/cnn.json" -o "$work/x.svg"
expect 2 "is the fit file .*: it would be overwritten" "plot -o onto the fit file" \
	-- plot "$work/cnn.json" -o "$work/cnn.json"
expect 2 "holds the fits of 2 groups (a --by fit): plot draws one; choose it with --group KEY" \
	"plot of a groups file asks for a group" -- plot "$work/toy.json" -o "$work/x.svg"
expect 0 '^  fitted  *8 rows' "plot --group draws one group" \
	-- plot "$work/toy.json" --group model=rnn -o "$work/rnn.svg"
# An ensemble's rows are its formulas' (they all fitted them), predicted
# by its mixture.
"$SCALEFIT" fit "$srcdir/tests/data/ensemble/two.yaml" -q -o "$work/ens.json" >/dev/null 2>&1
expect 0 '^  fitted  *224 rows  MAPE' "plot of an ensemble: its formulas' rows" \
	-- plot "$work/ens.json" -o "$work/ens.svg"
expect 2 "ens.json is an ensemble's fit, already a mixture of its formulas: predict it alone" \
	"predict refuses to average an ensemble with another fit" \
	-- predict "$work/cand-generic.json" "$work/ens.json" --at p=8,b=16,n=256000
# next on an ensemble: the mixture's interval after each run, and what
# the run tells of which formula holds; single runs only.
expect 0 '^next run for the ensemble of 2 formulas: ' "next on an ensemble ranks for the mixture" \
	-- next "$work/ens.json" --target p=16,b=32,n=388288 --over p=1:16
expect 0 '^     1        16 ' "next on an ensemble: the target itself first" \
	-- next "$work/ens.json" --target p=16,b=32,n=388288 --over p=1:16
expect 0 '"formula_information": ' "next --json on an ensemble: what each run tells of the formulas" \
	-- next "$work/ens.json" --target p=16,b=32,n=388288 --over p=1:16 --json
expect 2 "is an ensemble of 2 formulas: next ranks single runs for it, without --budget or --runs" \
	"next on an ensemble refuses a plan" \
	-- next "$work/ens.json" --target p=16,b=32,n=388288 --over p=1:16 --budget 1e5
expect 2 "is an ensemble of 2 formulas: next ranks single runs" \
	"next on an ensemble refuses --runs 2" \
	-- next "$work/ens.json" --target p=16,b=32,n=388288 --over p=1:16 --runs 2
# members whose errors differ in kind cannot be mixed
awk '/"errors": "multiplicative"/ { n++; if (n == 2) sub(/multiplicative/, "additive") } { print }' \
	"$work/ens.json" >"$work/ens-kinds.json"
expect 2 "the members of an ensemble must have errors of one kind: 'generic' has multiplicative errors, 'linear' additive" \
	"an ensemble's fit file with members of two kinds of error is refused" \
	-- predict "$work/ens-kinds.json" --at p=16,b=32,n=388288
# a file whose weights are all on one formula: next answers for it
awk '/"weight": 0\.5/ { n++; sub(/0\.5/, n == 1 ? "0" : "1") } { print }' \
	"$work/ens.json" >"$work/ens-one.json"
expect 0 "an ensemble with all its weight on 'linear': next answers for that formula" \
	"next on an ensemble with one weighted formula warns" \
	-- next "$work/ens-one.json" --target p=16,b=32,n=388288 --over p=1:16
expect 0 '^next run for linear: ' "next on an ensemble with one weighted formula: that formula's" \
	-- next "$work/ens-one.json" --target p=16,b=32,n=388288 --over p=1:16 --budget 1e5
# Several fit files, averaged as predict averages them: next ranks runs
# for their mixture as for an ensemble's fit file, and scale --weights
# sweeps it; the ensemble's own formulas fitted one by one, weighed
# equally, give the ensemble's answer to the digit.  One holds its inputs
# in another order (matched by name).
for m in generic linear; do
	"$SCALEFIT" fit "$srcdir/tests/data/ensemble/two.yaml" --model $m -q \
		-o "$work/two-$m.json" >/dev/null 2>&1
done
sed -e 's/^  p: gpus$/  SWAP/' -e 's/^  n: global_batch \* iterations$/  p: gpus/' \
	-e 's/^  SWAP$/  n: global_batch * iterations/' \
	-e 's|file: ../../../datasets|file: '"$(cd "$srcdir" && pwd)"'/datasets|' \
	"$srcdir/tests/data/ensemble/two.yaml" >"$work/two-order.yaml"
"$SCALEFIT" fit "$work/two-order.yaml" --model linear -q -o "$work/two-order.json" >/dev/null 2>&1
first_input() { sed -n '/"inputs": {/{n;p;q;}' "$1"; }
[ "$(first_input "$work/two-order.json")" != "$(first_input "$work/two-linear.json")" ] &&
	pass "the reordered model's fit file holds its inputs in another order" ||
	fail "the reordered model's fit file holds its inputs in the same order"
target="--target p=16,b=32,n=388288 --over p=1:16"
"$SCALEFIT" next "$work/ens.json" $target 2>/dev/null | tail -n +2 >"$work/next-ens.txt"
for second in two-linear two-order; do
	"$SCALEFIT" next "$work/two-generic.json" "$work/$second.json" --weights equal $target \
		2>/dev/null | tail -n +2 >"$work/next-avg.txt"
	if [ -s "$work/next-ens.txt" ] && cmp -s "$work/next-ens.txt" "$work/next-avg.txt"; then
		pass "next on two fit files weighed equally ranks as on their ensemble's fit file ($second)"
	else
		fail "next on two fit files differs from their ensemble's ($second)"
		diff "$work/next-ens.txt" "$work/next-avg.txt" | head -10 | sed 's/^/  | /'
	fi
done
expect 0 '^next run for the average of 2 fits (equal weights: generic 0.500, linear 0.500): ' \
	"next names the average and its weights" \
	-- next "$work/two-generic.json" "$work/two-linear.json" --weights equal $target
"$SCALEFIT" next "$work/two-generic.json" "$work/two-linear.json" --weights 2,2 $target \
	2>/dev/null | tail -n +2 >"$work/next-given.txt"
"$SCALEFIT" next "$work/two-generic.json" "$work/two-linear.json" --weights equal $target \
	2>/dev/null | tail -n +2 >"$work/next-equal.txt"
[ -s "$work/next-given.txt" ] && cmp -s "$work/next-given.txt" "$work/next-equal.txt" &&
	pass "next --weights 2,2 ranks as --weights equal" ||
	fail "next --weights 2,2 differs from --weights equal"
expect 0 '^next run for the average of 2 fits (weighted by extrapolation evidence: generic 0\.[0-9]*, linear 0\.[0-9]*): ' \
	"next averages several fit files by extrapolation evidence by default" \
	-- next "$work/two-generic.json" "$work/two-linear.json" $target
expect 0 '"models": \[' "next --json of an average lists its fits and weights" \
	-- next "$work/two-generic.json" "$work/two-linear.json" $target --json
expect 0 '"weight": 0.5' "next --json of an average: each fit's weight" \
	-- next "$work/two-generic.json" "$work/two-linear.json" $target --json --weights equal
expect 2 "ens.json is an ensemble's fit, already a mixture of its formulas: rank runs for it alone" \
	"next refuses to average an ensemble with another fit" \
	-- next "$work/two-generic.json" "$work/ens.json" $target
expect 2 "toy.json holds the fits of 2 groups (a --by fit): an average takes plain fit files; rank runs for a group alone with --group KEY" \
	"next refuses to average a groups file" \
	-- next "$work/two-generic.json" "$work/toy.json" $target
expect 2 'were not fitted to the same rows' "next: fits of other rows are not averaged" \
	-- next "$work/two-generic.json" "$work/ddp-p3.json" $target
expect 2 'weights goes with two or more fit files' "next --weights with one fit" \
	-- next "$work/two-generic.json" --weights equal $target
expect 2 '^scalefit: error: --group goes with one fit file, not an average of several' "next --group with several fits" \
	-- next "$work/two-generic.json" "$work/two-linear.json" --group model=rnn $target
expect 2 "the average of 2 fit files is an ensemble of 2 formulas: next ranks single runs for it, without --budget" \
	"next on an average refuses a plan" \
	-- next "$work/two-generic.json" "$work/two-linear.json" $target --budget 1e5
sweep="--over p=1:16 --set b=32,n=388288"
"$SCALEFIT" scale "$work/ens.json" $sweep 2>/dev/null | tail -n +2 >"$work/scale-ens.txt"
"$SCALEFIT" scale "$work/two-generic.json" "$work/two-order.json" --weights equal $sweep 2>/dev/null |
	tail -n +2 >"$work/scale-avg.txt"
if [ -s "$work/scale-ens.txt" ] && cmp -s "$work/scale-ens.txt" "$work/scale-avg.txt"; then
	pass "scale --weights equal on two fit files sweeps their ensemble's mixture"
else
	fail "scale --weights on two fit files differs from their ensemble's sweep"
	diff "$work/scale-ens.txt" "$work/scale-avg.txt" | head -10 | sed 's/^/  | /'
fi
expect 0 '^average: train_time_s over p' "scale --weights names the sweep an average" \
	-- scale "$work/two-generic.json" "$work/two-linear.json" --weights aicc $sweep
expect 0 '^train_time_s of 2 fits over p' "scale without --weights sweeps each fit" \
	-- scale "$work/two-generic.json" "$work/two-linear.json" $sweep
expect 2 'weights goes with two or more fit files' "scale --weights with one fit" \
	-- scale "$work/two-generic.json" --weights equal $sweep
expect 2 'group goes with one fit file, not an average of several' "scale --weights with --group" \
	-- scale "$work/two-generic.json" "$work/two-linear.json" --weights equal --group model=rnn $sweep
expect 2 "ens.json is an ensemble's fit, already a mixture of its formulas: sweep it alone" \
	"scale --weights refuses an ensemble's fit" \
	-- scale "$work/two-generic.json" "$work/ens.json" --weights equal $sweep
# What helper review found: each file's warnings name it; an input read
# as text by one fit and as a number by another is refused; an average
# with all its weight on one fit stays an average; a formula's error
# names its file; scale --weights --json lists the fits.
sed 's/"scalefit_version": "[^"]*"/"scalefit_version": "9.0.0"/' "$work/two-linear.json" >"$work/two-later.json"
expect 0 "two-later.json: written by scalefit 9.0.0" "next on an average warns of a later version's file by its name" \
	-- next "$work/two-generic.json" "$work/two-later.json" $target
expect 0 "two-later.json: written by scalefit 9.0.0" "scale --weights warns of a later version's file by its name" \
	-- scale "$work/two-later.json" "$work/two-generic.json" --weights equal $sweep
for kind in "fw: framework" "fw: cpu_threads"; do
	sed -e "s|^  n: global_batch \* iterations$|  n: global_batch * iterations\n  $kind|" \
		-e 's|file: ../../../datasets|file: '"$(cd "$srcdir" && pwd)"'/datasets|' \
		"$srcdir/tests/data/ensemble/two.yaml" >"$work/two-fw.yaml"
	"$SCALEFIT" fit "$work/two-fw.yaml" --model linear -q -o "$work/two-fw-${kind#fw: }.json" >/dev/null 2>&1
done
expect 2 "reads input 'fw' as text, .*two-fw-cpu_threads.json as a number" \
	"fits reading an input as text and as a number are not averaged" \
	-- predict "$work/two-fw-framework.json" "$work/two-fw-cpu_threads.json" --at p=8,b=16,n=256000,fw=1
expect 2 '^scalefit: error: --weights goes with two or more fit files' "scale --weights --group with one file" \
	-- scale "$work/toy.json" --weights equal --group model=cnn --over p=1:16
sed 's/"aicc": [-0-9.e+]*/"aicc": 5000/' "$work/two-linear.json" >"$work/two-far.json"
expect 0 '^next run for the average of 2 fits (Akaike weights: generic 1.000, linear 0.000): ' \
	"an average with all its weight on one fit stays an average" \
	-- next "$work/two-generic.json" "$work/two-far.json" --weights aicc $target
awk '/"covariance"/ { skip = 1 } skip && /^  \]/ { skip = 0; next } !skip' "$work/two-linear.json" \
	>"$work/two-nocov.json"
expect 2 "the ensemble's formula 'linear' (.*two-nocov.json): " "next names the file of an averaged fit it cannot use" \
	-- next "$work/two-generic.json" "$work/two-nocov.json" $target
expect 0 '"models": \[' "scale --weights --json lists the fits and their weights" \
	-- scale "$work/two-generic.json" "$work/two-linear.json" --weights equal $sweep --json
# And helper-32's: weights whose sum overflows are refused, -0 is 0; an
# input read from other columns is not averaged; fits weighed on
# different grounds (a file from before the chain's weights) are not
# averaged by extrapolation evidence; inputs that tie for the most levels
# weigh the same whatever their order in the model file.
expect 0 'the weights given): generic 0.500, linear 0.500' "--weights whose sum would overflow are shares of the largest" \
	-- predict "$work/two-generic.json" "$work/two-linear.json" --weights 1e308,1e308 --at p=8,b=16,n=256000 -q
expect 0 'the weights given): generic 0.000, linear 1.000' "--weights -0,1: -0 is 0" \
	-- predict "$work/two-generic.json" "$work/two-linear.json" --weights -0,1 --at p=8,b=16,n=256000 -q
sed -e 's|^  b: global_batch / gpus$|  b: global_batch|' \
	-e 's|file: ../../../datasets|file: '"$(cd "$srcdir" && pwd)"'/datasets|' \
	"$srcdir/tests/data/ensemble/two.yaml" >"$work/two-global.yaml"
"$SCALEFIT" fit "$work/two-global.yaml" --model linear -q -o "$work/two-global.json" >/dev/null 2>&1
expect 2 "reads input 'b' as 'global_batch / gpus', .*two-global.json as 'global_batch'" \
	"fits reading an input from other columns are not averaged" \
	-- next "$work/two-generic.json" "$work/two-global.json" $target
sed -e 's|^  b: global_batch / gpus$|  b: "global_batch/gpus"|' \
	-e 's|file: ../../../datasets|file: '"$(cd "$srcdir" && pwd)"'/datasets|' \
	"$srcdir/tests/data/ensemble/two.yaml" >"$work/two-spaced.yaml"
"$SCALEFIT" fit "$work/two-spaced.yaml" --model linear -q -o "$work/two-spaced.json" >/dev/null 2>&1
expect 0 '^next run for the average of 2 fits' "an input written with other spaces is the same input" \
	-- next "$work/two-generic.json" "$work/two-spaced.json" $target
sed 's/"model_weight_from": "chain"/"model_weight_from": "posterior"/' "$work/two-linear.json" >"$work/two-posterior.json"
expect 2 "two-generic.json weighs its evidence beyond the range by its forward chain, .*two-posterior.json by its posterior" \
	"fits weighed on different grounds are not averaged by extrapolation evidence" \
	-- predict "$work/two-generic.json" "$work/two-posterior.json" --at p=8,b=16,n=256000
expect 0 'averaged over 2 fits (equal weights)' "... but with weights of their own" \
	-- predict "$work/two-generic.json" "$work/two-posterior.json" --weights equal --at p=8,b=16,n=256000 -q
grep -v '"model_weight_from"' "$work/two-linear.json" >"$work/two-unsaid.json"
grep -v '"model_weight_from"' "$work/two-generic.json" >"$work/two-unsaid-generic.json"
expect 2 "two-unsaid.json by what its file does not say (written before model_weight_from)" \
	"a file that does not say what its weight was made from is not averaged with one that does" \
	-- predict "$work/two-generic.json" "$work/two-unsaid.json" --at p=8,b=16,n=256000
expect 0 'averaged over 2 fits (weighted by extrapolation evidence)' "... but with another such file" \
	-- predict "$work/two-unsaid-generic.json" "$work/two-unsaid.json" --at p=8,b=16,n=256000 -q
awk 'BEGIN { print "x,y,t"; s = 1; for (i = 0; i < 6; i++) for (j = 0; j < 6; j++) {
	s = (s * 16807) % 2147483647; x = 2 ^ i; y = 2 ^ j
	print x "," y "," (1 + x + 0.3 * y + 0.02 * x * y) * (1 + 0.04 * (s / 2147483647 - 0.5)) } }' >"$work/grid.csv"
for order in "x: x|y: y" "y: y|x: x"; do
	printf 'data: {file: grid.csv, output: t}\ninputs:\n  %s\n  %s\nparameters: {a: {min: 0, max: 10}, c: {min: 0, max: 10}, d: {min: 0, max: 10}}\ntime: a + c * x + d * y\n' \
		"${order%%|*}" "${order#*|}" >"$work/grid-${order%%:*}.yaml"
	"$SCALEFIT" fit "$work/grid-${order%%:*}.yaml" -q -o "$work/grid-${order%%:*}.json" >/dev/null 2>&1
done
[ -n "$(grep '"model_weight"' "$work/grid-x.json")" ] &&
	[ "$(grep '"model_weight"' "$work/grid-x.json")" = "$(grep '"model_weight"' "$work/grid-y.json")" ] &&
	pass "inputs that tie for the most levels weigh the same in either order" ||
	fail "the extrapolation weight depends on the order of the inputs: $(grep '"model_weight"' "$work/grid-x.json") vs $(grep '"model_weight"' "$work/grid-y.json")"
expect 2 "weights is extrapolation, aicc, equal or a weight per fit file (W1,W2,...: at most 64 numbers >= 0, not all 0), not 'foo'" "scale --weights of an unknown kind" \
	-- scale "$work/two-generic.json" "$work/two-linear.json" --weights foo $sweep
printf '{"model": ' >"$work/broken.json"
expect 2 "broken.json:1:[0-9]*:" "plot of a broken fit file: FILE:LINE:COL" \
	-- plot "$work/broken.json" -o "$work/x.svg"
printf 'p,time\n32,15\n' >"$work/no-out.csv"
expect 2 "no-out.csv:1:1: .*no column 'epoch_s'" "plot --data without the output's column: FILE:LINE:COL" \
	-- plot "$work/cnn.json" -o "$work/x.svg" --data "$work/no-out.csv"
printf 'p,epoch_s\nmany,15\n' >"$work/text-p.csv"
expect 2 "text-p.csv:2:1: " "plot --data with text in an input's column: FILE:LINE:COL" \
	-- plot "$work/cnn.json" -o "$work/x.svg" --data "$work/text-p.csv"
# -o is written whole or not at all: an error leaves the old chart.
echo "old chart" >"$work/keep-fit.svg"
expect 2 "no column 'epoch_s'" "plot: an error with -o" \
	-- plot "$work/cnn.json" -o "$work/keep-fit.svg" --data "$work/no-out.csv"
[ "$(cat "$work/keep-fit.svg")" = "old chart" ] &&
	pass "plot: an error leaves the old chart untouched" ||
	fail "plot: an error changed the old chart"
no_temporaries "plot: no temporary file after an error"
expect 2 "cannot create a file beside it" "plot: an unwritable chart path" \
	-- plot "$work/cnn.json" -o "$work/no/such/dir/fit.svg"
stdout_empty "plot: an unwritable chart prints nothing"

# ---- Ernest, end to end ----------------------------------------------------
if "$SCALEFIT" fit "$srcdir/expressions/ernest.yaml" -q -o "$work/ernest.json" >/dev/null; then
	expect 0 'fastest  *p = 6' "Ernest: fastest p" \
		-- scale "$work/ernest.json" --over p=1:1024 --set n=0.061678
	expect 0 'at p = 5$' "Ernest: crossover" \
		-- scale "$work/ernest.json" --over p=1:1024 --set n=0.061678
	expect 0 '^ *64 *0.1 *8.759' "Ernest: predict" \
		-- predict "$work/ernest.json" --at p=64,n=0.1
else
	fail "Ernest: the fit failed"
fi

echo "predict: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
