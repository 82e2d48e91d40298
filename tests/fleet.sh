#!/bin/sh
# fleet.sh - fleets of fits from the command line: --by and data.by for fit
# and validate, the groups JSON and -o, predict and scale --group, bad use;
# and, in a build configured --with-mpi, the same runs under mpirun -np 1,
# 2 and 3 against the plain path: byte-identical JSON once the timing
# (seconds) and rank count (ranks) are removed.
#
# Run by `make check`, which sets SCALEFIT, srcdir and MPIRUN (empty in the
# plain build).

SCALEFIT=${SCALEFIT:-./src/scalefit}
srcdir=${srcdir:-.}
work=$(mktemp -d "${TMPDIR:-/tmp}/scalefit-fleet.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
model="$srcdir/tests/data/fleet/fleet.yaml"
data="$srcdir/tests/data/fleet/fleet.csv"

pass() {
	echo "ok: $1"
	passed=$((passed + 1))
}

fail() {
	echo "FAIL: $1"
	[ -s "$work/out" ] && sed 's/^/  | /' "$work/out" | head -20
	[ -s "$work/err" ] && sed 's/^/  | /' "$work/err" | head -20
	failed=$((failed + 1))
}

# expect STATUS PATTERN DESCRIPTION -- ARGS...: exit status and a grep
# pattern of stdout+stderr.
expect() {
	want=$1 pattern=$2 what=$3
	shift 4
	"$SCALEFIT" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$what: exit $got, expected $want"
	elif ! cat "$work/out" "$work/err" | grep -q -e "$pattern"; then
		fail "$what: output lacks '$pattern'"
	else
		pass "$what"
	fi
}

# --- fit --by and data.by ---------------------------------------------------
expect 1 '^job=j07 *6 ' "data.by: one fit per job, a summary line each" -- \
	fit "$model"
expect 1 '52 groups, 2 failed' "data.by: the failures counted" -- fit "$model"
expect 1 'job=empty *0 *failed: no usable row' "a group of unusable rows fails" -- \
	fit "$model"
expect 1 'job=few *1 *failed: too few rows: 1 usable for 2' \
	"a group with fewer rows than constants fails" -- fit "$model"
expect 1 'error: 2 of 52 groups failed: job=empty, job=few' \
	"exit 1 names the failed groups" -- fit "$model"
expect 0 '^framework=tf *150 ' "--by overrides data.by" -- \
	fit "$model" --by framework
expect 1 '^job=j03,framework=tf *6 ' "--by two columns" -- \
	fit "$model" --by job,framework --quiet
expect 0 '== group framework=pt ==' "--details: each group's report" -- \
	fit "$model" --by framework --details
expect 2 "--by: the data has no column named 'jobs'; did you mean 'job'?" \
	"--by: an unknown column, with a hint" -- fit "$model" --by jobs
stdout_lines=$(wc -l <"$work/out")
[ "$stdout_lines" -eq 0 ] && pass "bad --by: nothing on stdout" ||
	fail "bad --by: stdout not empty"
ensemble="$srcdir/tests/data/ensemble/two.yaml"
expect 2 "is an ensemble, fitted on all its rows: it takes no --by; choose one of its formulas with --model NAME" \
	"an ensemble refuses --by (fit), naming --model" -- fit "$ensemble" --by gpu
expect 2 "is an ensemble, fitted on all its rows: it takes no --by" \
	"an ensemble refuses --by (validate)" -- validate "$ensemble" --by gpu --kfold 3
sed 's/^  - name: linear$/  - name: linear\n    fit: {loss: sse}/' "$ensemble" >"$work/mixed.yaml"
agpu="$srcdir/datasets/agpubench_gpu_training/training_times.csv"
expect 2 "is an ensemble whose formulas' errors differ in kind: 'generic' fits with loss relative (multiplicative errors), 'linear' with sse (additive)" \
	"an ensemble of multiplicative and additive errors is refused (fit)" -- fit "$work/mixed.yaml" "$agpu"
expect 2 "errors differ in kind" \
	"an ensemble of multiplicative and additive errors is refused (validate)" -- validate "$work/mixed.yaml" "$agpu" --kfold 3
sed 's/by: job/by: jb/' "$model" >"$work/bad.yaml"
cp "$data" "$work/fleet.csv"
expect 2 "bad.yaml:6:7: data.by: the data has no column named 'jb'; did you mean 'job'?" \
	"data.by: an unknown column at its place" -- fit "$work/bad.yaml"
"$SCALEFIT" fit "$model" - --by framework -q <"$data" >"$work/out" 2>"$work/err"
if [ $? -eq 0 ] && grep -q '^framework=tf *150 ' "$work/out"; then
	pass "--by on data read from standard input"
else
	fail "--by on data read from standard input"
fi
expect 0 "^by:    job: 52 groups" "check: data.by's groups counted" -- check "$model"
expect 2 "bad.yaml:6:7: data.by: the data has no column named 'jb'" \
	"check refuses an unknown data.by column, as fit does" -- check "$work/bad.yaml"
expect 0 "warning: --by framework makes one group only (framework=pt)" \
	"--by with one group only: a warning" -- \
	fit "$model" --by framework --seed 3 "$srcdir/tests/data/fleet/one.csv"

# --- the groups JSON and -o ---------------------------------------------------
"$SCALEFIT" fit "$model" --by framework --json -o "$work/fw.json" >"$work/out" 2>"$work/err"
if [ $? -eq 0 ] && cmp -s "$work/out" "$work/fw.json" &&
	grep -q '"by": \[' "$work/fw.json" &&
	grep -q '"key": {' "$work/fw.json" &&
	grep -q '"framework": "pt"' "$work/fw.json" &&
	grep -q '"label": "framework=tf"' "$work/fw.json"; then
	pass "--json and -o: one groups file, keys and labels"
else
	fail "--json and -o: one groups file, keys and labels"
fi
# Each group's fit is the fit of its rows alone with the group's seed.
"$SCALEFIT" fit "$model" --by framework --json --seed 5 >"$work/a.json" 2>/dev/null
"$SCALEFIT" fit "$model" --by framework --json --seed 5 --threads 1 >"$work/b.json" 2>/dev/null
if grep -v '"seconds"' "$work/a.json" >"$work/a1" &&
	grep -v '"seconds"' "$work/b.json" | sed 's/"threads": 1/"threads": 2/' >"$work/b1" &&
	[ "$(grep -c '"seed"' "$work/a1")" -eq 2 ] &&
	! grep -q '"seed": 5,' "$work/a1"; then
	pass "each group's seed derives from the run's seed and its index"
else
	fail "each group's seed derives from the run's seed and its index"
fi
"$SCALEFIT" fit "$model" --by job --quiet -o "$work/jobs.json" >/dev/null 2>&1
[ -s "$work/jobs.json" ] && pass "-o is written when groups failed (exit 1)" ||
	fail "-o is written when groups failed (exit 1)"

# --- validate --by ----------------------------------------------------------------
expect 0 '^framework=pt *151 *[0-9.]*%' "validate --by: held-out MAPE per group" -- \
	validate "$model" --by framework --kfold 3
expect 1 'job=few *1 *failed: too few rows' "validate --by: failures reported" -- \
	validate "$model" --kfold 3 --quiet

# --- compare and discover --by --------------------------------------------------
rival="$srcdir/tests/data/fleet/amdahl.yaml"
found="$srcdir/tests/data/fleet/discover.yaml"
expect 0 '^framework=tf *150 *[0-9.]*% *- *best: ' "compare --by: the best candidate per group" -- \
	compare "$model" "$rival" --by framework --kfold 3 --quiet
expect 0 '"candidates": \[' "compare --by --json: each group's ranking" -- \
	compare "$model" "$rival" --by framework --kfold 3 --quiet --json
expect 1 'job=few *1 *failed: too few rows' "compare: the first model's data.by" -- \
	compare "$model" "$rival" --kfold 3 --quiet
expect 0 '^framework=pt *151 .*best: .*extrapolation MAPE' "discover --by: a formula per group" -- \
	discover "$found" --by framework --quiet
expect 0 "wrote $work/models/framework_pt.yaml (group framework=pt)" \
	"discover --by -o DIR: a model file per group, DIR made" -- \
	discover "$found" --by framework --quiet -o "$work/models"
if [ -f "$work/models/framework_pt.yaml" ] && [ -f "$work/models/framework_tf.yaml" ] &&
	grep -q "^  where: \"framework == 'tf'\"" "$work/models/framework_tf.yaml" &&
	"$SCALEFIT" check "$work/models/framework_tf.yaml" >"$work/check" 2>&1 &&
	grep -q "150 rows to fit" "$work/check"; then
	pass "discover --by -o DIR: each file checks, keeping its group's rows"
else
	fail "discover --by -o DIR: each file checks, keeping its group's rows"
fi
expect 0 '' "discover --by -o DIR --json: the files' text stays out of the JSON" -- \
	discover "$found" --by framework --quiet -o "$work/models" --json
grep -q model_text "$work/out" && fail "discover --by -o --json: model_text in the JSON" ||
	pass "discover --by -o --json: no model_text in the JSON"
: >"$work/plain"
expect 2 "with groups, -o names a directory of model files" \
	"discover --by -o FILE: refused" -- discover "$found" --by framework -o "$work/plain"
expect 2 "--by reports each group's board: it takes no --shapes" \
	"discover --by --shapes: refused" -- discover "$found" --by framework --shapes
expect 2 "discover.count: 'n' is the extrapolated input" \
	"a bad setting fails the run, not each group" -- \
	discover "$model" --by framework --quiet
# ElasticFlow's jobs with the generic formula: where the held-back check
# refutes the search (Inception-v3: 12.9% against 4.37% at 8 GPUs), the
# row names the file's formula, not the best found
cat >"$work/elasticflow.yaml" <<EOF
data: {file: $(cd "$srcdir" && pwd)/datasets/elasticflow_a100/throughputs.csv, output: step_time_s}
inputs: {p: gpus, b: batch_per_gpu}
parameters: {a: {min: 0, max: 1}, c: {min: 0, max: 1}, l: {min: 0, max: 1}, w: {min: 0, max: 1}}
time: a + c * b + l * log2(p) + w * (p - 1) / p
EOF
expect 0 "^job=inception3 .*kept: the model file's .*the search lost the held-back check" \
	"discover --by: a group whose search lost the held-back check" -- \
	discover "$work/elasticflow.yaml" --by job --train 'p <= 8' --quiet

# --- predict and scale --group ---------------------------------------------------
expect 0 '== group framework=tf ==' "predict: a groups file answers for every group" -- \
	predict "$work/fw.json" --at n=4
"$SCALEFIT" predict "$work/fw.json" --at n=4 --group framework=tf >"$work/one" 2>&1
"$SCALEFIT" predict "$work/fw.json" --at n=4 >"$work/all" 2>&1
tf=$(awk '$1 == 4 { print $2 }' "$work/one")
if [ $? -eq 0 ] && [ -n "$tf" ] && ! grep -q '== group' "$work/one" &&
	sed -n '/== group framework=tf/,$p' "$work/all" | grep -q " $tf "; then
	pass "predict --group: one group, as a plain fit file"
else
	fail "predict --group: one group, as a plain fit file"
fi
expect 0 '"label": "job=j00"' "predict --json over groups: each with its key" -- \
	predict "$work/jobs.json" --at n=4 --json
expect 2 "no group matches --group framework=tff; did you mean 'framework=tf'?" \
	"predict --group: no such group, with a hint" -- \
	predict "$work/fw.json" --at n=4 --group framework=tff
expect 1 "group job=few did not fit: too few rows" "predict --group: a failed group" -- \
	predict "$work/jobs.json" --at n=4 --group job=few
expect 2 "is the fit of one selection of rows, not of groups" \
	"predict --group on a plain fit file" -- \
	predict "$srcdir/tests/data/fit/simple.json" --at p=4 --group a=b
expect 0 "^ *n  framework=pt  95% new run  *framework=tf  95% new run$" \
	"scale: a groups file draws every group, a column each and its interval" -- \
	scale "$work/fw.json" --over n=1:64 --quiet
"$SCALEFIT" scale "$work/fw.json" --over n=1:64 --quiet --plot "$work/fw.svg" >/dev/null 2>&1
if grep -q 'framework=pt' "$work/fw.svg" && grep -q 'framework=tf' "$work/fw.svg"; then
	pass "scale --plot: one chart, a series per group, named by its label"
else
	fail "scale --plot: one chart, a series per group, named by its label"
fi
expect 0 '"label": "framework=tf"' "scale --json: each group's study with its label" -- \
	scale "$work/fw.json" --over n=1:64 --quiet --json
expect 0 'fastest' "scale --group: one group's study" -- \
	scale "$work/fw.json" --over n=1:64 --group framework=pt --quiet

# --- the plain build under mpirun ---------------------------------------------------
if [ -z "$MPIRUN" ]; then
	OMPI_COMM_WORLD_SIZE=2 "$SCALEFIT" fit "$model" >"$work/out" 2>"$work/err"
	if [ $? -eq 2 ] && grep -q "built without MPI but runs as one of 2 copies" "$work/err"; then
		pass "the plain build refuses to run as several copies"
	else
		fail "the plain build refuses to run as several copies"
	fi
fi

# --- MPI: the same bytes at any rank count ----------------------------------------
# strip FILE: the JSON without timing (seconds: a number, or an object
# such as discover's) and rank count (ranks).
strip() {
	# shellcheck disable=SC2016
	awk 'skip { if ($0 ~ "^" pad "}") skip = 0; next }
		/"seconds": \{$/ { match($0, /^ */); pad = substr($0, 1, RLENGTH); skip = 1; next }
		/"seconds":|"ranks":/ { next }
		{ print }' "$1"
}

if [ -n "$MPIRUN" ]; then
	ernest="$srcdir/expressions/ernest.yaml"
	amdahl="$srcdir/expressions/amdahl.yaml"
	ddp="$srcdir/expressions/ddp-generic.yaml"
	# name|args: the runs compared.
	for run in \
		"bootstrap|fit $ernest --bootstrap 60 --json --threads 1" \
		"restarts|fit $ernest --restarts 4 --json --threads 1" \
		"compare|compare $ernest $amdahl --json --threads 1 --quiet" \
		"kfold|validate $ernest --kfold 5 --json --threads 1" \
		"fleet|fit $model --json --threads 1 --quiet" \
		"fleet-bootstrap|fit $model --by framework --bootstrap 20 --json --threads 1 --quiet" \
		"validate-by|validate $model --by framework --kfold 3 --json --threads 1 --quiet" \
		"compare-by|compare $model $rival --by framework --kfold 3 --json --threads 1 --quiet" \
		"discover-by|discover $found --by framework --json --threads 1 --quiet" \
		"discover|discover $ddp --json --threads 1 --quiet" \
		"discover-threads|discover $ernest --beam 16 --json --threads 2 --quiet"; do
		name=${run%%|*}
		args=${run#*|}
		# shellcheck disable=SC2086
		"$SCALEFIT" $args >"$work/plain.json" 2>/dev/null
		want=$?
		for np in 1 2 3; do
			# shellcheck disable=SC2086
			$MPIRUN -np $np "$SCALEFIT" $args >"$work/mpi.json" 2>"$work/err"
			got=$?
			if [ "$got" -eq "$want" ] &&
				strip "$work/plain.json" >"$work/p1" &&
				strip "$work/mpi.json" >"$work/m1" &&
				cmp -s "$work/p1" "$work/m1"; then
				pass "mpirun -np $np: $name, the same bytes"
			else
				diff "$work/p1" "$work/m1" | head -5 >"$work/out"
				fail "mpirun -np $np: $name: exit $got (plain $want), or other bytes"
			fi
		done
	done
	# (--threads: the report says how many threads each fit used.)
	$MPIRUN -np 2 "$SCALEFIT" fit "$model" --by framework --threads 2 -o "$work/mpi-fw.json" >/dev/null 2>&1
	"$SCALEFIT" fit "$model" --by framework --threads 2 -o "$work/plain-fw.json" >/dev/null 2>&1
	strip "$work/mpi-fw.json" >"$work/m1"
	strip "$work/plain-fw.json" >"$work/p1"
	cmp -s "$work/m1" "$work/p1" && pass "mpirun -np 2: -o writes the same file" ||
		fail "mpirun -np 2: -o writes the same file"
	# Every output by rank 0 alone: each rank told a file of its own,
	# only rank 0's is written.
	# shellcheck disable=SC2016
	$MPIRUN -np 2 sh -c 'exec "$0" fit "$1" --by framework -q \
		-o "$2.$OMPI_COMM_WORLD_RANK.json"' "$SCALEFIT" "$model" \
		"$work/each" >/dev/null 2>&1
	$MPIRUN -np 2 sh -c 'exec "$0" scale "$1" --over n=1:64 -q \
		--plot "$2.$OMPI_COMM_WORLD_RANK.svg"' "$SCALEFIT" \
		"$work/plain-fw.json" "$work/each" >/dev/null 2>&1
	if [ -s "$work/each.0.json" ] && [ ! -e "$work/each.1.json" ] &&
		[ -s "$work/each.0.svg" ] && [ ! -e "$work/each.1.svg" ]; then
		pass "mpirun -np 2: rank 0 alone writes -o and --plot"
	else
		fail "mpirun -np 2: rank 0 alone writes -o and --plot"
	fi
	# A chart of a command without units: the same bytes.
	$MPIRUN -np 2 "$SCALEFIT" scale "$work/plain-fw.json" --over n=1:64 -q \
		--plot "$work/mpi.svg" >/dev/null 2>&1
	"$SCALEFIT" scale "$work/plain-fw.json" --over n=1:64 -q \
		--plot "$work/plain.svg" >/dev/null 2>&1
	cmp -s "$work/mpi.svg" "$work/plain.svg" &&
		pass "mpirun -np 2: scale --plot writes the same chart" ||
		fail "mpirun -np 2: scale --plot writes the same chart"
	$MPIRUN -np 2 "$SCALEFIT" fit "$model" --by jobs >"$work/out" 2>"$work/err"
	if [ $? -eq 2 ] && grep -q "no column named 'jobs'" "$work/err"; then
		pass "mpirun: bad use ends every rank with the message"
	else
		fail "mpirun: bad use ends every rank with the message"
	fi
	# discover's candidate formulas are units of work: on 2 ranks each
	# rank scores part of them, so the busier rank's CPU time stays well
	# below a whole run's (about 0.65 of it on 1,125 rows, where scoring
	# outweighs the bookkeeping every rank repeats; CPU time, since other
	# work on the machine changes it less than the wall clock; the least of
	# three runs each, interleaved).  A rank that scored them all would
	# spend as much as the plain run, and more with MPI's start.
	# (times: the shell's children's user and system time, line 2.)
	# shellcheck disable=SC2016
	cpu_script='"$0" discover "$1" --where "$3" --beam 16 --budget 100000 \
		--threads 1 -q --json >/dev/null
		out="$2.${OMPI_COMM_WORLD_RANK:-plain}"
		times >"$out.times"
		awk '"'"'NR == 2 { t = 0; for (i = 1; i <= 2; i++) {
			split($i, a, /[ms]/); t += a[1] * 60 + a[2] } print t }'"'"' \
			"$out.times" >"$out"'
	resnet="network == 'resnet50'"
	plain_cpu=
	rank_cpu=
	for i in 1 2 3; do
		sh -c "$cpu_script" "$SCALEFIT" "$ddp" "$work/cpu" "$resnet"
		$MPIRUN -np 2 sh -c "$cpu_script" "$SCALEFIT" "$ddp" "$work/cpu" \
			"$resnet" >/dev/null 2>&1
		p=$(cat "$work/cpu.plain")
		r=$(cat "$work/cpu.0" "$work/cpu.1" 2>/dev/null |
			awk '{ if ($1 > m) m = $1 } END { print m + 0 }')
		plain_cpu=$(echo "${plain_cpu:-$p} $p" | awk '{ print ($1 < $2 ? $1 : $2) }')
		rank_cpu=$(echo "${rank_cpu:-$r} $r" | awk '{ print ($1 < $2 ? $1 : $2) }')
		rm -f "$work/cpu.0" "$work/cpu.1"
	done
	if awk -v p="$plain_cpu" -v r="$rank_cpu" \
		'BEGIN { exit !(r > 0 && r < 0.85 * p) }'; then
		pass "mpirun -np 2: discover's formulas are shared by the ranks (busier rank ${rank_cpu} s of CPU, one process ${plain_cpu} s)"
	else
		fail "mpirun -np 2: discover's formulas are not shared: busier rank ${rank_cpu} s of CPU, one process ${plain_cpu} s"
	fi
	# A rank that stops early (here rank 1 is given an unknown option)
	# ends the job with its status, no hang, no output file.
	rm -f "$work/early.json"
	# shellcheck disable=SC2016
	$MPIRUN -np 2 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
		exec "$0" fit "$1" --no-such-option; else
		exec "$0" fit "$1" --bootstrap 40 -o "$2"; fi' \
		"$SCALEFIT" "$srcdir/expressions/ernest.yaml" "$work/early.json" \
		>"$work/out" 2>"$work/err"
	if [ $? -eq 2 ] && [ ! -e "$work/early.json" ] &&
		grep -q "another rank of the job stopped with exit status 2" "$work/err"; then
		pass "mpirun: a rank that stops early ends the job, no output"
	else
		fail "mpirun: a rank that stops early ends the job, no output"
	fi
fi

# --- MPI: transfers in pieces ------------------------------------------------------
# tests/test_units is built with pieces of 1000 bytes (instead of 1 GiB):
# its results and reads, tens of kilobytes, travel in many, as more than
# the 2 GiB one MPI call carries would.
# Each rank writes its own report: mpirun interleaves the ranks' lines.
if [ -n "$MPIRUN" ]; then
	units_test=$(dirname "$SCALEFIT")/../tests/test_units
	for np in 2 3; do
		rm -f "$work"/units.*
		ok=1
		# shellcheck disable=SC2016
		$MPIRUN -np $np sh -c 'exec "$0" >"$1.$OMPI_COMM_WORLD_RANK" 2>&1' \
			"$units_test" "$work/units" || ok=0
		r=0
		while [ "$r" -lt "$np" ]; do
			grep -q '^Run Summary' "$work/units.$r" 2>/dev/null &&
				! grep -q FAILED "$work/units.$r" || ok=0
			r=$((r + 1))
		done
		if [ "$ok" = 1 ]; then
			pass "mpirun -np $np: results and reads in pieces (tests/test_units)"
		else
			cat "$work"/units.* >"$work/out" 2>/dev/null
			fail "mpirun -np $np: results and reads in pieces (tests/test_units)"
		fi
	done
fi

# --- MPI: rank 0 reads every input ------------------------------------------------
# The inputs exist only where rank 0 runs: the other ranks start in an
# empty folder (relative paths) or with no formula library, and get rank
# 0's bytes of the model file, the CSV file, standard input, a fit file
# and a library formula.
# mpi_elsewhere ARGS...: the command under mpirun -np 3 from $work/only0,
# ranks other than 0 in $work/elsewhere with SCALEFIT_LIBRARY unusable.
mpi_elsewhere() {
	# shellcheck disable=SC2016
	(cd "$work/only0" && $MPIRUN -np 3 sh -c 'if [ "$OMPI_COMM_WORLD_RANK" != 0 ]; then
		cd ../elsewhere && SCALEFIT_LIBRARY=$PWD/none && export SCALEFIT_LIBRARY; fi
		exec "$@"' sh "$SCALEFIT" "$@")
}

if [ -n "$MPIRUN" ]; then
	case $SCALEFIT in /*) ;; *) SCALEFIT=$PWD/$SCALEFIT ;; esac
	mkdir -p "$work/only0" "$work/elsewhere"
	cp "$model" "$data" "$work/only0/"
	abs_library=$(cd "${SCALEFIT_LIBRARY:-$srcdir}" && pwd)
	# name|args: run in $work/only0 (paths relative to it).
	for run in \
		"model and CSV|fit fleet.yaml --by framework --bootstrap 20 --json --threads 1 --quiet" \
		"CSV on the command line|validate fleet.yaml fleet.csv --by framework --kfold 3 --json --threads 1 --quiet" \
		"fit file|scale fw.json --over n=1:64 --json --quiet" \
		"library formula|fit @ernest --bootstrap 20 --json --threads 1 --quiet" \
		"library list|formulas"; do
		name=${run%%|*}
		args=${run#*|}
		# shellcheck disable=SC2086
		(cd "$work/only0" && SCALEFIT_LIBRARY=$abs_library "$SCALEFIT" $args) >"$work/plain.json" 2>/dev/null
		want=$?
		# shellcheck disable=SC2086
		SCALEFIT_LIBRARY=$abs_library mpi_elsewhere $args >"$work/mpi.json" 2>"$work/err"
		got=$?
		if [ "$want" -eq 0 ] && [ "$got" -eq 0 ] &&
			strip "$work/plain.json" >"$work/p1" &&
			strip "$work/mpi.json" >"$work/m1" &&
			cmp -s "$work/p1" "$work/m1"; then
			pass "mpirun -np 3, inputs on rank 0 only: $name, the same bytes"
		else
			diff "$work/p1" "$work/m1" | head -5 >"$work/out"
			fail "mpirun -np 3, inputs on rank 0 only: $name: exit $got (plain $want), or other bytes"
		fi
		# the fit file the next run reads
		[ "$name" = "model and CSV" ] &&
			(cd "$work/only0" && "$SCALEFIT" fit fleet.yaml --by framework -q -o fw.json >/dev/null 2>&1)
	done
	# Standard input reaches rank 0 alone.
	(cd "$work/only0" && "$SCALEFIT" fit fleet.yaml - --by framework --json --threads 1 -q <fleet.csv) >"$work/plain.json" 2>/dev/null
	mpi_elsewhere fit fleet.yaml - --by framework --json --threads 1 -q <"$work/only0/fleet.csv" >"$work/mpi.json" 2>"$work/err"
	got=$?
	if [ "$got" -eq 0 ] && strip "$work/plain.json" >"$work/p1" &&
		strip "$work/mpi.json" >"$work/m1" && cmp -s "$work/p1" "$work/m1"; then
		pass "mpirun -np 3: standard input read by rank 0, the same bytes"
	else
		fail "mpirun -np 3: standard input read by rank 0: exit $got, or other bytes"
	fi
	# A file rank 0 cannot read (only the others have it): every rank
	# ends with rank 0's message, exit 2, no output.
	cp "$model" "$data" "$work/elsewhere/"
	rm -f "$work/only0/fleet.yaml" "$work/elsewhere.json"
	mpi_elsewhere fit fleet.yaml --by framework -o "$work/elsewhere.json" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" -eq 2 ] && [ ! -e "$work/elsewhere.json" ] &&
		grep -q "fleet.yaml: cannot open the model file" "$work/err" &&
		! grep -q "another rank" "$work/err"; then
		pass "mpirun: an input rank 0 cannot read ends every rank with its message"
	else
		fail "mpirun: an input rank 0 cannot read ends every rank with its message: exit $got"
	fi
fi

echo "fleet: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
