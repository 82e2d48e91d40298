#!/bin/sh
# libfuzzer.sh - build one fuzz target with clang's libFuzzer, AddressSanitizer
# (with LeakSanitizer) and UndefinedBehaviorSanitizer, and fuzz it for a
# given time.
#
#   tests/fuzz/libfuzzer.sh TARGET [SECONDS [LIBFUZZER-OPTION...]]
#
# TARGET is expr, csv, model, fitfile or init; SECONDS defaults to 600.  Run it from the
# top of the source tree.  It needs clang with libFuzzer: on Debian 12 the
# packages clang and libclang-rt-14-dev (libFuzzer and the sanitizer
# runtimes; apt-get installs it with clang unless recommends are off), and
# pkg-config and libyaml-dev as for the build.  It does not use
# ./configure: the target is compiled straight from the few sources it
# needs.
#
# Everything it writes goes to $FUZZ_BUILD (default build-fuzz/):
#   fuzz_TARGET              the libFuzzer binary
#   corpus_TARGET/           the working corpus: the seeds of
#                            tests/fuzz/corpus_TARGET are read, never written;
#                            what the fuzzer finds goes here, and a later run
#                            starts from it
#   TARGET-crash-*, -leak-*, -timeout-*   inputs that failed, if any
#   TARGET.log               the run's output, ending with its statistics
# It exits 0 when the run ended without a crash, leak, timeout or sanitizer
# report, else non-zero.  Reproduce a failing input with
#   $FUZZ_BUILD/fuzz_TARGET FILE
# or with the standalone driver that make check builds:
#   tests/fuzz/fuzz_TARGET FILE
#
# Defaults: one process, -max_total_time=SECONDS -timeout=10
# -rss_limit_mb=2048 -print_final_stats=1, the target's dictionary;
# more options (-jobs=1 -workers=1, -max_len=N, ...) follow SECONDS.
# Example, the ten-minute campaign for each target, one at a time:
#   for t in expr csv model fitfile init; do tests/fuzz/libfuzzer.sh $t 600 || break; done
set -eu

target=${1:?usage: tests/fuzz/libfuzzer.sh expr|csv|model|fitfile|init [SECONDS [OPTION...]]}
seconds=${2:-600}
[ $# -ge 2 ] && shift 2 || shift $#
CC=${CC_FUZZ:-clang}
build=${FUZZ_BUILD:-build-fuzz}

case $target in
expr)
	sources="src/base/error.c src/base/suggest.c src/base/number.c src/base/names.c src/expr/compile.c
		 src/expr/eval.c src/expr/level.c src/expr/lex.c src/expr/parse.c
		 src/expr/scope.c"
	dict=tests/fuzz/expr.dict
	libs= ;;
csv)
	sources="src/base/error.c src/base/sha256.c src/base/number.c
		 src/base/suggest.c src/base/rng.c src/base/units.c src/input/record.c
		 src/input/csv.c"
	dict=
	libs= ;;
model)
	sources="src/base/error.c src/base/suggest.c src/base/number.c src/base/names.c src/expr/compile.c
		 src/expr/eval.c src/expr/level.c src/expr/lex.c src/expr/parse.c
		 src/expr/scope.c src/base/rng.c src/base/units.c src/solve/de.c src/solve/loss.c
		 src/input/schema.c src/input/settings.c src/input/model.c"
	dict=tests/fuzz/yaml.dict
	libs=$(pkg-config --libs yaml-0.1) ;;
init)
	sources="src/base/error.c src/base/suggest.c src/base/number.c src/base/names.c
		 src/base/sha256.c src/base/text.c src/base/yaml_out.c src/base/units.c
		 src/base/rng.c src/expr/codegen.c src/expr/compile.c src/expr/eval.c
		 src/expr/level.c src/expr/lex.c src/expr/parse.c src/expr/scope.c
		 src/solve/de.c src/solve/loss.c src/input/record.c src/input/csv.c
		 src/input/schema.c src/input/settings.c src/input/model.c
		 src/input/dataset.c src/input/formula.c src/input/problem.c
		 src/input/scaffold.c"
	dict=tests/fuzz/init.dict
	libs=$(pkg-config --libs yaml-0.1) ;;
