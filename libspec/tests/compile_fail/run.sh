#!/bin/sh
# Compile-time refusals of wrong raises: each case here must fail to
# compile as C (gcc) and as C++ (g++) with the message its header names
# ("expect:" for C, "expect-c++:" for C++); good_calls.c must compile in
# both, and as ISO C11 and C++20 with -pedantic-errors under gcc, g++,
# clang and clang++ (the macros use no GNU extension a user's -pedantic
# would flag); raises_cxx11.cc's raises with -std=c++11 -pedantic-errors.
# Prints TAP for scripts/testgroup.sh.
# Usage: run.sh LIBSPEC_INCLUDE_DIR
set -u
inc=$1
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
tap() { # ok|not-ok description
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}
compile() { # lang file -> status, output in $tmp/out
	if [ "$1" = c ]; then
		gcc -std=c11 -Wall -Wextra -Werror -I"$inc" -c "$2" -o "$tmp/o.o" >"$tmp/out" 2>&1
	else
		g++ -std=c++20 -pedantic -Wall -Wextra -Werror -I"$inc" -x c++ -c "$2" -o "$tmp/o.o" \
			>"$tmp/out" 2>&1
	fi
}
for lang in c c++; do
	if compile $lang "$dir/good_calls.c"; then
		tap ok "good_calls compiles as $lang"
	else
		tap not-ok "good_calls compiles as $lang"
		sed 's/^/# /' "$tmp/out"
	fi
done
for cc in "gcc -std=c11" "clang -std=c11" "g++ -std=c++20 -x c++" "clang++ -std=c++20 -x c++"; do
	set -- $cc
	if ! command -v "$1" >/dev/null; then
		tap not-ok "good_calls with $cc -pedantic-errors: $1 missing (scripts/deps.sh)"
	elif $cc -pedantic-errors -Wall -Wextra -Werror -I"$inc" -c "$dir/good_calls.c" \
		-o "$tmp/o.o" >"$tmp/out" 2>&1; then
		tap ok "good_calls compiles with $cc -pedantic-errors"
	else
		tap not-ok "good_calls compiles with $cc -pedantic-errors"
		sed 's/^/# /' "$tmp/out" | head -20
	fi
done
for cc in g++ clang++; do
	if $cc -std=c++11 -pedantic-errors -Wall -Wextra -Werror -I"$inc" -c \
		"$dir/raises_cxx11.cc" -o "$tmp/o.o" >"$tmp/out" 2>&1; then
		tap ok "raises_cxx11 compiles with $cc -std=c++11 -pedantic-errors"
	else
		tap not-ok "raises_cxx11 compiles with $cc -std=c++11 -pedantic-errors"
		sed 's/^/# /' "$tmp/out" | head -20
	fi
done
for f in "$dir"/*.c; do
	case=$(basename "$f" .c)
	[ "$case" = good_calls ] && continue
	for lang in c c++; do
		if [ $lang = c ]; then key=expect; else key=expect-c++; fi
		want=$(sed -n "s|^/\* $key: \(.*\) \*/\$|\1|p" "$f")
		if [ -z "$want" ]; then
			tap not-ok "$case: no '$key:' line"
		elif compile $lang "$f"; then
			tap not-ok "$case compiled as $lang (it must not)"
		elif grep -qF -- "$want" "$tmp/out"; then
			tap ok "$case refused as $lang: $want"
		else
			tap not-ok "$case refused as $lang without \"$want\""
			sed 's/^/# /' "$tmp/out" | head -20
		fi
	done
done
echo "1..$n"
exit $fail
