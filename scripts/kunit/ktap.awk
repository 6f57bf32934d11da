# ktap.awk: turn a KUnit console log into per-suite and total pass/fail.
#
#   awk -f ktap.awk console.log
#
# Input: the serial console of a guest that loaded KUnit test modules. Other
# kernel lines are ignored; printk timestamps ("[    1.234567] ") and
# carriage returns are stripped. KUnit nests by four spaces per level:
#
#     KTAP version 1              (level 1) a suite starts
#     # Subtest: ioca-smoke       (level 1) its name
#     1..3                        (level 1) its plan
#         ok 1 - hex way mask     (level 2) a parameter (newer kernels), or
#         # case: ok 1 - hex way mask (level 2) the same, 6.1's form
#     ok 1 - case_a               (level 1) a test case: what is counted
#     ok 2 - case_b # SKIP why    (level 1) a skipped case
# ok 1 - ioca-smoke               (level 0) the suite's verdict
#
# A skipped case counts as passed and is reported as skipped.
# A suite that planned more cases than it reported, or never reported its
# own verdict (the kernel crashed or the log was cut), counts every missing
# case as failed -- and at least one.
#
# Output: for each suite a line "suite NAME: P passed (S skipped), F failed"
# followed by one indented line per failed or skipped case (and failed
# parameters); then "ktap-total: pass=P fail=F skip=S suites=N".

function strip(line) {
	sub(/\r$/, "", line)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", line)
	return line
}

function level(line, n) {
	n = match(line, /[^ ]/) - 1
	return n < 0 ? 0 : int(n / 4)
}

function open_suite(name) {
	if (in_suite)
		close_suite("", 1)
	in_suite = 1
	suite = name
	planned = -1
	s_pass = s_fail = s_skip = 0
	notes = ""
}

# ok: "" when the log ended inside the suite, else the verdict line's status.
function close_suite(ok, cut, missing, ran) {
	ran = s_pass + s_fail
	missing = planned > ran ? planned - ran : 0
	if (cut && missing == 0)
		missing = 1
	if (missing > 0) {
		s_fail += missing
		notes = notes sprintf("    not ok %s (%d case(s) never reported: crash or cut log)\n",
			"<missing>", missing)
	}
	if (!cut && ok == "not ok" && s_fail == 0) {
		s_fail = 1
		notes = notes "    not ok <suite> (suite verdict is not ok, every case passed)\n"
	}
	if (suite == "")
		suite = "<unnamed>"
	printf "suite %s: %d passed (%d skipped), %d failed\n", suite, s_pass, s_skip, s_fail
	printf "%s", notes
	t_pass += s_pass
	t_fail += s_fail
	t_skip += s_skip
	suites++
	in_suite = 0
}

{
	line = strip($0)
	if (line !~ /^ *(KTAP version|TAP version|# Subtest:|[0-9]+\.\.[0-9]+|ok |not ok |# )/)
		next
	lv = level(line)
	body = line
	sub(/^ +/, "", body)
}

# A suite header: "KTAP version" at level 1 may precede "# Subtest:"; only
# the Subtest line names it, so open there (or on a bare level-1 plan).
lv == 1 && body ~ /^# Subtest: / {
	name = body
	sub(/^# Subtest: /, "", name)
	open_suite(name)
	next
}

lv == 1 && body ~ /^[0-9]+\.\.[0-9]+$/ {
	if (!in_suite)
		open_suite("")
	split(body, p, /\.\./)
	planned = p[2] + 0
	next
}

lv == 1 && in_suite && body ~ /^(not )?ok [0-9]+/ {
	ok = body ~ /^ok / ? "ok" : "not ok"
	name = body
	sub(/^(not )?ok [0-9]+( -)? ?/, "", name)
	if (ok == "ok" && name ~ /# SKIP/) {
		s_pass++
		s_skip++
		notes = notes "    skip   " name "\n"
	} else if (ok == "ok") {
		s_pass++
	} else {
		s_fail++
		notes = notes "    not ok " name "\n"
	}
	next
}

# Failed parameters, in both the nested and the 6.1 diagnostic form.
lv == 2 && in_suite && (body ~ /^not ok [0-9]+/ || body ~ /^# [^ ]+: not ok [0-9]+/) {
	notes = notes "      param " body "\n"
	next
}

lv == 0 && body ~ /^(not )?ok [0-9]+/ {
	ok = body ~ /^ok / ? "ok" : "not ok"
	if (in_suite) {
		if (suite == "") {
			suite = body
			sub(/^(not )?ok [0-9]+( -)? ?/, "", suite)
			sub(/ #.*/, "", suite)
		}
		close_suite(ok, 0)
	}
	next
}

END {
	if (in_suite)
		close_suite("", 1)
	printf "ktap-total: pass=%d fail=%d skip=%d suites=%d\n", t_pass, t_fail, t_skip, suites
}
