#!/usr/bin/env bash
# make demo: run iocad on the simulator with every example under
# examples/iocad/ (a NAME.ini config beside a NAME.scn scenario), write each
# trace to build/demo/NAME.csv, draw it as build/demo/NAME.png, and print
# what happened: the FSM's transitions, the final allocation, and for the
# latent-contender example the PS tenant's IPC under ioca, core-only and
# static. Builds nothing itself: `make demo` has built iocad/iocad first.
set -eu
cd "$(dirname "$0")/.."

iocad=iocad/iocad
out=build/demo
if [ ! -x "$iocad" ]; then
	echo "demo: $iocad not built (run 'make demo' from the top level)" >&2
	exit 1
fi
mkdir -p "$out"

# Every state change ("t=11s low_keep -> core_demand (core_contention)") and
# every other interval that moved a mask ("t=11s low_keep: core_alloc").
transitions() {
	awk -F, 'NR == 1 {
		for (i = 1; i <= NF; i++) {
			c[$i] = i
			if ($i ~ /_mask$/)
				m[++nm] = i
		}
		next
	}
	{
		s = $c["state"]
		masks = ""
		for (i = 1; i <= nm; i++)
			masks = masks " " $m[i]
		if (NR > 2 && s != prev)
			printf "    t=%gs  %s -> %s (%s)\n", $c["t_s"], prev, s, $c["reason"]
		else if (NR > 2 && masks != pmasks)
			printf "    t=%gs  %s: %s\n", $c["t_s"], s, $c["reason"]
		prev = s
		pmasks = masks
	}' "$1"
}

# "DDIO 0x600, vswitch 0x3 (2 ways), ..." from the last row.
final_alloc() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; n = NF; next }
	{ for (i = 1; i <= n; i++) v[i] = $i }
	END {
		line = "    final: DDIO " v[6] " (" v[5] " ways)"
		for (i = 1; i <= n; i++)
			if (h[i] ~ /_mask$/ && h[i] != "ddio_mask") {
				t = h[i]
				sub(/_mask$/, "", t)
				line = line ", " t " " v[i] " (" v[i - 1] " ways)"
			}
		print line
	}' "$1"
}

# Mean IPC of tenant $2 over the second half of trace $1.
mean_ipc() {
	awk -F, -v col="$2_ipc" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	{ t[NR] = $c }
	END {
		if (!c || NR < 3) { print "n/a"; exit }
		for (i = int(NR / 2) + 1; i <= NR; i++) { s += t[i]; k++ }
		printf "%.3f", s / k
	}' "$1"
}

run() { # name mode
	local name=$1 mode=$2 csv
	csv=$out/$name${3:-}.csv
	if ! "$iocad" --quiet --mode "$mode" --sim "examples/iocad/$name.scn" --trace "$csv" \
		"examples/iocad/$name.ini" 2>"$out/$name${3:-}.log"; then
		echo "demo: iocad failed on $name ($mode):" >&2
		cat "$out/$name${3:-}.log" >&2
		exit 1
	fi
}

status=0
for ini in examples/iocad/*.ini; do
	name=$(basename "$ini" .ini)
	[ -f "examples/iocad/$name.scn" ] || continue
	run "$name" ioca
	title="$name: $(sed -n 's/^# \{0,1\}//p;/^[^#]/q' "examples/iocad/$name.scn" | head -n 1)"
	scripts/plot_trace.sh "$out/$name.csv" "$out/$name.png" "$title" || status=1
	echo "$name  ($(($(wc -l <"$out/$name.csv") - 1)) intervals, mode ioca)"
	transitions "$out/$name.csv"
	final_alloc "$out/$name.csv"
	echo "    picture: $out/$name.png"
done

# The comparison of the latent-contender story: the PS tenant xmem4.
name=latent-contender
if [ -f "examples/iocad/$name.ini" ]; then
	for mode in core-only static; do
		run "$name" "$mode" "-$mode"
		scripts/plot_trace.sh "$out/$name-$mode.csv" "$out/$name-$mode.png" \
			"$name, mode $mode" || status=1
	done
	echo "$name  PS tenant xmem4, mean IPC over the second half of the run:"
	base=$(mean_ipc "$out/$name-static.csv" xmem4)
	for mode in ioca core-only static; do
		f=$out/$name.csv
		[ "$mode" = ioca ] || f=$out/$name-$mode.csv
		ipc=$(mean_ipc "$f" xmem4)
		printf '    %-10s %s  (%s x static)\n' "$mode" "$ipc" \
			"$(awk -v a="$ipc" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	done
	echo "    pictures: $out/$name.png $out/$name-core-only.png $out/$name-static.png"
fi
echo "demo: traces and pictures in $out/"
exit $status
