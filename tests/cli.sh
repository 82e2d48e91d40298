#!/bin/sh
# cli.sh - drive the scalefit command line end to end: exit statuses,
# messages on the right stream, and that nothing is half-written.
#
# Run by `make check`, which sets SCALEFIT and srcdir.  Prints one line per
# check and a closing "N passed, N failed" line; exits non-zero on failure.

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-cli.XXXXXX") || exit 99
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
		echo "FAIL: $what: exit $got, expected $want"
		sed 's/^/  | /' "$work/out" "$work/err"
		failed=$((failed + 1))
	elif ! cat "$work/out" "$work/err" | grep -q -e "$pattern"; then
		echo "FAIL: $what: output lacks '$pattern'"
		sed 's/^/  | /' "$work/out" "$work/err"
		failed=$((failed + 1))
	else
		pass "$what"
	fi
}

# lacks PATTERN DESCRIPTION [out]: the last run's stdout+stderr (with out:
# its stdout) do not match the grep PATTERN (after an expect that ran it).
lacks() {
	if [ "${3:-}" = out ]; then
		cat "$work/out"
	else
		cat "$work/out" "$work/err"
	fi | grep -q -e "$1"
	if [ $? -eq 0 ]; then
		fail "$2: output has '$1'"
	else
		pass "$2"
	fi
}

# stderr_only DESCRIPTION: the last run printed nothing on stdout.
stdout_empty() {
	if [ -s "$work/out" ]; then
		fail "$1: stdout not empty"
	else
		pass "$1"
	fi
}

expect 0 '^scalefit [0-9]' "--version" -- --version
expect 0 '^Usage: scalefit COMMAND' "--help" -- --help
expect 0 'Commands:' "help" -- help
expect 0 '^Usage: scalefit help' "help help" -- help help
expect 0 '^Show help for scalefit' "help --help" -- help --help
expect 0 '^Fit the formula' "fit --help has the summary" -- fit --help
expect 0 '^Fit the formula' "help fit: the same text" -- help fit
expect 2 "unknown command 'hlep'; did you mean 'help'" "misspelt command" -- hlep
stdout_empty "misspelt command writes only stderr"
expect 2 "unknown command 'frobnicate'" "unknown command" -- frobnicate
expect 2 "unknown option '--frob'" "unknown global option" -- --frob
expect 2 "Usage: scalefit COMMAND" "no command" --
expect 2 "unknown command 'nope'" "help for an unknown command" -- help nope
expect 2 "too many arguments" "help with two commands" -- help help help

# check and fit on the bundled Ernest model.
ernest="$srcdir/expressions/ernest.yaml"
line="$srcdir/tests/data/fit/line.csv"
expect 0 "time = serial + parallel + linear + aggregation" "check prints the canonical formula" -- check "$ernest"
expect 0 "1 model ready to fit" "check says the model is fit-ready" -- check "$ernest"
expect 2 "no-such.yaml" "check a missing model file" -- check "$work/no-such.yaml"
expect 2 "algorithm_unknown.yaml:5:16: unknown algorithm 'shade'; did you mean 'lshade'" \
	"check a bad model: FILE:LINE:COL and a suggestion" -- check "$srcdir/tests/data/model/bad/algorithm_unknown.yaml"
expect 2 "^ *\^" "a caret under the column" -- check "$srcdir/tests/data/model/bad/algorithm_unknown.yaml"
expect 2 "decimal_comma.csv:11:3: '3,5' is not a number" "check a bad CSV: FILE:LINE:COL" -- \
	check "$ernest" "$srcdir/tests/data/csv/bad/decimal_comma.csv"
expect 2 "ernest.yaml:15:11: .*line.csv lacks 3 columns the model reads: 'time_s' (the output), 'cores' (input p), 'input_fraction' (input n); try --output-column COLUMN --input p=COLUMN --input n=COLUMN; its columns are: x, y" "check data without the model's columns: all at once" -- check "$ernest" "$line"
expect 0 "theta1  *162.198" "fit Ernest" -- fit "$ernest"
expect 0 "theta1  *162.198" "fit: options may follow the model file" -- fit "$ernest" --seed 3 -q
expect 0 '"stop_reason"' "fit --json" -- fit "$ernest" --json -q
expect 2 "did you mean '--algorithm'" "fit: misspelt option" -- fit "$ernest" --algoritm lshade
expect 2 "unknown loss 'sse2'; did you mean 'sse'" "fit: unknown loss" -- fit "$ernest" --loss sse2
expect 2 "unknown scale 'logg'; did you mean 'log'" "fit: unknown scale" -- fit "$ernest" --scale logg

# The vocabularies: every name of the tables of losses (solve/loss.c) and
# of algorithms (solve/de.c) is documented.  The names come from the tables
# by two paths, fit's help lines (made from them) and the choices the model
# loader offers; the man pages and the fuzz dictionary are written by hand,
# so a name added to a table fails here until they say it too.
help_names() { # OPTION: the names on fit's help line of --OPTION
	"$SCALEFIT" help fit | sed -n "s/^ *--$1 [A-Z]  *//p" | sed 's/,//g; s/ or / /'
}
loader_names() { # FIT: the choices the loader lists for the bad value in FIT
	printf 'time: a\nparameters: {a: {min: 0, max: 1}}\nfit: %s\n' "$1" >"$work/vocab.yaml"
	"$SCALEFIT" check "$work/vocab.yaml" 2>&1 | sed -n 's/.*(one of: \(.*\))$/\1/p' | sed 's/,//g'
}
man_section() { # PAGE HEADING: the lines under HEADING, to the next heading
	awk -v start="$2" '$0 == start { on = 1; next } on && /^\.S[HS] / { exit } on' "$1"
}
man_option() { # PAGE OPTION: the paragraph of --OPTION
	awk -v start=".BI \\\\-\\\\-$2 " 'index($0, start) == 1 { on = 1; next } on && /^\.TP/ { exit } on' "$1"
}
check_vocab() { # WHAT OPTION FIT-VALUE HEADING MODEL5-SYNOPSIS-KEY
	names=$(help_names "$2")
	missing=""
	if [ -z "$names" ] || [ "$names" != "$(loader_names "$3")" ]; then
		missing="help '$names' and loader '$(loader_names "$3")' differ"
	fi
	list=$(printf '%s\n' $names | paste -sd '|' - | sed 's/|/ | /g')
	grep -qF "$5: $list" "$srcdir/man/scalefit-model.5" ||
		missing="$missing; scalefit-model(5)'s synopsis lacks '$5: $list'"
	for n in $names; do
		man_section "$srcdir/man/scalefit.1" "$4" | grep -qx "\.B $n" ||
			missing="$missing; scalefit(1) $4 lacks '.B $n'"
		man_option "$srcdir/man/scalefit.1" "$2" | grep -qx "\.BR* $n\( [,.]\)*" ||
			missing="$missing; scalefit(1) --$2 lacks $n"
		grep -qx "\"$n\"" "$srcdir/tests/fuzz/yaml.dict" ||
			missing="$missing; tests/fuzz/yaml.dict lacks \"$n\""
	done
	if [ -z "$missing" ]; then
		pass "every $1 ($names) in the help, the man pages and the fuzz dictionary"
	else
		fail "$1: ${missing#; }"
	fi
}
check_vocab loss loss "{loss: zzzzzzzzzz}" ".SH LOSSES AND PENALTY" loss
check_vocab algorithm algorithm "{optimizer: {algorithm: zzzzzzzzzz}}" ".SS Global search" algorithm
expect 2 "seed needs a whole number" "fit: bad seed" -- fit "$ernest" --seed 1.5
expect 2 "threads needs a whole number" "fit: bad threads" -- fit "$ernest" --threads 0
expect 2 "option '--seed' needs an argument" "fit: option without its argument" -- fit "$ernest" --seed
expect 2 "fit needs a model file" "fit without a model" -- fit
expect 1 "no candidate had a finite cost" "fit: no finite cost exits 1" -- fit "$srcdir/tests/data/fit/nan.yaml" -q

# -o is atomic: a failed run leaves an existing file as it was, and a
# good one replaces it whole.
printf 'old\n' >"$work/fit.json"
expect 2 "decimal_comma.csv" "fit -o with bad data fails" -- \
	fit "$ernest" "$srcdir/tests/data/csv/bad/decimal_comma.csv" -o "$work/fit.json"
if [ "$(cat "$work/fit.json")" = old ] && [ "$(ls "$work" | grep -c fit)" -eq 1 ]; then
	pass "a failed fit leaves -o's file untouched, no temporary left"
else
	fail "a failed fit touched -o's file or left a temporary"
fi
expect 2 "cannot create" "fit -o into a missing directory" -- fit "$ernest" -q -o "$work/none/fit.json"
expect 0 "" "fit -o writes the report" -- fit "$ernest" -q -o "$work/fit.json"
if grep -q '"scalefit_version"' "$work/fit.json" && tail -c 2 "$work/fit.json" | grep -q '}'; then
	pass "-o wrote a whole JSON report"
