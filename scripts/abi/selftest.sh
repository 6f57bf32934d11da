#!/usr/bin/env bash
# Usage: selftest.sh
# Self-test of abi_check.py on broken copies of the three ABI files: the
# untouched copies must agree, and each break below must fail with a message
# naming the file (and line) of the disagreement. Prints one "ok - ..." /
# "not ok - ..." line per case and "abi-selftest: P passed, F failed".
# shellcheck disable=SC2016,SC2001 # perl code in single quotes; indented output
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/abi-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

fresh() {
	rm -rf "$work/c"
	mkdir -p "$work/c"
	cp "$top/uapi/ioca.yaml" "$top/uapi/linux/ioca.h" "$top/kmod/ioca_nl_gen.c" \
		"$top/kmod/compat.h" "$work/c/"
}
check() {
	(cd "$work/c" && /usr/bin/python3 "$here/abi_check.py" --yaml ioca.yaml \
		--header ioca.h --tables ioca_nl_gen.c --compat compat.h)
}
# case NAME FILE PERL-SUBSTITUTION EXPECTED-OUTPUT-REGEX
case_() {
	local name=$1 file=$2 expr=$3 want=$4 out
	fresh
	cp "$work/c/$file" "$work/orig"
	perl -0pi -e "$expr" "$work/c/$file"
	if cmp -s "$work/orig" "$work/c/$file"; then
		fail=$((fail + 1))
		echo "not ok - abi self-test: $name: the break did not apply to $file"
		return
	fi
	if out=$(check 2>&1); then
		fail=$((fail + 1))
		echo "not ok - abi self-test: $name: the broken copy passed"
		return
	fi
	if grep -qE "$want" <<<"$out"; then
		pass=$((pass + 1))
		echo "ok - abi self-test: $name"
	else
		fail=$((fail + 1))
		echo "not ok - abi self-test: $name: no line matching '$want' in:"
		sed 's/^/    /' <<<"$out"
	fi
}

fresh
if out=$(check 2>&1); then
	pass=$((pass + 1))
	echo "ok - abi self-test: untouched copies agree"
else
	fail=$((fail + 1))
	echo "not ok - abi self-test: untouched copies disagree:"
	sed 's/^/    /' <<<"$out"
fi

case_ "max naming an undefined constant" ioca.yaml \
	's/max: llc-max-ways/max: llc-max-way/' \
	"^ioca.yaml:[0-9]+: attribute socket.ddio-ways: checks max: 'llc-max-way' is neither"
case_ "a property the schema does not allow" ioca.yaml \
	's/(\n      name: samples\n)/$1      doc: Joining needs CAP_NET_ADMIN.\n/' \
	"^ioca.yaml:[0-9]+: mcast group samples: 'doc' is not a property"
case_ "ddio-set nesting the whole socket set" ioca.yaml \
	's/nested-attributes: ddio-socket/nested-attributes: socket/' \
	'^ioca_nl_gen.c:[0-9]+: ioca_ddio_socket_nl_policy: no entry for \[IOCA_A_SOCKET_LLC_WAYS\]'
case_ "multicast permission dropped from the spec" ioca.yaml \
	's/(name: samples\n\s+)flags: \[admin-perm\]\n/$1/' \
	"^ioca_nl_gen.c:[0-9]+: mcast group samples: flags"
case_ "op missing from the spec" ioca.yaml \
	's/\n    -\n      name: sampler-stop\n.*?do: \{\}\n/\n/s' \
	'^ioca.h:[0-9]+: command enum: IOCA_CMD_SAMPLER_STOP'
case_ "const value" ioca.h \
	's/(#define IOCA_MAX_CPUS\s+)256/${1}255/' \
	'^ioca.h:[0-9]+: #define IOCA_MAX_CPUS is 255, ioca.yaml says 256'
case_ "attribute renamed in the header" ioca.h \
	's/IOCA_A_SOCKET_LLC_WAYS,/IOCA_A_SOCKET_LLC_WAY,/' \
	'^ioca.h:[0-9]+: attribute enum of set socket: IOCA_A_SOCKET_LLC_WAY = 2'
case_ "enum entry added to the header only" ioca.h \
	's/(IOCA_EVENT_KIND_DDIO_MISS_EMULATED,\n)/$1\tIOCA_EVENT_KIND_NEW,\n/' \
	'^ioca.h:[0-9]+: enum ioca_event_kind: IOCA_EVENT_KIND_NEW = 10'
case_ "request attribute missing from a policy" ioca_nl_gen.c \
	's/\t\[IOCA_A_DDIO_RESTORE\] = \{ \.type = NLA_FLAG, \},\n//' \
	'^ioca_nl_gen.c:[0-9]+: ioca_ddio_set_nl_policy: no entry for \[IOCA_A_DDIO_RESTORE\]'
case_ "policy limit" ioca_nl_gen.c \
	's/NLA_POLICY_MAX\(NLA_U32, IOCA_LLC_MAX_WAYS\)/NLA_POLICY_MAX(NLA_U32, 31)/' \
	'^ioca_nl_gen.c:[0-9]+: ioca_ddio_socket_nl_policy: \[IOCA_A_SOCKET_DDIO_WAYS\] enforces min None max 31'
case_ "attribute type" ioca_nl_gen.c \
	's/\[IOCA_A_EVENT_CONFIG\] = \{ \.type = NLA_U64, \}/[IOCA_A_EVENT_CONFIG] = { .type = NLA_U32, }/' \
	'^ioca_nl_gen.c:[0-9]+: ioca_event_nl_policy: \[IOCA_A_EVENT_CONFIG\] is .* says type u64'
case_ "op flag" ioca_nl_gen.c \
	's/(\.cmd\s+= IOCA_CMD_SAMPLER_STOP,\n\s+\.doit\s+= \w+,\n)\s+\.flags\s+= GENL_ADMIN_PERM,\n/$1/' \
	"^ioca_nl_gen.c:[0-9]+: op sampler-stop \(IOCA_CMD_SAMPLER_STOP\): flags none"
case_ "op table entry gone" ioca_nl_gen.c \
	's/\t\{\n\t\t\.cmd\t\t= IOCA_CMD_SAMPLE_GET,.*?\n\t\},\n//s' \
	'^ioca.yaml:[0-9]+: op sample-get: ioca_nl_gen.c has no genl_ops entry'
case_ "maxattr off by one" ioca_nl_gen.c \
	's/(\.maxattr\s+= )IOCA_A_DDIO_OWNER/${1}IOCA_A_DDIO_RESTORE/' \
	'^ioca_nl_gen.c:[0-9]+: op ddio-set \(IOCA_CMD_DDIO_SET\): \.maxattr is IOCA_A_DDIO_RESTORE'

echo "abi-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
