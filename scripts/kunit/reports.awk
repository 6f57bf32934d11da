# reports.awk: finds the kernel checkers' reports in a guest console log.
# Usage: awk -f reports.awk LOG...
# Only kernel lines count (the debug kernel stamps them, CONFIG_PRINTK_TIME:
# "[    1.234567] ..."), so a test that prints "WARNING:" itself is not a
# report. A report is a line where KASAN, lockdep, the atomic-sleep check,
# DEBUG_OBJECTS, WARN*/BUG* or an oops announce themselves; the stack trace
# and the "cut here" line that follow belong to it. Prints each report as
# "report: FILE:LINE: TEXT" and finally "reports: N".
function report(text) {
	n++
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", text)
	printf "report: %s:%d: %s\n", FILENAME, FNR, text
}
/^\[ *[0-9]+\.[0-9]+\] / {
	if ($0 ~ /(BUG|WARNING|ODEBUG|INFO|UBSAN): / ||
	    $0 ~ /Kernel panic|Oops|general protection fault|kernel BUG at/ ||
	    $0 ~ /DEBUG_LOCKS_WARN_ON|scheduling while atomic|stack-protector/ ||
	    $0 ~ /unreferenced object|list_(add|del) corruption/)
		report($0)
}
END { printf "reports: %d\n", n + 0 }