else
	fail "-o's report is not whole"
fi
# -o and --plot never overwrite an input, and name the file they refuse.
cp "$ernest" "$work/m.yaml"
sed -i "s|file: \.\./datasets|file: $(cd "$srcdir" && pwd)/datasets|" "$work/m.yaml"
cp "$work/m.yaml" "$work/m.orig"
expect 2 "-o '.*m.yaml' is the model file" "fit -o MODEL.yaml is refused" -- fit "$work/m.yaml" -q -o "$work/m.yaml"
cp "$srcdir/datasets/ernest_spark_rcv1/spark_lr_rcv1.csv" "$work/data.csv"
cp "$work/data.csv" "$work/data.orig"
expect 2 "is the data file" "fit -o DATA.csv is refused" -- fit "$work/m.yaml" "$work/data.csv" -q -o "$work/data.csv"
cp "$work/fit.json" "$work/fit.orig"
expect 2 "--plot '.*fit.json' is the fit file" "scale --plot FIT.json is refused" -- scale "$work/fit.json" --over p=1:64 --plot "$work/fit.json"
if cmp -s "$work/m.yaml" "$work/m.orig" && cmp -s "$work/data.csv" "$work/data.orig" && cmp -s "$work/fit.json" "$work/fit.orig"; then
	pass "the refused outputs left their inputs as they were"
else
	fail "an input was overwritten"
fi
expect 2 "cannot write the report to an empty file name" "fit -o ''" -- fit "$ernest" -q -o ''
if command -v mkfifo >/dev/null && mkfifo "$work/fifo"; then
	cat "$work/fifo" >"$work/fifo.out" &
	reader=$!
	expect 0 "" "fit -o FIFO writes into the FIFO" -- fit "$ernest" -q -o "$work/fifo"
	# A replaced FIFO would leave its reader waiting forever.
	[ -p "$work/fifo" ] || kill "$reader"
	wait "$reader"
	if [ -p "$work/fifo" ] && grep -q '"scalefit_version"' "$work/fifo.out"; then
		pass "the FIFO stays a FIFO and its reader got the report"
	else
		fail "the FIFO was replaced or its reader got nothing"
	fi
fi
# A mistyped one-letter grid column is suggested like a mistyped --at name.
printf 'q,n\n8,1\n' >"$work/grid.csv"
expect 2 "no column 'p' for input p, nor 'cores' (p = cores in the fit's inputs); did you mean 'q'" "a mistyped one-letter grid column is suggested" -- predict "$work/fit.json" --grid "$work/grid.csv"
expect 2 "unknown input 'q'; did you mean 'p'" "a mistyped one-letter --at name is suggested" -- predict "$work/fit.json" --at q=8,n=1

# Same seed, any thread count: the same JSON, but for the wall time and
# the thread count.
for t in 1 2 7; do
	OMP_NUM_THREADS=$t "$SCALEFIT" fit "$ernest" --json -q --seed 7 --loss relative --bootstrap 20 |
		grep -v -e '"seconds"' -e '"threads"' >"$work/threads$t.json"
done
if [ -s "$work/threads1.json" ] && cmp -s "$work/threads1.json" "$work/threads2.json" &&
	cmp -s "$work/threads1.json" "$work/threads7.json"; then
	pass "OMP_NUM_THREADS=1, 2, 7 give byte-identical reports"
else
	echo "FAIL: the report depends on the thread count"
	diff "$work/threads1.json" "$work/threads7.json" | head -20
	failed=$((failed + 1))
fi

expect 0 "w  *7.6173913 " "columns with non-identifier names, used whole" -- fit "$srcdir/tests/data/fit/odd-names.yaml" -q
expect 0 "g  *1.98120.* 0.0276" "a fitted exponent on a zero base keeps its standard error" -- fit "$srcdir/tests/data/fit/pow0.yaml"

# bootstrap and restarts.
expect 0 "bootstrap: 50 replicates" "fit --bootstrap" -- fit "$ernest" --bootstrap 50 -q
expect 0 "restarts: 3 seeds" "fit --restarts" -- fit "$ernest" --restarts 3 -q
expect 0 '"replicates": 30' "fit --bootstrap in the JSON report" -- fit "$ernest" --bootstrap 30 --json -q
expect 2 "bootstrap needs a whole number from 10" "fit --bootstrap too small" -- fit "$ernest" --bootstrap 3

expect 0 "lambda auto: 0.1, the lowest 5-fold" "fit with lambda: auto shows its choice" -- fit "$srcdir/tests/data/fit/ernest-auto.yaml" -q
expect 0 "warning: g is poorly determined: its 95% interval" \
	"a searched constant whose interval spans most of its bounds is flagged" \
	-- fit "$srcdir/tests/data/fit/poor.yaml"
expect 0 '"poorly_determined": true' "and the JSON report says so" \
	-- fit "$srcdir/tests/data/fit/poor.yaml" --json
expect 0 "new runs: noise +-0.243" \
	"fit reports the error model of a new run (additive for sse)" \
	-- fit "$srcdir/tests/data/fit/poor.yaml"
expect 0 '"prediction_interval": {' "and writes it to FIT.json" \
	-- fit "$srcdir/tests/data/fit/poor.yaml" --json
expect 0 "95% prediction intervals: .* of 4 rows inside" \
	"validate scores the prediction intervals of the held-out rows" \
	-- validate "$srcdir/tests/data/fit/poor.yaml" --train 'x <= 6'
expect 0 "poorly determined: g" "compare notes a poorly determined constant" \
	-- compare "$srcdir/tests/data/fit/poor.yaml"
expect 0 '"coverage95": ' "validate's JSON has coverage95" \
	-- validate "$srcdir/tests/data/fit/poor.yaml" --train 'x <= 6' --json
expect 0 '"interval95": \[' "and every predicted row's interval95" \
	-- validate "$srcdir/tests/data/fit/poor.yaml" --train 'x <= 6' --json

# validate and compare.
nolog="$srcdir/tests/data/fit/ernest-nolog.yaml"
expect 0 "predicted 1 rows: MAPE 2.48%" "validate --train: extrapolate to p = 32" -- validate "$ernest" --train 'p <= 16' -q
expect 0 "by p:" "validate --loo groups by input value" -- validate "$ernest" --loo -q
expect 0 '"method": "kfold"' "validate --kfold --json" -- validate "$ernest" --kfold 3 --json -q
expect 2 "train:1:1: unknown name 'q'; did you mean 'p'" "validate --train with an unknown name" -- validate "$ernest" --train 'q <= 16'
expect 2 "selects all of the 7 rows" "validate --train that keeps every row" -- validate "$ernest" --train 'p <= 100'
expect 2 "only inputs may be used here" "validate --train over a parameter" -- validate "$ernest" --train 'p <= theta1'
expect 2 "exactly one of --train" "validate without a method" -- validate "$ernest"
expect 0 "^   1 ernest  " "compare ranks Ernest first" -- compare "$ernest" "$nolog" --train 'p <= 16' -q
expect 0 "ernest-no-log.*over-parameterised" "compare flags the weaker candidate" -- compare "$ernest" "$nolog" -q
expect 0 '"akaike_weight"' "compare --json" -- compare "$ernest" "$nolog" --json -q
expect 0 "^   1 ernest  *31.3%  *52.8%  *113%$" "compare --train: extrapolation MAPE per held-out p" \
	-- compare "$ernest" "$nolog" --train 'p <= 4' -q
expect 0 "extrapolation MAPE by p (the rows --train holds out)" "under the ranking" \
	-- compare "$ernest" "$nolog" --train 'p <= 4' -q
expect 0 '"extrapolation_by_level": {' "and in the JSON" -- compare "$ernest" "$nolog" --train 'p <= 4' --json -q
expect 0 '"extrapolation_by_level": null' "null without --train" -- compare "$ernest" "$nolog" --json -q
expect 2 "compare needs at least one model file" "compare without models" -- compare
# Every candidate's model and data are checked before the first fit: a bad
# second candidate fails at once with its FILE:LINE:COL, before the first
# candidate is fitted or even its --train split made (which here keeps
# every row of that candidate's data, itself an error).
expect 2 "bad-column.yaml:5:13: .*reps.csv has no column 'xx'; its columns are: x, y; did you mean 'x'?" "compare checks every candidate's data before fitting" \
	-- compare "$srcdir/tests/data/fit/poor.yaml" "$srcdir/tests/data/compare/bad-column.yaml" --train 'x <= 10'
stdout_empty "and prints no table"
expect 2 "empty_time.yaml:1:7: time is empty" "compare checks every candidate's model before fitting" \
	-- compare "$srcdir/tests/data/fit/poor.yaml" "$srcdir/tests/data/model/bad/empty_time.yaml" --train 'x <= 10'
# Two outputs: a run time and a time per core (the same data, other units).
sed -e 's/output: time_s/output: time_s \/ cores/' -e 's/^name: ernest/name: per-core/' \
	"$ernest" >"$work/per-core.yaml"