fitfile)
	sources="src/base/error.c src/base/suggest.c src/base/number.c src/base/names.c src/expr/compile.c
		 src/expr/eval.c src/expr/level.c src/expr/lex.c src/expr/parse.c
		 src/expr/scope.c src/input/formula.c src/base/rng.c src/base/units.c src/solve/de.c
		 src/solve/loss.c src/input/schema.c src/input/settings.c
		 src/input/model.c src/use/fitfile.c src/use/fitinterval.c src/use/jsondoc.c"
	dict=tests/fuzz/json.dict
	libs="$(pkg-config --libs yaml-0.1 jansson)" ;;
*)
	echo "libfuzzer.sh: unknown target '$target' (expr, csv, model, fitfile or init)" >&2
	exit 2 ;;
esac

[ -f "tests/fuzz/fuzz_$target.c" ] || {
	echo "libfuzzer.sh: run me from the top of the source tree" >&2
	exit 2
}
mkdir -p "$build/corpus_$target" "$build/obj"
# The version configure would define (fitfile.c compares a file's with it).
version=$(sed -n 's/^AC_INIT(\[scalefit\], \[\([^]]*\)\].*/\1/p' configure.ac)

# compile SOURCE: its object under $build/obj (one per source, shared by
# the targets), printed.
compile() {
	obj="$build/obj/$(printf '%s' "${1%.c}" | tr / _).o"
	if [ ! -f "$obj" ] || [ "$1" -nt "$obj" ] ||
		[ -n "$(find src -name "*.h" -newer "$obj" | head -n 1)" ]; then
		# shellcheck disable=SC2046 # pkg-config's flags are meant to split
		$CC -std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
			-fno-sanitize-recover=undefined -fno-omit-frame-pointer \
			-D_POSIX_C_SOURCE=200809L -DPACKAGE_VERSION="\"$version\"" -Isrc \
			$(pkg-config --cflags yaml-0.1 jansson) -c "$1" -o "$obj" || return 1
	fi
	printf '%s\n' "$obj"
}

# The lists above name what each target needs directly; a module they
# call that came later (a new base/ file) is found at link time: each
# symbol the link misses is looked up among src/*/*.c's definitions and
# its file added, until the link succeeds.
for round in 1 2 3 4 5 6 7 8 9 10; do
	objs=
	for f in $sources "tests/fuzz/fuzz_$target.c"; do
		objs="$objs $(compile "$f")" || exit 1
	done
	# shellcheck disable=SC2086 # the lists are meant to split
	if missing=$($CC -fsanitize=fuzzer,address,undefined $objs $libs -lm \
		-o "$build/fuzz_$target" 2>&1); then
		break
	fi
	added=
	for sym in $(printf '%s\n' "$missing" |
		sed -n "s/.*undefined reference to \`\([A-Za-z_0-9]*\)'.*/\1/p" | sort -u); do
		file=$(grep -l "^$sym(" src/*/*.c | head -n 1)
		[ -n "$file" ] || { printf '%s\n' "$missing" >&2; exit 1; }
		case " $sources $added " in *" $file "*) ;; *) added="$added $file" ;; esac
	done
	[ -n "$added" ] || { printf '%s\n' "$missing" >&2; exit 1; }
	echo "libfuzzer.sh: $target also needs$added" >&2
	sources="$sources$added"
done

set -- -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$build/$target-" \
	${dict:+-dict="$dict"} "$@"
echo "libfuzzer.sh: $build/fuzz_$target $* $build/corpus_$target tests/fuzz/corpus_$target" >&2
status=0
"$build/fuzz_$target" "$@" "$build/corpus_$target" "tests/fuzz/corpus_$target" \
	>"$build/$target.log" 2>&1 || status=$?
# With -jobs, libFuzzer writes each job's output to fuzz-N.log in the
# current directory: append it to the run's log.
for job in fuzz-[0-9]*.log; do
	[ -f "$job" ] || continue
	cat "$job" >>"$build/$target.log"
	rm -f "$job"
done
tail -n 25 "$build/$target.log"
echo "libfuzzer.sh: $target: exit status $status; corpus $build/corpus_$target:" \
	"$(find "$build/corpus_$target" -type f | wc -l) files" >&2
exit $status
