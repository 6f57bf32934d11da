#!/usr/bin/env bash
# make install into a scratch DESTDIR, then build a client against it the way
# a user would (pkg-config), shared and static, and check the exported ABI.
# TAP output, counted by scripts/testgroup.sh in the libioca group.
set -u
cd "$(dirname "$0")/.." || exit 1
dest=$(mktemp -d /tmp/libioca-install-XXXXXX)
trap 'rm -rf "$dest"' EXIT
prefix=/opt/libioca-test
n=0
fails=0
t() { # description command...
	local d=$1
	shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
		fails=$((fails + 1))
	fi
}

t "make install PREFIX=$prefix DESTDIR=..." \
	make --no-print-directory -s install PREFIX="$prefix" DESTDIR="$dest"
t "the .pc carries the install prefix" \
	grep -qx "prefix=$prefix" "$dest$prefix/lib/pkgconfig/libioca.pc"
t "the uapi header is installed in its own directory, not the kernel headers' linux/" \
	test -f "$dest$prefix/include/ioca/linux/ioca.h" -a -f "$dest$prefix/include/libioca.h" \
	-a ! -e "$dest$prefix/include/linux"

cat >"$dest/client.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <libioca.h>

int main(void)
{
	IOCA_OPTS(ioca_client_opts, o);
	struct ioca_client *c = ioca_client__open(&o);

	if (c) {
		ioca_client__close(c);
		return 0;
	}
	/* No module on the build host is fine; anything else is not. */
	return errno == ENOENT || errno == EPROTONOSUPPORT ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$dest$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
t "a client builds with pkg-config --cflags --libs libioca" \
	sh -c "cc -std=gnu11 -Wall -Werror -o '$dest/client' '$dest/client.c' \
		\$(pkg-config --cflags --libs libioca)"
t "the shared client runs (answers ENOENT without ioca.ko)" \
	env LD_LIBRARY_PATH="$dest$prefix/lib" "$dest/client"
t "a client links statically with pkg-config --static" \
	sh -c "cc -std=gnu11 -Wall -Werror -o '$dest/client-static' '$dest/client.c' \
		\$(pkg-config --cflags libioca) '$dest$prefix/lib/libioca.a' \
		\$(pkg-config --static --libs-only-l libioca | sed 's/-lioca//')"
# The README's example, as a reader would paste it.
# shellcheck disable=SC2016 # backquotes, not an expansion
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' >"$dest/example.c"
t "the README's example builds against the installed library" \
	sh -c "test -s '$dest/example.c' && cc -std=gnu11 -Wall -Werror -o '$dest/example' \
		'$dest/example.c' \$(pkg-config --cflags --libs libioca)"
t "the soname is libioca.so.0" \
	sh -c "readelf -d '$dest$prefix/lib/libioca.so.0' | grep -q 'SONAME.*\[libioca.so.0\]'"
t "every exported symbol is ioca_* or libioca_* in a LIBIOCA_0.N node" \
	sh -c "nm -D --defined-only '$dest$prefix/lib/libioca.so.0' | awk '\$2 != \"A\"' |
		grep -vE ' (lib)?ioca_[a-z_]*@@LIBIOCA_0\.[0-9]*\$' | grep . && exit 1 || exit 0"
header_api() { # every function declared LIBIOCA_API, one per line
	tr '\n' ' ' <include/libioca.h | grep -oE 'LIBIOCA_API [^;{]*' | grep -oE '(libioca|ioca)_[a-z_]+\(' |
		tr -d '(' | sort
}
map_api() { grep -oE '^\s+(libioca|ioca)_[a-z_]+;' libioca.map | tr -d ' \t;' | sort; }
t "the symbol map lists every LIBIOCA_API function of the header" \
	diff <(header_api) <(map_api)
echo "1..$n"
[ "$fails" -eq 0 ]