sed -i "s|file: \.\./datasets|file: $(cd "$srcdir" && pwd)/datasets|" "$work/per-core.yaml"
expect 0 "fit different outputs ('time_s' and 'time_s / cores')" "compare warns about different outputs" -- compare "$ernest" "$work/per-core.yaml"
# The same file and as many rows, but the cnn runs against the mlp runs.
cmpdir="$srcdir/tests/data/compare"
expect 0 "'cnn' and 'amdahl' are fitted to different rows of .*two-models.csv (12 rows where model == 'cnn', 12 rows where model == 'mlp')" \
	"compare warns about other rows of the same count" -- compare "$cmpdir/cnn.yaml" "$cmpdir/mlp-cands.yaml"
expect 0 '"same_rows": false' "and its JSON says so" -- compare "$cmpdir/cnn.yaml" "$cmpdir/mlp-cands.yaml" --json -q
expect 0 '^   2 cnn (2) ' "compare names a repeated model distinctly" -- compare "$cmpdir/cnn.yaml" "$cmpdir/cnn.yaml" -q
expect 0 '"label": "cnn (2)"' "and in its JSON" -- compare "$cmpdir/cnn.yaml" "$cmpdir/cnn.yaml" --json -q
# Issue 29, item 6: rows of two jobs at the same inputs are fitted as
# repeats; fit warns on stderr, naming the column that splits them and
# --by / --where; a column that only scatters them (the host) does not.
jobs="$srcdir/tests/data/fit/two-jobs.yaml"
expect 0 "warning: .*two-jobs.csv: rows with equal inputs are fitted as repeats of one run, but column 'model' differs between them in 5 of 5 repeated configurations (its values account for 100% of their scatter): if they are different jobs, fit each with --by model, or keep one with --where \"model == 'cnn'\"" \
	"fit warns when a text column splits the repeats" -- fit "$jobs"
lacks "rows with equal inputs" "the warning about repeats is on stderr only" out
expect 0 "" "fit --where on one job" -- fit "$jobs" --where "model == 'cnn'"
lacks "rows with equal inputs" "has no warning: the hosts only scatter the repeats"
expect 0 "" "fit --by model" -- fit "$jobs" --by model
lacks "rows with equal inputs" "has no warning"
expect 0 "" "fit -q" -- fit "$jobs" -q
lacks "rows with equal inputs" "has no warning"
# Issue 29, item 2: with --train the ranking follows the extrapolation
# MAPE (the cubic fits every row best, and extrapolates worst); --rank
# chooses; the text and the JSON say which ranking and why.
ext="$cmpdir/extrap.yaml"
expect 0 "^   1 comm-linear " "compare --train ranks by the extrapolation MAPE" -- compare "$ext" --train 'p <= 4' -q
expect 0 "^ranked by the extrapolation MAPE: --train asks how well each formula predicts the rows it holds out .*and AICc ranks 'cubic' first$" \
	"and says so, naming AICc's first" -- compare "$ext" --train 'p <= 4' -q
expect 0 '"ranked_by": "extrapolation",' "and its JSON" -- compare "$ext" --train 'p <= 4' -q --json
expect 0 '"ranked_because": "--train",' "and why" -- compare "$ext" --train 'p <= 4' -q --json
expect 0 "^   1 cubic " "compare --rank aicc: the fit to every row" -- compare "$ext" --train 'p <= 4' -q --rank aicc
expect 0 "^ranked by AICc (--rank aicc)$" "and says so" -- compare "$ext" --train 'p <= 4' -q --rank aicc
expect 0 "^   1 comm-linear " "compare --rank cv" -- compare "$ext" -q --rank cv
expect 0 "^ranked by the cross-validated MAPE (--rank cv); the weights are Akaike's, from AICc, and AICc ranks 'cubic' first$" \
	"and says so" -- compare "$ext" -q --rank cv
expect 0 '"ranked_because": "--rank",' "and its JSON says why" -- compare "$ext" -q --rank cv --json
expect 0 "^   1 cubic " "compare without --train ranks by AICc" -- compare "$ext" -q
lacks "^ranked by" "and prints no ranking line: the table as before"
expect 0 '"ranked_by": "aicc",' "compare --rank aicc: its JSON says so" -- compare "$ext" -q --json --rank aicc
expect 0 '"candidates"' "compare --json without --train or --rank" -- compare "$ext" -q --json
lacks '"ranked_' "has no ranking keys: the document as before"
expect 2 "--rank extrapolation needs --train" "--rank extrapolation without --train" -- compare "$ext" --rank extrapolation
expect 2 "not 'extrapolate'; did you mean 'extrapolation'?" "--rank misspelt" -- compare "$ext" --rank extrapolate
# Issue 29, item 10: compare and validate --csv print their tables as CSV.
expect 0 '^rank,model,k,rows,failed,sse,aicc,bic,akaike_weight,mape,cv_mape,extrapolation_mape,max_abs_correlation,at_bound,over_parameterised,poorly_determined$' \
	"compare --csv: a header line" -- compare "$ext" --train 'p <= 4' -q --csv
expect 0 '^1,comm-linear,3,16,false,8.05' "and a line a candidate, in the ranking's order" -- compare "$ext" --train 'p <= 4' -q --csv
expect 0 '^2,cubic,5,16,false,.*,0,true,$' "over-parameterised, nothing poorly determined" -- compare "$ext" --train 'p <= 4' -q --csv
expect 2 "--json and --csv: choose one" "compare --json --csv" -- compare "$ext" -q --json --csv
expect 2 "--csv prints one ranking: not with groups" "compare --csv --by" -- compare "$ext" -q --csv --by p
expect 0 '^row,line,fold,p,n,observed,predicted,error_pct,interval95_lo,interval95_hi,distance$' \
	"validate --csv: a header line" -- validate "$ernest" --train 'p <= 12' -q --csv
expect 0 '^0,2,0,32,0.125,7.9451680183400004,' "and a line a predicted row" -- validate "$ernest" --train 'p <= 12' -q --csv
expect 2 "--json and --csv: choose one" "validate --json --csv" -- validate "$ernest" --train 'p <= 12' -q --json --csv
expect 2 "--csv prints one table: not with groups" "validate --csv --by" -- validate "$ernest" --kfold 3 -q --csv --by p
# The model's seed (fit.optimizer.seed) deals the folds of validate --kfold
# and compare when --seed is not given, as it seeds everything else.
sed -e 's/^  loss: sse$/  loss: sse\n  optimizer: {seed: 7}/' \
	-e "s|file: \.\./datasets|file: $(cd "$srcdir" && pwd)/datasets|" \
	"$ernest" >"$work/seed7.yaml"
folds() { "$SCALEFIT" validate "$@" --kfold 3 --json -q | grep '"fold"' | tr -d ' \n'; }
cv_mape() { "$SCALEFIT" compare "$@" --kfold 3 --json -q | grep '"cv_mape"'; }
check_seed() { # DESCRIPTION MODEL_7 SEED_7 SEED_1 MODEL_7_SEED_1
	if [ -n "$2" ] && [ "$2" = "$3" ] && [ "$2" != "$4" ] && [ "$5" = "$4" ]; then
		pass "$1"
	else
		echo "FAIL: $1"
		printf '  | %s\n' "model seed 7: $2" "--seed 7: $3" "--seed 1: $4" "model 7, --seed 1: $5"
		failed=$((failed + 1))
	fi
}
check_seed "validate --kfold deals folds with the model's seed" \
	"$(folds "$work/seed7.yaml")" "$(folds "$ernest" --seed 7)" \
	"$(folds "$ernest" --seed 1)" "$(folds "$work/seed7.yaml" --seed 1)"
check_seed "compare deals folds with the model's seed" \
	"$(cv_mape "$work/seed7.yaml")" "$(cv_mape "$ernest" --seed 7)" \
	"$(cv_mape "$ernest" --seed 1)" "$(cv_mape "$work/seed7.yaml" --seed 1)"
# A warning about a term points at the term (not at the last parameter).
sed -e 's/^terms:/terms:\n  e: 2/' \
	-e "s|file: \.\./datasets|file: $(cd "$srcdir" && pwd)/datasets|" \
	"$ernest" >"$work/shadow.yaml"
line=$(grep -n '^  e: 2' "$work/shadow.yaml" | cut -d: -f1)
expect 0 "shadow.yaml:$line:3: term 'e' shadows the constant e" "a warning about a term points at the term" -- check "$work/shadow.yaml"

