#!/usr/bin/env bash
# make lint: one test per file checked.
#   kernel C (kmod/, uapi/, selftests/smoke/, selftests/resctrl_emu/):
#     checkpatch.pl --strict from
#     linux-source-6.1 (unpacked by scripts/ksrc.sh, never copied here);
#   userspace C (everything else): clang-format --dry-run -Werror and cppcheck;
#   sparse over kmod/ (make -C kmod sparse);
#   the ABI: uapi/ioca.yaml, uapi/linux/ioca.h and kmod/ioca_nl_gen.c agree
#     (scripts/abi/abi_check.py), plus one test per case of its self-test on
#     broken copies (scripts/abi/selftest.sh);
#   the include graph: no circle crosses a folder or ties more than three
#     units, iocad's folders include only the layers below them
#     (scripts/include_graph.py);
#   every object or file built with the version in depends on ../VERSION
#     (scripts/version_deps.py).
# Prints the findings of each failing file and "lint: N passed, M failed".
set -u
cd "$(dirname "$0")/.."

ksrc=$(scripts/ksrc.sh 2>/dev/null) || ksrc=
checkpatch=$ksrc/scripts/checkpatch.pl
pass=0
fail=0

verdict() { # file status output
	if [ "$2" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "lint: FAIL $1"
		printf '%s\n' "$3" | sed 's/^/    /' | head -n 20
	fi
}

kernel_files=$(git ls-files -co --exclude-standard -- 'kmod/*.[ch]' 'uapi/*.h' \
	'selftests/smoke/*.[ch]' 'selftests/resctrl_emu/*.[ch]' | grep -v '\.mod\.c$')
user_files=$(git ls-files -co --exclude-standard -- '*.[ch]' |
	grep -vE '^(kmod|uapi|selftests/smoke|selftests/resctrl_emu)/' | grep -v '\.mod\.c$')

if [ -n "$kernel_files" ] && [ ! -x "$checkpatch" ]; then
	echo "lint: checkpatch.pl not found (scripts/ksrc.sh unpacks linux-source-6.1)"
	fail=$((fail + 1))
else
	for f in $kernel_files; do
		out=$(perl "$checkpatch" --strict --no-tree --terse --show-types -f "$f" 2>&1)
		rc=$?
		verdict "$f" "$rc" "$out"
	done
fi

# cppcheck needs the include paths to see through macros; missing system
# headers are not findings.
incs="-Iuapi -Icommon -Ilibspec/include -Ilibioca/include -Iiocad -Iiocad/sim -Iiocad/host"
[ -n "$ksrc" ] && incs="$incs -Iselftests/ioca -I$ksrc/tools/testing/selftests \
	--suppress=*:$ksrc/tools/testing/selftests/*"
for f in $user_files; do
	out=$(clang-format --dry-run -Werror "$f" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		out=$(cppcheck --enable=warning,portability --error-exitcode=1 --inline-suppr \
			-q --std=c11 $incs "$f" 2>&1)
		rc=$?
	fi
	verdict "$f" "$rc" "$out"
done

# sparse over the module, every file (C=2): any warning fails.
if command -v sparse >/dev/null; then
	out=$(make --no-print-directory -C kmod sparse 2>&1)
	verdict "sparse: kmod/" $? "$out"
else
	verdict "sparse: kmod/" 1 "sparse not installed (scripts/deps.sh installs it)"
fi

# Include circles across folders or of more than three units, and iocad's
# layers (scripts/include_graph.py, iocad/README.md).
out=$(/usr/bin/python3 scripts/include_graph.py 2>&1)
verdict "include graph: circles and iocad's layers" $? "$out"

# Everything built with the version in follows ../VERSION (an incremental
# build after a bump; scripts/version_deps.py, with its self-test).
out=$(/usr/bin/python3 scripts/version_deps.py --self-test 2>&1)
verdict "version dependencies: what has the version in depends on ../VERSION" $? "$out"

# The ABI check prints each disagreement as FILE:LINE.
out=$(/usr/bin/python3 scripts/abi/abi_check.py 2>&1)
verdict "abi: uapi/ioca.yaml, uapi/linux/ioca.h, kmod/ioca_nl_gen.c" $? "$out"
out=$(scripts/abi/selftest.sh 2>&1)
grep -qE '^(not )?ok - ' <<<"$out" || verdict "abi self-test" 1 "$out"
while IFS= read -r line; do
	case $line in
	"ok - "*) verdict "${line#ok - }" 0 "" ;;
	"not ok - "*) verdict "${line#not ok - }" 1 "$line" ;;
	esac
done <<<"$out"

echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
