# verdict.sh - sourced by the shell tests (cli.sh, predict.sh,
# expressions.sh) after passed=0 and failed=0: a check's line and count.

# pass DESCRIPTION: print "ok: DESCRIPTION" and count it.
pass() {
	echo "ok: $1"
	passed=$((passed + 1))
}

# fail DESCRIPTION: print "FAIL: DESCRIPTION" and count it.
fail() {
	echo "FAIL: $1"
	failed=$((failed + 1))
}

# judge STATUS DESCRIPTION: pass when STATUS (a condition's $?) is 0,
# else fail.
judge() {
	if [ "$1" -eq 0 ]; then
		pass "$2"
	else
		fail "$2"
	fi
}