# discover: a model with data and inputs only; bad settings are usage
# errors; the winner's file is a model every command takes.
data_dir=$(cd "$srcdir" && pwd)/datasets
cat >"$work/spark.yaml" <<EOF
name: spark
data: {file: $data_dir/ernest_spark_rcv1/spark_lr_rcv1.csv, output: time_s}
inputs: {p: cores, n: input_fraction}
fit: {loss: sse}
EOF
expect 0 '^Find the formula from the data' "discover --help" -- discover --help
expect 0 "searched [0-9]* formulas" "discover a model without a formula" -- discover "$work/spark.yaml" -q
expect 0 '"formulas_per_second"' "discover --json" -- discover "$work/spark.yaml" --json -q
# The clock's fields sit under a key named seconds, so that tools drop them.
"$SCALEFIT" discover "$work/spark.yaml" --json -q >"$work/d.json" 2>/dev/null
# shellcheck disable=SC2016
awk 'skip { if ($0 ~ "^" pad "}") skip = 0; next }
	/"seconds": \{$/ { match($0, /^ */); pad = substr($0, 1, RLENGTH); skip = 1; next }
	/"seconds":/ { next }
	{ print }' "$work/d.json" >"$work/d-stripped.json"
if grep -q '"formulas_per_second"' "$work/d.json" &&
	! grep -q -e '_per_second' -e '"elapsed"' "$work/d-stripped.json" &&
	grep -q '"evaluated"' "$work/d-stripped.json"; then
	pass "discover --json: the clock's fields under seconds"
else
	fail "discover --json: the clock's fields under seconds"
fi
expect 0 "^n / p$" "discover --shapes lists the grammar" -- discover "$work/spark.yaml" --shapes
expect 0 "\"shapes\": \[" "discover --shapes --json: the shapes as JSON" -- discover "$work/spark.yaml" --shapes --json
expect 2 "max-terms needs a whole number from 1 to 8, not '9'" "discover --max-terms too large" -- discover "$work/spark.yaml" --max-terms 9
expect 2 "beam needs a whole number from 1" "discover --beam 0" -- discover "$work/spark.yaml" --beam 0
expect 2 "budget needs a whole number from 1 to 1000000" "discover --budget text" -- discover "$work/spark.yaml" --budget many
expect 2 "extrapolate: 'q' is not an input; did you mean 'p'" "discover --extrapolate unknown" -- discover "$work/spark.yaml" --extrapolate q
expect 2 "train:1:1: unknown name 'q'" "discover --train with an unknown name" -- discover "$work/spark.yaml" --train 'q <= 16'
expect 2 "hold 2 values of p: forward chaining needs at least 3" "discover with too few levels" -- discover "$work/spark.yaml" --train 'p <= 12'
expect 2 "discover_tie_range.yaml:2:17: discover.tie must be between 0 and 1" "discover: a bad discover: block" -- \
	discover "$srcdir/tests/data/model/bad/discover_tie_range.yaml"
printf 'discover: {extrapolate: cores}\n' >>"$work/spark.yaml"
expect 2 "spark.yaml:5:25: discover.extrapolate: 'cores' is not an input" "discover: a block naming a column, not an input" -- \
	discover "$work/spark.yaml"
sed -i '$d' "$work/spark.yaml"
expect 2 "has no 'time'.*discover" "fit on a model without a formula says discover can find one" -- fit "$work/spark.yaml"
expect 0 "model generic" "discover ranks a models: file's formulas on the board" -- \
	discover "$srcdir/expressions/ddp-candidates.yaml" --max-terms 2 -q
# The quick start's data: searched again on p <= 3, the search's choice
# predicts p = 4 worse than the file's formula does (README, job 4).
expect 0 "the search lost" "discover: the held-back check gives the answer to the file's formula" -- \
	discover "$srcdir/expressions/ddp-generic.yaml" -o "$work/ddp-found.yaml"
expect 0 "fit of ddp-generic" "fit takes the file's formula discover wrote" -- \
	fit "$work/ddp-found.yaml" -q
# On p <= 3 the search holds and writes an ensemble; its report prints the
# commands that rank the runs telling the formulas apart, and they run as
# printed (the path's space and quote quoted for the shell).
mkdir "$work/a d'ir"
expect 0 "each tells and costs:$" "discover: an ensemble's report names the run that tells it apart" -- \
	discover "$srcdir/expressions/ddp-generic.yaml" --train 'p <= 3' -o "$work/a d'ir/found3.yaml"
sed -n 's/^    scalefit /"$SCALEFIT" /p' "$work/out" >"$work/next.sh"
if [ "$(wc -l <"$work/next.sh")" -eq 2 ] &&
	grep -q -e "--target p=6,b=[0-9.]*,n=[0-9]* --over p=3,6$" "$work/next.sh" &&
	SCALEFIT=$SCALEFIT sh "$work/next.sh" >"$work/next.out" 2>&1 &&
	grep -q "^next run for the ensemble of 5 formulas" "$work/next.out"; then
	pass "discover: the fit and next commands it prints run as printed"
else
	fail "discover: the fit and next commands it prints run as printed"
	sed 's/^/  | /' "$work/next.sh" "$work/next.out"
fi
# An output path that begins with - is printed as ./-..., which no command
# reads as an option; with --to at the top level, inside the rows where
# the members agree, no commands.
top=$(cd "$srcdir" && pwd)
case $SCALEFIT in
/*) binary=$SCALEFIT ;;
*) binary=$(pwd)/$SCALEFIT ;;
esac
if (cd "$work" && "$binary" discover "$top/expressions/ddp-generic.yaml" \
	--train 'p <= 3' -o -dash.yaml >dash.out 2>&1 &&
	sed -n 's/^    scalefit /"$SCALEFIT" /p' dash.out >dash.sh &&
	grep -q "^\"\$SCALEFIT\" fit \./-dash\.yaml -o \./-dash\.json$" dash.sh &&
	SCALEFIT=$binary sh dash.sh >dash-next.out 2>&1 &&
	grep -q "^next run for the ensemble" dash-next.out); then
	pass "discover: a - path printed as ./- and run as printed"
else
	fail "discover: a - path printed as ./- and run as printed"
fi
expect 0 "apart (\`next\` ranks the runs that do)" "discover --to at the top level: no commands" -- \
	discover "$srcdir/expressions/ddp-generic.yaml" --train 'p <= 3' --to 3 -o "$work/at-top.yaml"
lacks "^    scalefit next" "discover --to at the top level prints no next"
expect 0 '"next_target": "p=6,b=' "discover --json: next's target where the ensemble parts" -- \
	discover "$srcdir/expressions/ddp-generic.yaml" --train 'p <= 3' --json -q
# Its members are four found formulas and the file's ddp-generic: the two
# sides weigh the same (4 against 1 each), in the file, the JSON and fit.
if [ "$(grep -c "weight: 1  # the search's side" "$work/a d'ir/found3.yaml")" -eq 4 ] &&
	grep -q "weight: 4  # the model file's side" "$work/a d'ir/found3.yaml" &&
	tr -d ' \n' <"$work/out" | grep -q '"ensemble_weights":\[1,4,1,1,1\]'; then
	pass "discover: the model file's formula weighs as much as the search's four"
else
	fail "discover: the model file's formula weighs as much as the search's four"
fi
expect 0 "ddp-generic  *0.500 " "fit weighs an ensemble by its weight: keys" -- \
	fit "$work/a d'ir/found3.yaml"
expect 0 "^ensemble: formula 2 of 5 read as one, weight 4 (50% of the mixture)$" "check shows each formula's share of the ensemble" -- \
	check "$work/a d'ir/found3.yaml"
# The disagreement discover reports is what fit and predict give: Gavel's
# LSTM on V100s at 1, 2 and 4 GPUs (its 4-GPU step three times the 2-GPU
# one), init's generic formula against the winner alone (--members 1),
# each fitted and predicted at 8 and 16 GPUs for every batch of the top
# level; the slope through the origin of ln(winner / generic) on the
# doublings 1 and 2.
cat >"$work/gavel.csv" <<'CSV'
p,b,y
1,5,0.009160309451351925
2,5,0.010768677282948117
4,5,0.03156672319954303
1,10,0.012247152197186239
2,10,0.012260234224667264
4,10,0.032927876044464004
1,20,0.015445816223517237
2,20,0.015131553594844431
4,20,0.036037055506828695
1,40,0.022105616787340486
2,40,0.021835811502587996
4,40,0.041653109807956966
1,80,0.035410821231294506
2,80,0.034428422248536025
4,80,0.053470720280741166
CSV
cat >"$work/gavel.yaml" <<'YAML'
name: generic
data: {file: gavel.csv, output: y}
inputs: {p: p, b: b}
parameters:
  a: {min: 0, max: 1}
  c: {min: 0, max: 1}
  l: {min: 0, max: 1}
  w: {min: 0, max: 1}
time: a + c * b + l * log2(p) + w * (p - 1) / p
YAML
for k in 1 2; do
	printf 'p,b\n' >"$work/beyond$k.csv"
	for b in 5 10 20 40 80; do echo "$((4 << k)),$b" >>"$work/beyond$k.csv"; done
done
if ! command -v python3 >/dev/null 2>&1; then
	echo "(python3 not installed: the disagreement is not recomputed)"
elif "$SCALEFIT" discover "$work/gavel.yaml" --members 1 -o "$work/gavel-found.yaml" --json -q >"$work/gavel-d.json" 2>/dev/null &&
	"$SCALEFIT" fit "$work/gavel.yaml" -q -o "$work/gavel-file.json" >/dev/null 2>&1 &&
	"$SCALEFIT" fit "$work/gavel-found.yaml" -q -o "$work/gavel-found.json" >/dev/null 2>&1 &&
	python3 - "$SCALEFIT" "$work" <<'PY'
import json, math, subprocess, sys
scalefit, work = sys.argv[1], sys.argv[2]
def times(fit, grid):
    out = subprocess.run([scalefit, "predict", f"{work}/{fit}", "--grid",
                          f"{work}/{grid}", "--json", "-q"],
                         capture_output=True, text=True, check=True).stdout
    return [p["time"] for p in json.loads(out)["points"]]
sxy = sxx = 0.0
for k in (1, 2):
    for w, f in zip(times("gavel-found.json", f"beyond{k}.csv"),
                    times("gavel-file.json", f"beyond{k}.csv")):
        sxy += k * math.log(w / f)
        sxx += k * k
with open(f"{work}/gavel-d.json") as f:
    said = json.load(f)["discover"]["disagreement"]["per_doubling"]
with open(f"{work}/gavel-found.yaml") as f:
    written = [l for l in f if l.startswith("    disagreement: ")][0]
ok = (abs(said - sxy / sxx) <= 1e-9 * abs(said) and said > 1 and
      float(written.split()[1]) == round(said, 4))
sys.exit(0 if ok else 1)
PY
then
	pass "discover's disagreement is the one fit and predict give, and written"
else
	fail "discover's disagreement differs from fit and predict's, or is not written"
fi
# --to: how far the ensemble's formulas part at a value of the extrapolated
# input the user asks about; at twice the top level, the default's numbers.
ddp="$srcdir/expressions/ddp-generic.yaml"
expect 0 "4.42 doublings beyond the training rows (p = 64," "discover --to: the parting far out" -- \
	discover "$ddp" --train 'p <= 3' --to 64 -q
expect 0 "within the training rows' range (p = 2," "discover --to inside the range" -- \
	discover "$ddp" --train 'p <= 3' --to 2 -q
expect 0 "below the training rows (p = 0.5," "discover --to below the range" -- \
	discover "$ddp" --train 'p <= 3' --to 0.5 -q
"$SCALEFIT" discover "$ddp" --train 'p <= 3' --json -q 2>/dev/null |
	grep -A5 '"ensemble_apart"' >"$work/apart-default"
"$SCALEFIT" discover "$ddp" --train 'p <= 3' --to 6 --json -q 2>/dev/null |
	grep -A5 '"ensemble_apart"' >"$work/apart-6"
if grep -q '"at": 6,' "$work/apart-default" && cmp -s "$work/apart-default" "$work/apart-6"; then
	pass "discover --to at twice the top level is the default"
else
	fail "discover --to at twice the top level is the default"
fi
for bad in 0 -3 inf nan abc; do
	expect 2 "--to needs a value of the extrapolated input > 0, not '$bad'" "discover --to $bad" -- \
		discover "$ddp" --to "$bad"
done
# The held-back check refuted the search: the file's formula leads the
# ensemble, and the refuted formula's parting is not counted (fit.prior).
if grep -q "^    disagreement: 0  # the held-back check refuted the search's winner" "$work/ddp-found.yaml"; then
	pass "discover -o: a refuted search's disagreement is 0"
else
	fail "discover -o: no fit.prior.disagreement 0 in the written file"
fi
expect 0 "fit.prior.disagreement 0)" "fit: the prior's scale beside formulas that agree" -- \
	fit "$work/ddp-found.yaml" -q
sed 's/^    disagreement: 0  #/    disagreement: 0.25  #/' "$work/ddp-found.yaml" >"$work/ddp-apart.yaml"
expect 0 "parting 25% per doubling" "fit: the prior's scale counts a disagreement" -- \
	fit "$work/ddp-apart.yaml" -q
expect 0 '"refuted": true' "discover --json: the held-back check" -- \
	discover "$srcdir/expressions/ddp-generic.yaml" --json -q
cp "$work/spark.yaml" "$work/spark.keep"
expect 2 "is the model file .*: it would be overwritten" "discover -o onto its model file" -- discover "$work/spark.yaml" -o "$work/spark.yaml"
if cmp -s "$work/spark.yaml" "$work/spark.keep"; then
	pass "discover never writes over its model file"
else
	fail "discover -o changed its model file"
fi
expect 0 "wrote $work/found.yaml" "discover -o writes the winner" -- discover "$work/spark.yaml" --train 'p <= 16' -o "$work/found.yaml" -q
expect 0 "1 model ready to fit" "check takes the written model" -- check "$work/found.yaml" -q
expect 0 "fit of spark-discovered" "fit takes the written model" -- fit "$work/found.yaml" -q -o "$work/found.json"
expect 0 "predicted 1 rows" "validate --train takes the written model" -- validate "$work/found.yaml" --train 'p <= 16' -q
expect 0 "^   1 spark-discovered" "compare takes the written model" -- compare "$work/found.yaml" -q
expect 0 "fastest" "scale takes its fit" -- scale "$work/found.json" --over p=4:64 --set n=1 -q

# where: leaves out the rows where it is NaN (an empty cell, a domain
# error), with a warning, as it leaves out those where it is 0.
printf 'x,keep,time\n1,1,2\n2,,3\n3,0,4\n4,1,5\n' >"$work/d.csv"
printf 'name: w\ninputs:\n  p: x\nparameters:\n  a: {min: 0, max: 10}\n  b: {min: 0, max: 10}\ntime: a + b * p\ndata:\n  file: d.csv\n  output: time\n  where: keep\n' >"$work/w.yaml"
expect 0 "2 left out by where: keep; 2 rows to fit" "where: keep leaves out an empty keep" -- check "$work/w.yaml"
expect 0 "1 rows left out because the where filter is NaN" "and says so" -- check "$work/w.yaml"
sed 's/where: keep/where: "log(x - 3)"/' "$work/w.yaml" >"$work/w2.yaml"
expect 0 "3 left out by where: log(x - 3); 1 rows to fit" "where: log(x - 3) leaves out x = 1, 2" -- check "$work/w2.yaml"

# data.unit: checked, carried in FIT.json, shown in headers and the chart.
printf 'x,time\n1,3\n2,5\n3,7\n4,9.1\n' >"$work/u.csv"
printf 'name: u\ninputs:\n  p: x\nparameters:\n  a: {min: 0, max: 10}\n  b: {min: 0, max: 10}\ntime: a + b * p\ndata:\n  file: u.csv\n  output: time\n  unit: min\n' >"$work/u.yaml"
sed 's/unit: min/unit: mins/' "$work/u.yaml" >"$work/u-bad.yaml"
expect 2 "u-bad.yaml:11:9: unknown data.unit 'mins'; did you mean 'min'?" "check refuses an unknown data.unit at its place" -- check "$work/u-bad.yaml"
expect 0 '"unit": "min"' "data.unit goes into FIT.json" -- fit "$work/u.yaml" -q -o "$work/u.json" --json
expect 0 '^ *p *time (min) ' "predict's header says the model's unit" -- predict "$work/u.json" --at p=2 -q
expect 0 '^ *p *time (h) ' "predict --unit h" -- predict "$work/u.json" --at p=2 -q --unit h
expect 2 "unknown --unit 'hr' (s, ms, min or h); did you mean 'h'" "predict --unit hr is refused" -- predict "$work/u.json" --at p=2 --unit hr
expect 0 '^ *p *time (min) ' "scale's header says the model's unit" -- scale "$work/u.json" --over p=1:8 -q --plot "$work/u.svg"
if grep -q '>time (minutes)<' "$work/u.svg"; then
	pass "the chart's time axis names the unit"
else
	fail "the chart's time axis lacks the unit"
fi
expect 0 '^ *p *time (s) ' "scale --unit s overrides data.unit" -- scale "$work/u.json" --over p=1:8 -q --unit s

# The YAML escape \0 is refused where it is, not read as the end of the
# string.
sed 's/^time: .*/time: "a + b * p\\0 + 1000*zz"/' "$work/w.yaml" >"$work/nul.yaml"
expect 2 "nul.yaml:7:7: a NUL character" "a backslash-0 escape in a string is refused at its place" -- check "$work/nul.yaml"

# Inputs are bounded (scalefit(1) LIMITS): /dev/zero fails at once.
expect 2 "larger than the 16 MiB a model file may have" "check /dev/zero" -- check /dev/zero
expect 2 "/dev/zero:1:1: a NUL byte" "predict --grid /dev/zero" -- predict "$work/fit.json" --grid /dev/zero
if truncate -s 1025M "$work/big.csv" "$work/big.json" 2>/dev/null; then
	expect 2 "big.csv: larger than the 1024 MiB a CSV file may have" "a CSV file over 1 GiB" -- check "$work/w.yaml" "$work/big.csv"
	expect 2 "big.json: larger than the 1024 MiB a fit file may have" "a FIT.json over 1 GiB" -- predict "$work/big.json" --at p=1
	rm -f "$work/big.csv" "$work/big.json"
fi

# Threads from the environment are capped, with a warning.
OMP_NUM_THREADS=100000 expect 0 "OMP_NUM_THREADS=100000 is more than the 1024 threads" "OMP_NUM_THREADS=100000 is capped" -- fit "$ernest" -q
expect 2 "threads needs a whole number from 1 to 1024" "--threads above the cap" -- fit "$ernest" --threads 1025

# Control characters from a model file reach the terminal escaped, even
# inside libyaml's own "control characters are not allowed".
printf 'name: "\033]0;owned\007"\n' >"$work/esc.yaml"
expect 2 'x1b]0;owned' "a raw escape in a model file is shown as \\x1b" -- check "$work/esc.yaml"
if grep -q "$(printf '\033')" "$work/out" "$work/err"; then
	fail "an escape character reached the terminal"
else
	pass "no escape character reached the terminal"
fi

# predict refuses a corrupted FIT.json and skips failed replicates.
"$SCALEFIT" fit "$ernest" -q --bootstrap 11 -o "$work/boot.json" >/dev/null
sed '/"covariance": \[/{n;n;s/\( *\)\([0-9]\)/\1-\2/;}' "$work/boot.json" >"$work/negvar.json"
expect 2 "negvar.json:[0-9]*:[0-9]*: covariance\[0\]\[0\] is a variance and should be >= 0" \
	"a negative variance in FIT.json is refused with its place" -- predict "$work/negvar.json" --at p=64,n=1
# null_samples FIRST LAST: replicates FIRST to LAST (from 1) written as
# fit --bootstrap writes a failed one, all nulls.
null_samples() {
	awk -v first="$1" -v last="$2" '
		/"samples": \[/ { in_samples = 1; print; next }
		in_samples && /^ *\[$/ { k++ }
		in_samples && k >= first && k <= last && /[0-9]/ { sub(/-?[0-9][0-9.eE+-]*/, "null") }
		in_samples && /^ *\]$/ && !/^      / { in_samples = 0 }
		{ print }' "$work/boot.json"
}
null_samples 2 2 >"$work/failed1.json"
expect 0 "bootstrap band" "a failed (all-null) replicate is skipped" -- predict "$work/failed1.json" --at p=64,n=1
null_samples 2 11 >"$work/one.json"
sed 's/"scalefit_version": "[0-9]*\./"scalefit_version": "99./' "$work/boot.json" >"$work/v99.json"
expect 0 "v99.json: written by scalefit 99\." "a FIT.json of a later major version is read with a warning" -- predict "$work/v99.json" --at p=64,n=1
expect 0 "95% band (mean)" "one usable replicate: predict still answers" -- predict "$work/one.json" --at p=64,n=1
if grep -q "bootstrap band" "$work/out"; then
	fail "one replicate gave a bootstrap band"
else
	pass "fewer than 5 usable replicates give no bootstrap band"
fi

# check refuses what fit would: bounds too far apart, a population above
# the maximum, each at its place.
sed 's/  a: {min: 0, max: 10}/  a: {min: -1e308, max: 1e308}/' "$work/w.yaml" >"$work/wide.yaml"
expect 2 "wide.yaml:5:25: parameter 'a' has bounds \[-1e308, 1e308\] too far apart" "check refuses bounds of +-1e308" -- check "$work/wide.yaml"
printf 'fit: {optimizer: {population: 1e9}}\n' | cat "$work/w.yaml" - >"$work/pop.yaml"
expect 2 "pop.yaml:12:31: population must be at most 1000000, not 1e9" "check refuses population: 1e9" -- check "$work/pop.yaml"

# scale never answers inf or NaN with status 0.
expect 2 "the fastest n over -1e+308 to 1e+308 is not a finite number" "scale --over n=-1e308:1e308" -- scale "$work/boot.json" --over n=-1e308:1e308 --set p=8
expect 2 "the least cost over 1 to 64 is not a finite number" "scale --cost 1e308" -- scale "$work/boot.json" --over p=1:64 --set n=1 --cost 1e308
# ... and its answers come from the values swept: a list's from its values.
expect 0 "overtakes .* at p = 1e+300$" "scale --over p=1,1e300: the crossover is a listed p" -- scale "$work/boot.json" --over p=1,1e300 --set n=1 -q
expect 0 "(searched the 2 values listed)" "scale --over p=1,1e300 searched the list" -- scale "$work/boot.json" --over p=1,1e300 --set n=1 -q

# Messages name what they are about.
echo '[]' >"$work/array.json"
expect 2 "array.json:1:1: the file's top level should be an object, not an array" "predict on [] names the top level" -- predict "$work/array.json" --at p=1

printf 'x,keep,time\r1,1,2\r2,1,3\r3,0,4\r16,1,16\r' >"$work/cr.csv"
expect 2 "cr.csv:1:12: a carriage return inside a line" "a CR-only CSV is named as such" -- check "$work/w.yaml" "$work/cr.csv"

# A full stdout must not look like success.
if [ -w /dev/full ]; then
	if "$SCALEFIT" --help >/dev/full 2>"$work/err"; then
		fail "writing to /dev/full succeeded"
	else
		pass "write error on stdout is an error"
	fi
	for c in fit predict scale validate compare next; do
		"$SCALEFIT" $c --help >/dev/full 2>"$work/err"
		got=$?
		if [ "$got" -eq 2 ] && grep -q "could not write standard output" "$work/err"; then
			pass "$c --help >/dev/full exits 2"
		else
			fail "$c --help >/dev/full exits $got"
		fi
	done
	rm -f "$work/full.json"
	"$SCALEFIT" fit "$ernest" -q -o "$work/full.json" >/dev/full 2>"$work/err"
	got=$?
	if [ "$got" -eq 2 ] && [ ! -e "$work/full.json" ]; then
		pass "fit -o F >/dev/full exits 2 and writes no F"
	else
		fail "fit -o F >/dev/full exits $got, F $(ls "$work/full.json" 2>/dev/null || echo absent)"
	fi
fi

# The first hour with one's own data: the formula library, the data
# overrides, init, standard input.
SCALEFIT_LIBRARY="$work/nowhere"; export SCALEFIT_LIBRARY
expect 2 "nowhere/expressions: no formula library here (set SCALEFIT_LIBRARY" "formulas without a library" -- formulas
SCALEFIT_LIBRARY=$(cd "$srcdir" && pwd); export SCALEFIT_LIBRARY
expect 0 '^@ddp-generic  *p, b, n  *Generic data-parallel training time' "formulas: a line a formula, its inputs, its description" -- formulas
expect 0 '^@ddp-candidates  *p, b, n  *Four candidate formulas' "formulas: a models: file's inputs and opening comment" -- formulas
expect 0 '^formula  *inputs  *description$' "formulas: a header line" -- formulas
for f in "$srcdir"/expressions/*.yaml; do
	f=$(basename "$f" .yaml)
	if ! "$SCALEFIT" formulas | grep -q "^@$f "; then
		fail "formulas lists $f"
	elif ! grep -q "expressions/$f.yaml" "$srcdir/Makefile.am"; then
		fail "make install installs expressions/$f.yaml"
	else
		passed=$((passed + 1))
	fi
done
expect 0 "^fit of ernest to" "fit @NAME: a library formula" -- fit @ernest -q
expect 2 "no formula 'ernst'; did you mean '@ernest'?" "an unknown library formula" -- fit @ernst
own="$work/own.csv"
cp "$srcdir/tests/data/compare/two-models.csv" "$own"
# Issue 29, item 9: a warning about an input --input overrode is at the
# option, not at the file's line it replaced.
printf 'data: {output: epoch_time_s}\ninputs:\n  p: gpus\n  b: global_batch / gpus\nparameters:\n  a: {min: 0, max: 100}\ntime: a / p\n' >"$work/unused.yaml"
expect 0 "^scalefit: warning: --input b: input 'b' is not used by the formula$" \
	"a warning about an overridden input names --input" -- check "$work/unused.yaml" "$own" --input p=workers --input b=workers
lacks "global_batch / gpus" "and quotes not the file's line it replaced"
expect 2 "--input: .*ernest.yaml has no input 'q'; its inputs are: p, n; did you mean 'p'?" \
	"--input names an input the model lacks" -- check @ernest "$own" --input q=workers
expect 2 "^scalefit: error: --input p: column 1: .*own.csv has no column 'wrkers'; its columns are: model, workers, epoch_time_s; did you mean 'workers'?" \
	"an error in --input points at the option" -- check @ernest "$own" --input p=wrkers --input n=workers --output-column epoch_time_s
expect 2 "^scalefit: error: --input p: column 1: .*own.csv lacks 2 columns the model reads: 'wrkers' (input p), 'input_fraction' (input n); try --input p=workers --input n=COLUMN; its columns are: model, workers, epoch_time_s" \
	"columns missing for two inputs: one error, the nearest columns" -- check @ernest "$own" --input p=wrkers --output-column epoch_time_s
expect 2 "^scalefit: error: --where: column 16: .*has no column 'modle'" "and in --where" \
	-- fit @ernest "$own" --where "workers > 1 && modle == 'cnn'" --input p=workers --input n=workers --output-column epoch_time_s
expect 2 "^scalefit: error: --where: column 16: .*lacks 4 columns the model reads: 'modle' (where:, did you mean 'model'?), 'time_s' (the output), 'cores' (input p), 'input_fraction' (input n); try --output-column COLUMN --input p=COLUMN --input n=COLUMN" \
	"a misspelt --where among other missing columns" -- fit @ernest "$own" --where "workers > 1 && modle == 'cnn'"
expect 2 "ernest.yaml:15:11: .*own.csv lacks 3 columns the model reads: 'time_s' (the output), 'cores' (input p), 'input_fraction' (input n); try --output-column COLUMN --input p=COLUMN --input n=COLUMN; its columns are: model, workers, epoch_time_s" \
	"a column the data lacks: the data's columns" -- check @ernest "$own"
printf 'name: m\ndata: {file: own.csv, where: "network == %s"}\ninputs: {p: workers}\nparameters: {s: {min: 0, max: 100}}\ntime: s / p\n' "'cnn'" >"$work/filtered.yaml"
expect 2 "filtered.yaml:2:30: .*own.csv has no column 'network'; .*; --where '' drops the model's filter" \
	"a filter over a column the data lacks" -- check "$work/filtered.yaml" --output-column epoch_time_s
expect 0 "ok: 1 model ready" "--where '' drops it" -- check "$work/filtered.yaml" --output-column epoch_time_s --where ''
expect 2 "'CNN' is not a value of column 'model' (its 2 values: cnn, mlp)" "an unknown string in --where lists the values" \
	-- check "$work/filtered.yaml" --output-column epoch_time_s --where "model == 'CNN'"
for c in validate compare discover; do
	expect 2 "^scalefit: error: --where: column 1: .*has no column 'nodes'" "$c takes --where" \
		-- $c "$work/filtered.yaml" --output-column epoch_time_s --where 'nodes > 1' $([ $c = validate ] && echo --kfold 3)
done
expect 0 "fit of ernest to .*own.csv: 12 rows" "fit a library formula to one's own columns" \
	-- fit @ernest "$own" --input p=workers --input n=1 --output-column epoch_time_s --where "model == 'cnn'" -q
expect 0 '^  p: "workers"  #' "init guesses p from workers" -- init "$own"
expect 0 '^  output: "epoch_time_s"' "init guesses the output" -- init "$own"
expect 0 "# where: \"model == 'cnn'\"  # 2 values: cnn, mlp" "init shows the where: choices" -- init "$own"
"$SCALEFIT" init "$own" -o "$work/own.yaml"
expect 2 "-o .*own.yaml exists; choose another name, or add --force" "init never replaces a model unasked" -- init "$own" -o "$work/own.yaml"
expect 0 "ok: 1 model ready to fit" "init's model checks against its data" -- check "$work/own.yaml"
expect 0 "fit of own to .*own.csv: 24 rows" "and fits" -- fit "$work/own.yaml" -q
expect 2 "-o '.*own.csv' is the data file" "init -o never replaces the data" -- init "$own" -o "$own"
printf 'nodes,global_batch,images,time (s)\n1,64,6400,10\n2,64,6400,6\n4,128,12800,7\n' >"$work/dp.csv"
expect 0 '^  b: "global_batch / nodes"  #' "init: a global batch is divided by p" -- init "$work/dp.csv"
expect 0 '^  output: "time (s)"' "init quotes a column that is not a name" -- init "$work/dp.csv"
"$SCALEFIT" init "$work/dp.csv" -o "$work/dp.yaml"
expect 0 "ok: 1 model ready to fit" "and checks" -- check "$work/dp.yaml"
printf 'x,images_per_sec\n1,2\n' >"$work/rate.csv"
expect 2 "no numeric column looks like the measured time" "init without a time column" -- init "$work/rate.csv"
for c in check fit validate compare discover; do
	expect 0 "--input NAME=EXPR" "$c --help lists the data options" -- $c --help
done
expect 0 "^  init " "help lists init" -- help
expect 0 "^  formulas " "help lists formulas" -- help
# "-": the data from standard input, read once for every model.
stdin_expect() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$SCALEFIT" "$@" <"$own" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -eq "$want" ] && cat "$work/out" "$work/err" | grep -q -e "$pattern"; then
		pass "$what"
	else
		echo "FAIL: $what: exit $got"
		sed 's/^/  | /' "$work/out" "$work/err"
		failed=$((failed + 1))
	fi
}
stdin_expect 0 "fit of cnn to <stdin>: 12 rows" "fit MODEL -" -- fit "$cmpdir/cnn.yaml" - -q
stdin_expect 0 "ok: 2 models ready to fit" "check MODEL - reads the rows once for every model" -- check "$cmpdir/mlp-cands.yaml" -
stdin_expect 0 "^   3 linear " "compare MODEL... -" -- compare "$cmpdir/cnn.yaml" "$cmpdir/mlp-cands.yaml" - -q
stdin_expect 0 "validation of cnn on <stdin> (12 rows)" "validate MODEL -" -- validate "$cmpdir/cnn.yaml" - --kfold 3 -q
stdin_expect 2 "discover writes a model that names its data file" "discover refuses -" -- discover "$cmpdir/cnn.yaml" -
printf 'a,b\n1,2\n' | "$SCALEFIT" fit "$cmpdir/cnn.yaml" - >"$work/out" 2>&1
if [ $? -eq 2 ] && grep -q "<stdin> lacks 3 columns the model reads: 'model' (where:)" "$work/out"; then
	pass "errors in standard input's rows name <stdin>"
else
	fail "errors in standard input's rows name <stdin>"
fi
expect 0 "fitted on the 8 rows where workers <= 8, predicting the other 4" "validate --train over a column, not an input" \
	-- validate "$cmpdir/cnn.yaml" --train 'workers <= 8' -q
expect 0 "fitted on the 12 rows where model == 'cnn', predicting the other 12" "validate --train over a text column" \
	-- validate "$cmpdir/mlp-cands.yaml" --model amdahl --where '' --train "model == 'cnn'" -q
expect 0 "^   1 amdahl .* 2%  0.603" "compare --train over a column" \
	-- compare "$cmpdir/mlp-cands.yaml" --train 'workers <= 8' -q
# The small messages.
printf 'name: m\ndata: {file: own.csv}\ninputs:\n\tp: workers\ntime: p\n' >"$work/tab.yaml"
expect 2 "tab.yaml:4:1: YAML syntax: a tab in the indentation: YAML indents with spaces only" \
	"a tab in YAML's indentation is named" -- check "$work/tab.yaml"
printf 'name: m\ndata: {file: own.csv, output: epoch_time_s}\ninputs: {p: workers}\nparameters: {a: {min: 0, max: 1}}\nterms:\n  t: {expr: max(a, p), kind: compute}\ntime: t\n' >"$work/comma.yaml"
expect 2 "comma.yaml:6:20: unknown key 'p)' in term 't'; a comma inside {...} ends the value: quote a formula with a comma" \
	"an unquoted comma in {expr: ...}: quote it" -- check "$work/comma.yaml"
printf 'name: m\ndata: {file: own.csv, output: epoch_time_s}\ninputs: {p: workers}\nparameters: {a: {min: 0, max: 1}}\nterms:\n  t: {expr: a * p, knd: compute}\ntime: t\n' >"$work/typo.yaml"
expect 2 "typo.yaml:6:20: unknown key 'knd' in term 't'; did you mean 'kind'?" \
	"a misspelt key in {expr: ...} is still a misspelling" -- check "$work/typo.yaml"
sed 's/^mlp,4,\(.*\),[0-9.]*$/mlp,4,\1,/' "$own" | sed '/^mlp,4,/s/,[0-9.]*$/,/' >"$work/gap.csv"
expect 0 "gap.csv:[0-9]*: model 'amdahl': row skipped" "a models: file's warnings name the model (check)" \
	-- check "$cmpdir/mlp-cands.yaml" "$work/gap.csv"
expect 0 "gap.csv:[0-9]*: model 'linear': row skipped" "and compare's" \
	-- compare "$cmpdir/mlp-cands.yaml" "$work/gap.csv"
expect 0 "^    the linear search won (cost [0-9.e-]*, the log one [0-9.e-]*)" "the report says scale auto searched both ways" -- fit @amdahl
"$SCALEFIT" fit @amdahl --scale linear >"$work/out" 2>&1
if grep -q "scale auto" "$work/out"; then
	fail "one search is not reported as two"
else
	pass "one search is not reported as two"
fi
expect 0 "after 1 iteration)" "1 iteration, singular" -- fit "$cmpdir/cnn.yaml" -q
unset SCALEFIT_LIBRARY
# Run from its build tree before make install, the program finds the
# library of the source tree it was built from.
expect 0 '^@ddp-generic ' "formulas without SCALEFIT_LIBRARY: the built tree's library" -- formulas

# Issue 13's messages and limits (the hostile-input campaign).
hostile="$srcdir/tests/hostile"
expect 2 "max-evals needs a whole number >= 1, not '9007199254740993'" \
	"fit --max-evals 2^53+1 is refused, not rounded" -- fit "$ernest" -q --max-evals 9007199254740993
expect 2 "count-2p53.yaml:10:30: max_evals must be at most 9007199254740992" \
	"max_evals: 2^53+1 in a model file is refused at its place" -- check "$hostile/count-2p53.yaml"
expect 1 "it is not finite on 1 of 4 rows: line 2 of .*runs.csv" \
	"a formula not finite on some rows names them" -- fit "$hostile/log-rows.yaml" -q
expect 2 "text-output.csv:4:3: 'oops' is not a number" \
	"a text output column names the cell that made it text" -- check "$hostile/text-output.yaml"
expect 2 "paren.yaml:6:13: missing ')' to close the '(' at line 6, column 7" \
	"a column inside a formula is given as the file's line and column" -- check "$hostile/paren.yaml"

# --residuals: the residuals of more than 100000 rows are left out by
# default (4.1 million rows wrote 778 MB), all or none on request.
awk 'BEGIN { print "p,time"; for (i = 0; i < 100001; i++) { p = 1 + i % 64; printf "%d,%.6g\n", p, 10 + 100 / p } }' \
	>"$work/many.csv"
cat >"$work/many.yaml" <<'MODEL'
inputs: {p: p}
parameters: {a: {min: 0, max: 100}, b: {min: 0, max: 1000}}
time: a + b/p
data: {file: many.csv, output: time}
MODEL
expect 0 "leaves out the residuals of its 100001 rows" "fit -o: residuals of 100001 rows left out, with a warning" -- \
	fit "$work/many.yaml" -o "$work/many.json"
if ! grep -q '"residuals":' "$work/many.json" && grep -q '"residuals_omitted": 100001' "$work/many.json"; then
	pass "the report says how many rows' residuals it left out"
else
	fail "many.json has residuals or lacks residuals_omitted"
fi
expect 0 " 3 .*4[0-9]\.[0-9]" "predict on a fit without residuals" -- predict "$work/many.json" --at p=3
expect 0 "" "fit --residuals all" -- fit "$work/many.yaml" -q --residuals all -o "$work/many-all.json"
if [ "$(grep -c '"observed"' "$work/many-all.json")" -eq 100001 ]; then
	pass "--residuals all writes every row"
else
	fail "--residuals all wrote $(grep -c '"observed"' "$work/many-all.json") rows"
fi
expect 0 "" "predict on a fit with 100001 residuals skips them" -- predict "$work/many-all.json" --at p=3
if "$SCALEFIT" predict "$work/many-all.json" --at p=3 2>&1 | tail -n 1 >"$work/p1" &&
	"$SCALEFIT" predict "$work/many.json" --at p=3 2>&1 | tail -n 1 >"$work/p2" && cmp -s "$work/p1" "$work/p2"; then
	pass "predict answers the same with and without residuals"
else
	fail "predict differs with and without residuals"
fi
expect 0 "" "fit --residuals none" -- fit "$ernest" -q --residuals none -o "$work/none.json"
if ! grep -q '"residuals":' "$work/none.json" && grep -q '"residuals_omitted": 7' "$work/none.json"; then
	pass "--residuals none leaves them out of a small fit"
else
	fail "--residuals none"
fi
expect 2 "--residuals takes auto, all or none, not 'some'" "fit --residuals some" -- fit "$ernest" --residuals some

# --- issue 29: a run's steps, derived from n, p and b ---------------------------
# runs of 50000 samples at batch 32 take max(1, floor(n / (p b))) steps
awk 'BEGIN {
	print "workers,batch,samples,steps,time_s"
	for (p = 1; p <= 16; p *= 2)
		for (r = 0; r < 2; r++) {
			st = int(50000 / (32 * p)); if (st < 1) st = 1
			printf "%d,32,50000,%d,%.6g\n", p, st, (2 + st * (0.05 + 0.002 * 32) + st * 0.01 * log(p) / log(2)) * (1 + 0.01 * (r - 0.5))
		}
}' >"$work/steps.csv"
"$SCALEFIT" init "$work/steps.csv" -o "$work/steps.yaml" >/dev/null 2>&1
if grep -q '^  steps: {derived: "max(1, floor(n / (p \* b)))"}$' "$work/steps.yaml" &&
	grep -q "reproduces column 'steps' on all 10 rows" "$work/steps.yaml"; then
	pass "init writes the steps that reproduce the column, derived"
else
	fail "init writes the steps that reproduce the column, derived"
fi
expect 0 "steps *= max(1, floor(n / (p \* b))) *\[derived input\]" "check lists a derived input" -- \
	check "$work/steps.yaml"
expect 0 "" "fit of a model with a derived input" -- fit "$work/steps.yaml" -q -o "$work/steps.json"
# p = 64 takes floor(50000 / 2048) = 24 steps: a prediction follows them
"$SCALEFIT" predict "$work/steps.json" --at p=64,b=32,n=50000 --json >"$work/p64.json" 2>&1
expect 0 "" "predict of a derived input's model" -- predict "$work/steps.json" --at p=64,b=32,n=50000
if grep -q '"steps": 24' "$work/p64.json" || grep -q '"steps": 24.0' "$work/p64.json"; then
	pass "predict computes the derived steps from p, b and n"
else
	echo "FAIL: predict computes the derived steps from p, b and n"
	sed 's/^/  | /' "$work/p64.json" | grep -i steps
	failed=$((failed + 1))
fi
expect 2 "unknown input 'steps' (inputs: p, b, n)" "a derived input is not given" -- \
	predict "$work/steps.json" --at p=4,b=32,n=50000,steps=3
# without a steps column, whole runs of 256-4096 samples: init fits the
# generic formula with n / (p b) steps, rounded down and rounded up, and
# writes the rounding the runs took (its AICc lower by more than 10)
for rounding in floor ceil smooth; do
	awk -v rounding="$rounding" 'BEGIN {
		print "workers,batch_size,samples,time"
		srand(7)
		for (p = 1; p <= 8; p++)
			for (b = 16; b <= 64; b *= 2)
				for (n = 256; n <= 4096; n *= 4)
					for (r = 0; r < 2; r++) {
						q = n / (p * b)
						st = rounding == "smooth" ? q : rounding == "ceil" ? (q == int(q) ? q : int(q) + 1) : (int(q) < 1 ? 1 : int(q))
						printf "%d,%d,%d,%.6g\n", p, b, n, st * (0.01 + 0.002 * b + 0.03 * (p - 1) / p) * (1 + 0.03 * (rand() - 0.5))
					}
	}' >"$work/whole-$rounding.csv"
done
expect 0 '^  steps: "max(1, floor(n / (p \* b)))"$' "init writes whole steps rounded down" -- init "$work/whole-floor.csv"
expect 0 "^  # whole steps, rounded down: the runs' fit's AICc" "init says why the steps are rounded down" -- init "$work/whole-floor.csv"
expect 0 '^  steps: "ceil(n / (p \* b))"$' "init writes whole steps rounded up" -- init "$work/whole-ceil.csv"
expect 0 '^  steps: "n / (p \* b)"$' "init keeps n / (p b) for runs that take it" -- init "$work/whole-smooth.csv"
expect 0 "^  # steps n / (p \* b): whole steps fit the runs no clearly better (AICc" "init says the whole steps fit no better" -- init "$work/whole-smooth.csv"
"$SCALEFIT" init "$work/whole-floor.csv" -o "$work/whole-floor.yaml" >/dev/null 2>&1
expect 0 "ok: 1 model ready to fit" "init's rounded steps check" -- check "$work/whole-floor.yaml"
printf 'name: col\ndata: {file: steps.csv, output: time_s}\ninputs: {p: workers, b: batch, n: samples, steps: steps}\nparameters: {t0: {min: 0, max: 100}, a: {min: 0, max: 10}}\ntime: "t0 + a * steps"\n' >"$work/col.yaml"
expect 0 "" "fit with steps as a column" -- fit "$work/col.yaml" -q -o "$work/col.json"
expect 0 "steps = 100 is held while p is swept, but in the fitted rows steps is a function of the other inputs and changes with p" \
	"scale warns of a held input the others determine" -- \
	scale "$work/col.json" --over p=1:16 --set b=32,n=50000,steps=100
expect 0 "" "no such warning for the derived model" -- scale "$work/steps.json" --over p=1:16 --set b=32,n=50000
grep -q "is held while" "$work/err" && { echo "FAIL: a derived input warned of"; failed=$((failed + 1)); } ||
	{ echo "ok: a derived input is not warned of"; passed=$((passed + 1)); }
printf 'name: bad\ndata: {file: steps.csv, output: time_s}\ninputs: {p: workers, s: {derived: "a * p"}}\nparameters: {a: {min: 0, max: 1}}\ntime: "s"\n' >"$work/bad.yaml"
expect 2 "bad.yaml:3:.*derived input 's' uses a fitted parameter" "a derived input may not use a parameter" -- \
	check "$work/bad.yaml"

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
