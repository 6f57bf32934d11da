#!/usr/bin/env bash
# make lint: one test per file checked.
#   kernel C (kmod/, uapi/, selftests/smoke/): checkpatch.pl --strict from
#     linux-source-6.1 (unpacked by scripts/ksrc.sh, never copied here);
#   userspace C (everything else): clang-format --dry-run -Werror and cppcheck.
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
	'selftests/smoke/*.[ch]' | grep -v '\.mod\.c$')
user_files=$(git ls-files -co --exclude-standard -- '*.[ch]' |
	grep -vE '^(kmod|uapi|selftests/smoke)/' | grep -v '\.mod\.c$')

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
incs="-Iuapi -Ilibspec/include -Ilibioca/include -Iiocad"
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

echo "lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
