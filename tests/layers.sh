#!/bin/sh
# layers.sh - the source tree's one-way data flow, checked.
#
# src/ has one folder per stage of the pipeline, listed below from the
# bottom up.  A file may include headers of its own folder and of folders
# below it, never above, always as "folder/name.h"; and no two modules
# (NAME.c with NAME.h) may include each other, directly or round a longer
# cycle.  HACKING.md draws the stages.  Exits 1 naming every offending
# include.
#
# The command line calls the library's pipeline (run/: one call per
# command) rather than its internals, so that a command's work cannot creep
# back into cli/: a file of cli/ includes cli/, run/ and base/ headers
# only, and of the others just these, for what they are needed for:
#   input/csv.h       init reads the CSV it guesses a model from
#   input/scaffold.h  init's guess of the columns (run/init writes the
#                     model from it)
#   input/library.h   formulas lists the formula library
set -eu
srcdir=${srcdir:-.}
cd "$srcdir/src"

stages="base expr solve input fit use discover run api cli"
cli_allowed="input/csv.h input/scaffold.h input/library.h"

for f in */*.c */*.h; do
	printf '%s\n' "$f"
done | awk -v stages="$stages" -v cli_allowed="$cli_allowed" '
BEGIN {
	n = split(stages, s, " ")
	for (i = 1; i <= n; i++)
		rank[s[i]] = i
	n = split(cli_allowed, s, " ")
	for (i = 1; i <= n; i++)
		allowed[s[i]] = 1
	bad = 0
}
{
	file = $0
	split(file, part, "/")
	here = part[1]
	if (!(here in rank)) {
		printf "src/%s: folder %s is not a stage (tests/layers.sh lists them)\n", file, here
		bad = 1
		next
	}
	mod = file
	sub(/\.[ch]$/, "", mod)
	line = 0
	while ((getline text < file) > 0) {
		line++
		if (text !~ /^#[ \t]*include[ \t]*"/)
			continue
		inc = text
		sub(/^#[ \t]*include[ \t]*"/, "", inc)
		sub(/".*/, "", inc)
		if (inc !~ /\//) {
			printf "src/%s:%d: include \"%s\" names no folder (write \"%s/%s\")\n", file, line, inc, here, inc
			bad = 1
			continue
		}
		split(inc, ip, "/")
		there = ip[1]
		if (!(there in rank)) {
			printf "src/%s:%d: include \"%s\": no stage %s\n", file, line, inc, there
			bad = 1
		} else if (rank[there] > rank[here]) {
			printf "src/%s:%d: include \"%s\" goes up, from %s to %s\n", file, line, inc, here, there
			bad = 1
		} else if (here == "cli" && there != "cli" && there != "run" &&
		    there != "base" && !(inc in allowed)) {
			printf "src/%s:%d: include \"%s\": the command line calls run/, not %s/ (tests/layers.sh)\n", file, line, inc, there
			bad = 1
		}
		to = inc
		sub(/\.h$/, "", to)
		if (to != mod)
			edge[mod, to] = 1
	}
	close(file)
	modules[mod] = 1
}
function visit(m,    k, pair, t) {
	state[m] = 1
	for (k in edge) {
		split(k, pair, SUBSEP)
		if (pair[1] != m)
			continue
		t = pair[2]
		if (state[t] == 1) {
			printf "src: include cycle through %s and %s\n", m, t
			bad = 1
		} else if (state[t] == 0)
			visit(t)
	}
	state[m] = 2
}
END {
	for (m in modules)
		state[m] = 0
	for (m in modules)
		if (state[m] == 0)
			visit(m)
	exit bad
}'
echo "layers: every include goes down ($stages), no cycle; cli/ calls run/"
