#!/usr/bin/env bash
# Usage: plot_trace.sh TRACE.csv OUT.png [TITLE]
# Renders an iocad --trace CSV as a PNG timeline (scripts/plot_trace.gp):
# FSM state, which LLC ways DDIO and each tenant own, DDIO hits/misses,
# LLC miss rates and IPC. Tenants are found from the header's <tenant>_mask
# columns; the way map is derived from the masks next to the PNG.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 TRACE.csv OUT.png [TITLE]" >&2
	exit 2
fi
csv=$1
png=$2
title=${3:-$(basename "$csv" .csv)}
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v gnuplot >/dev/null; then
	echo "plot_trace: gnuplot not found (apt-get install gnuplot-nox)" >&2
	exit 1
fi
if [ ! -s "$csv" ] || [ "$(wc -l <"$csv")" -lt 2 ]; then
	echo "plot_trace: $csv: missing, empty or without intervals" >&2
	exit 1
fi
header=$(head -n 1 "$csv")
for col in t_s state ddio_mask ddio_hits ddio_misses; do
	case ",$header," in
	*",$col,"*) ;;
	*)
		echo "plot_trace: $csv: no column '$col' in the header" >&2
		exit 1
		;;
	esac
done
tenants=$(printf '%s\n' "$header" | tr ',' '\n' | sed -n 's/_mask$//p' | grep -vx ddio |
	tr '\n' ' ')
tenants=${tenants% }

# One box per (interval, way, owner). A row's masks are what iocad decided
# at its t_s, so they are in force from that row's t_s to the next one's.
waymap="${png%.png}.waymap.csv"
awk -F, -v tenants="$tenants" '
function hex(s,    i, c, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			return 0
		v = v * 16 + c - 1
	}
	return v
}
function boxes(t0, t1, mask, owner,    w) {
	for (w = 0; mask > 0; w++) {
		if (mask % 2)
			printf "%g,%g,%d,%d\n", t0, t1, w, owner
		mask = int(mask / 2)
	}
}
function flush(t1,    i) {
	for (i = 1; i <= n; i++)
		if (m[i] != "")
			boxes(t0, t1, hex(m[i]), i)
	boxes(t0, t1, hex(dm), 0)
}
NR == 1 {
	n = split(tenants, tn, " ")
	for (i = 1; i <= NF; i++)
		idx[$i] = i
	print "t0,t1,way,owner"
	next
}
{
	t = $idx["t_s"]
	if (NR > 2)
		flush(t)
	dt = NR > 2 ? t - t0 : 1
	t0 = t
	dm = $idx["ddio_mask"]
	for (i = 1; i <= n; i++)
		m[i] = (tn[i] "_mask") in idx ? $idx[tn[i] "_mask"] : ""
}
END {
	if (NR > 1)
		flush(t0 + dt)
}' "$csv" >"$waymap"
# DDIO sits at the most significant ways, so the highest way seen is the top.
nways=$(awk -F, 'NR > 1 && $3 + 1 > m { m = $3 + 1 } END { print (m > 0 ? m : 1) }' "$waymap")

tmax=$(awk -F, 'NR > 1 && $2 + 0 > m { m = $2 + 0 } END { print m }' "$waymap")

# Traces written before iocad read the DDIO mask back have no ddio_outside.
case ",$header," in
*",ddio_outside,"*) has_outside=1 ;;
*) has_outside=0 ;;
esac

# Gnuplot strings are double-quoted: keep quotes out of what we pass.
title=${title//\"/\'}
gnuplot -e "csv='$csv'; png='$png'; waymap='$waymap'; nways=$nways; tmax=$tmax; \
title=\"$title\"; tenants='$tenants'; has_outside=$has_outside" "$here/plot_trace.gp"
