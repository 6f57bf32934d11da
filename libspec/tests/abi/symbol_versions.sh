#!/bin/sh
# The versions libspec.so exports for the symbols whose meaning changed:
# spec_events__event is the finding one by default (LIBSPEC_1.1) and the
# creating one for binaries linked against LIBSPEC_EVENTS_0.2. Prints TAP
# for scripts/testgroup.sh. Usage: symbol_versions.sh LIBSPEC_SO
set -u
so=$1
syms=$(objdump -T "$so") || exit 1
n=0
fail=0
expect() { # "version symbol" as objdump -T prints them, description
	n=$((n + 1))
	if printf '%s\n' "$syms" | grep -Eq "[[:space:]]$1\$"; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2 (no '$1' in objdump -T)"
		fail=1
	fi
}
expect 'LIBSPEC_1.1 +spec_events__event' "spec_events__event@@LIBSPEC_1.1 (finds)"
expect '\(LIBSPEC_EVENTS_0.2\) +spec_events__event' "spec_events__event@LIBSPEC_EVENTS_0.2 (creates, for old binaries)"
expect 'LIBSPEC_1.1 +spec_events__declare' "spec_events__declare@@LIBSPEC_1.1"
expect 'LIBSPEC_EVENTS_0.2 +spec_events__find' "spec_events__find stays in LIBSPEC_EVENTS_0.2"
n=$((n + 1))
if printf '%s\n' "$syms" | grep -q 'spec_events__event_v0_2'; then
	echo "not ok $n - the compat function's own name is exported"
	fail=1
else
	echo "ok $n - the compat function's own name is not exported"
fi
echo "1..$n"
exit $fail
