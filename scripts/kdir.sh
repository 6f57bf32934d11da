#!/usr/bin/env bash
# Prints the kernel build tree for the module: the running kernel's build
# link when it exists, else the newest installed Debian linux-headers-*.
# Prints nothing if neither exists (callers then say what to install).
b=/lib/modules/$(uname -r)/build
if [ -d "$b" ]; then
	echo "$b"
	exit 0
fi
ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1
