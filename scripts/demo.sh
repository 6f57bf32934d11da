#!/usr/bin/env bash
# make demo: run iocad on the simulator with every example under
# examples/iocad/ (a NAME.ini config beside a NAME.scn scenario), write each
# trace to build/demo/NAME.csv, draw it as build/demo/NAME.png, and print
# what happened: the FSM's transitions, the final allocation; then run the
# paper's stories in the modes they compare (ioca, core-only, static) and
# print one table: each story, the paper's figure, ours.
# Builds nothing itself: `make demo` has built iocad/iocad first.
set -eu
cd "$(dirname "$0")/.."

iocad=iocad/iocad
out=build/demo
if [ ! -x "$iocad" ]; then
	echo "demo: $iocad not built (run 'make demo' from the top level)" >&2
	exit 1
fi
mkdir -p "$out"

# Every state change ("s0 t=11s low_keep -> core_demand (core_contention)")
# and every other interval that moved a mask ("s0 t=11s low_keep:
# core_alloc"), each socket followed on its own.
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
		k = $c["socket"]
		s = $c["state"]
		masks = ""
		for (i = 1; i <= nm; i++)
			masks = masks " " $m[i]
		if ((k in prev) && s != prev[k])
			printf "    s%s t=%gs  %s -> %s (%s)\n", k, $c["t_s"], prev[k], s, $c["reason"]
		else if ((k in prev) && masks != pmasks[k])
			printf "    s%s t=%gs  %s: %s\n", k, $c["t_s"], s, $c["reason"]
		prev[k] = s
		pmasks[k] = masks
	}' "$1"
}

# "socket 0: DDIO 0x600, vswitch 0x3 (2 ways), ..." from each socket's last row.
final_alloc() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { h[i] = $i; c[$i] = i }; n = NF; next }
	{ k = $c["socket"]; last[k] = $0 }
	END {
		for (k in last) {
			split(last[k], v, ",")
			line = "    final: socket " k ": DDIO " v[c["ddio_mask"]] " (" v[c["ddio_ways"]] " ways)"
			for (i = 1; i <= n; i++)
				if (h[i] ~ /_mask$/ && h[i] != "ddio_mask" && v[i] != "") {
					t = h[i]
					sub(/_mask$/, "", t)
					line = line ", " t " " v[i] " (" v[i - 1] " ways)"
				}
			print line
		}
	}' "$1" | sort
}

# The sockets of trace $1 ("0 1").
sockets() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "socket") c = i; next }
	{ print $c }' "$1" | sort -un | tr '\n' ' '
}

# Draw trace $1 as $2 with title $3; a trace of several sockets as one picture each.
plot() {
	local csv=$1 png=$2 title=$3 k ks
	ks=$(sockets "$csv")
	if [ "$(echo $ks | wc -w)" -le 1 ]; then
		scripts/plot_trace.sh "$csv" "$png" "$title"
		return
	fi
	for k in $ks; do
		awk -F, -v k="$k" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "socket") c = i; print; next }
		$c == k' "$csv" >"${csv%.csv}-s$k.csv"
		scripts/plot_trace.sh "${csv%.csv}-s$k.csv" "${png%.png}-s$k.png" "$title (socket $k)" ||
			return 1
	done
}

# Mean of column $2 of trace $1 over the intervals ending in ($3, $4] s.
phase_mean() {
	awk -F, -v col="$2" -v t0="$3" -v t1="$4" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
	c && $3 > t0 && $3 <= t1 { s += $c; k++ }
	END { if (!c || !k) print "nan"; else printf "%.6g", s / k }' "$1"
}

# Relative change of $1 over $2 in per cent, signed: "+4.1%".
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%+.1f%%", (a / b - 1) * 100 }'
}

# Bytes/s $1 as "1.07 GB/s".
gbs() { awk -v b="$1" 'BEGIN { printf "%.2f GB/s", b / 1e9 }'; }

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
	plot "$out/$name.csv" "$out/$name.png" "$title" || status=1
	echo "$name  ($(($(wc -l <"$out/$name.csv") - 1)) rows, sockets $(sockets "$out/$name.csv")mode ioca)"
	transitions "$out/$name.csv"
	final_alloc "$out/$name.csv"
	echo "    picture(s): $(ls "$out/$name".png "$out/$name"-s[0-9].png 2>/dev/null | tr '\n' ' ')"
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
# The paper's stories in the modes they compare, and one table next to
# the paper's numbers (iocad/README.md explains each row).
compare() { # name mode...
	local name=$1 mode
	shift
	for mode in "$@"; do
		run "$name" "$mode" "-$mode"
	done
}
rows=()
row() { rows+=("$(printf '| %s | %s | %s | %s | %s |' "$1" "$2" "$3" "$4" "${5:--}")"); }

# The same story between static and the oracle (iocad-eval --story; iocad/eval/README.md):
# run noise-free as a case cut into phases at $2 (seconds), the oracle's layout the
# model's best per phase. For tenant $3 (or "mem", GB/s) in phases $4 (labelled $5):
# "label static/ioca/oracle, ...".
evalbin=iocad/build/iocad-eval
between() { # name bounds tenant "phase..." "label..."
	[ -x "$evalbin" ] || {
		echo "n/a ($evalbin not built)"
		return
	}
	"$evalbin" --story "examples/iocad/$1.ini" --scenario "examples/iocad/$1.scn" --phases "$2" |
		awk -v t="$3" -v ps="$4" -v ls="$5" '
		BEGIN { n = split(ps, p, " "); split(ls, l, ",") }
		$1 == "phase" && $5 == t { s[$2] = $7; i[$2] = $9; o[$2] = $13 }
		END {
			f = t == "mem" ? 1e9 : 1
			for (k = 1; k <= n; k++)
				printf "%s%s %.3g/%.3g/%.3g", (k > 1 ? ", " : ""), l[k],
					s[p[k]] / f, i[p[k]] / f, o[p[k]] / f
		}'
}

name=fig8-leaky-dma
if [ -f "examples/iocad/$name.ini" ]; then
	compare "$name" static
	io=$out/$name.csv sc=$out/$name-static.csv
	# the 1500-byte phase, after I/O Demand has acted
	d() { pct "$(phase_mean "$io" "$1" 44 55)" "$(phase_mean "$sc" "$1" 44 55)"; }
	row "Leaky DMA, packet-size ramp" "Fig. 8" \
		"DDIO hits up, misses down; memory traffic up to -15.6 %; vswitch IPC about +5 %, fewer cycles/packet" \
				"1500 B vs static: DDIO hits $(d ddio_hits), misses $(d ddio_misses); memory $(d sim_mem_bytes_s); vswitch IPC $(d vswitch_ipc), cycles/packet $(d sim_vswitch_cycles_per_pkt)" \
		"vswitch IPC $(between "$name" 0,10,20,30,40,55 vswitch "0 2 4" "64B,512B,1500B"); memory GB/s $(between "$name" 0,10,20,30,40,55 mem "0 2 4" "64B,512B,1500B")"
fi

name=fig9-flows
if [ -f "examples/iocad/$name.ini" ]; then
	compare "$name" static
	io=$out/$name.csv sc=$out/$name-static.csv
	best=''
	for p in "2 10 1K" "12 20 10K" "22 30 30K" "32 40 60K" "44 55 100K"; do
		read -r t0 t1 label <<<"$p"
		best="$best $label: $(pct "$(phase_mean "$io" vswitch_ipc "$t0" "$t1")" \
			"$(phase_mean "$sc" vswitch_ipc "$t0" "$t1")"),"
	done
	fall=$(awk -v a="$(phase_mean "$sc" vswitch_ipc 2 10)" -v b="$(phase_mean "$sc" vswitch_ipc 44 55)" \
		'BEGIN { printf "%.1fx", a / b }')
	row "Flow ramp, aggregation" "Fig. 9" \
		"vswitch IPC falls with flows; IOCA gives it ways, IPC up to +11.4 % over static" \
				"static IPC falls $fall from 1K to 100K flows; ioca vs static by flows:${best%,}" \
		"vswitch IPC $(between "$name" 0,10,20,30,40,55 vswitch "0 1 2 3 4" "1K,10K,30K,60K,100K")"
fi

name=fig10-latent-sweep
if [ -f "examples/iocad/$name.ini" ]; then
	compare "$name" core-only static
	io=$out/$name.csv co=$out/$name-core-only.csv sc=$out/$name-static.csv
	vs_s='' vs_c=''
	for p in "7 15 64B" "17 25 512B" "27 35 1024B" "37 45 1500B"; do
		read -r t0 t1 label <<<"$p"
		a=$(phase_mean "$io" sim_xmem4_refs_s "$t0" "$t1")
		vs_s="$vs_s $label $(pct "$a" "$(phase_mean "$sc" sim_xmem4_refs_s "$t0" "$t1")"),"
		vs_c="$vs_c $label $(pct "$a" "$(phase_mean "$co" sim_xmem4_refs_s "$t0" "$t1")"),"
	done
	lat="$(phase_mean "$io" sim_xmem4_lat_ns 37 45) / $(phase_mean "$co" sim_xmem4_lat_ns 37 45) / $(phase_mean "$sc" sim_xmem4_lat_ns 37 45) ns"
	row "Latent contender, packet-size sweep" "Fig. 10" \
		"PS X-Mem throughput ioca > core-only > static, gap growing with packet size: +53.6-111.5 % vs static, +1.4-56 % vs core-only; lower latency" \
				"xmem4 throughput ioca vs static:${vs_s%,}; vs core-only:${vs_c%,}; latency at 1500 B ioca/core-only/static $lat" \
		"xmem4 IPC $(between "$name" 5,15,25,35,45 xmem4 "0 1 2 3" "64B,512B,1024B,1500B")"
	after=$(pct "$(phase_mean "$io" sim_xmem4_refs_s 47 60)" "$(phase_mean "$sc" sim_xmem4_refs_s 47 60)")
	# DDIO and xmem4's masks in ioca's last interval
	read -r dm xm < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ d = $c["ddio_mask"]; x = $c["xmem4_mask"] } END { print d, x }' "$io")
	shared=$(((dm & xm) != 0))
	row "Outside DDIO change, 2 -> 4 ways" "Fig. 11" \
		"IOCA notices and reshuffles; the PS tenant stays isolated" \
		"$(grep -c 'changed outside iocad' "$out/$name.log") change noticed and adopted (ddio = observe); DDIO $dm, xmem4 $xm ($([ "$shared" = 0 ] && echo isolated || echo SHARING)); its throughput $after vs static afterwards"
fi

# Fig. 3, a motivation measurement: RFC2544 zero-loss throughput against the
# RX ring size (the loss model of iocad/SIMULATOR.md, "Zero-loss throughput").
zeroloss=iocad/build/zeroloss
fig3() { # scenario: "r64 r512 r1024 r4096 offered" in Mpps
	"$zeroloss" "$1" l3fwd 64 512 1024 4096 | awk 'NR > 1 { r[NR - 1] = $2; o = $2 / $3 }
		END { printf "%s %s %s %s %.4g\n", r[1], r[2], r[3], r[4], o }'
}
name=fig3-ring
if [ -f "examples/iocad/$name.scn" ] && [ -x "$zeroloss" ]; then
	read -r z64 z512 z1024 z4096 zoff < <(fig3 "examples/iocad/$name.scn")
	row "Ring size, RFC2544 zero-loss throughput (l3fwd, 1M flows, 64 B, one 40GbE port)" \
		"Fig. 3" "512 descriptors -13 % against 1024; 64 below a tenth" \
		"$z64, $z512, $z1024, $z4096 Mpps at 64, 512, 1024, 4096 descriptors (offered $zoff Mpps): 64 vs 1024 $(pct "$z64" "$z1024"), 512 vs 1024 $(pct "$z512" "$z1024"), 4096 vs 1024 $(pct "$z4096" "$z1024")"
fi

# A4 (ISCA 2025), beyond the IOCA paper: the inclusive ways.
name=a4-inclusive-dca
if [ -f "examples/iocad/$name.ini" ]; then
	t=$out/$name.csv # db on the inclusive ways (inclusive_ways = none): nothing moves
	idle=$(phase_mean "$t" db_ipc 2 10)
	row "Inclusive ways, DCA on and off" "A4 Fig. 4" \
		"a tenant on the inclusive ways, off DDIO's, slows under network I/O with DCA on, not with DCA off" \
		"db's IPC vs no traffic: DCA on $(pct "$(phase_mean "$t" db_ipc 12 25)" "$idle"), DCA off $(pct "$(phase_mean "$t" db_ipc 27 45)" "$idle"); DRAM $(gbs "$(phase_mean "$t" sim_mem_bytes_s 12 25)") with DCA, $(gbs "$(phase_mean "$t" sim_mem_bytes_s 27 45)") without"
fi
name=a4-io-inclusive
if [ -f "examples/iocad/$name.ini" ]; then
	# the same tenants without iocad's inclusive-ways rule: db lands on them
	sed 's/^ddio_ways_max = 2$/&\ninclusive_ways = none/' "examples/iocad/$name.ini" \
		>"$out/$name-none.ini"
	if ! "$iocad" --quiet --mode ioca --sim "examples/iocad/$name.scn" \
		--trace "$out/$name-none.csv" "$out/$name-none.ini" 2>"$out/$name-none.log"; then
		echo "demo: iocad failed on $name (inclusive_ways = none):" >&2
		cat "$out/$name-none.log" >&2
		exit 1
	fi
	a=$out/$name.csv b=$out/$name-none.csv
	row "I/O tenant on the inclusive ways" "A4 Fig. 7" \
		"lower memory bandwidth and latency with the I/O-heavy tenant on the inclusive ways" \
				"pmd on them vs db on them: DRAM traffic $(pct "$(phase_mean "$a" sim_mem_bytes_s 2 45)" "$(phase_mean "$b" sim_mem_bytes_s 2 45)"), db's latency $(pct "$(phase_mean "$a" sim_db_lat_ns 2 45)" "$(phase_mean "$b" sim_db_lat_ns 2 45)"), db's IPC $(pct "$(phase_mean "$a" db_ipc 2 45)" "$(phase_mean "$b" db_ipc 2 45)")" \
		"$(between "$name" 2,45 db 0 "db IPC"); $(between "$name" 2,45 pmd 0 "pmd IPC"); $(between "$name" 2,45 mem 0 "memory GB/s")"
fi

name=join-leave
# An applied reload ends with one summary line; the per-socket lines before it are not reloads.
if [ -f "examples/iocad/$name.ini" ]; then
	row "Tenants join and leave, bad reload" "Sec. 4 (tenant join/leave)" \
		"a new tenant gets its ways, a leaving one's are reused" \
		"$(grep '^iocad: reload: ' "$out/$name.log" | grep -vc '^iocad: reload: socket [0-9]*:') reload(s) applied, $(grep -c 'reload rejected' "$out/$name.log") bad one(s) rejected with file:line (timing: tests/test_sim_reload.c)"
fi

# Story $1's scenario with its config variant $1-$2.ini (or the config $3),
# traced to $1-$2.csv.
variant() {
	if ! "$iocad" --quiet --sim "examples/iocad/$1.scn" --trace "$out/$1-$2.csv" \
		"${3:-examples/iocad/$1-$2.ini}" 2>"$out/$1-$2.log"; then
		echo "demo: iocad failed on $1-$2:" >&2
		cat "$out/$1-$2.log" >&2
		exit 1
	fi
}

name=storage-ddio
if [ -f "examples/iocad/$name.ini" ] && [ -f "examples/iocad/$name-on.ini" ]; then
	# the same run with DDIO always on for the SSD: storage-ddio-on.ini
	variant "$name" on
	on=$out/$name-on.csv
	io=$out/$name.csv
	# network and storage load, after the rule acted; then the storage load is gone
	d() { pct "$(phase_mean "$io" "$1" 20 38)" "$(phase_mean "$on" "$1" 20 38)"; }
	at() { sed -n "s/.*DDIO $1 at t=\([0-9]*\)s (auto.*/\1 s/p" "$out/$name.log" | head -n 1; }
	row "Storage DDIO off under network + storage load" "A4 Fig. 8a" \
		"DDIO off for storage DMA that only pollutes the LLC lifts the high-priority workloads (part of A4's +51 % over DDIO-oblivious management)" \
		"auto vs on, 1.5 GiB/s of SSD writes beside 1 Mpps of 1500 B: DDIO hits $(d ddio_hits), misses $(d ddio_misses), memory $(d sim_mem_bytes_s), net IPC $(d net_ipc), web IPC $(d web_ipc), batch (on DDIO's ways) IPC $(d batch_ipc); SSD DDIO off at $(at off), on at $(at on) (load stops at 40 s)" \
		"$(between "$name" 2,20,38 web 1 "web IPC"); $(between "$name" 2,20,38 net 1 "net IPC"); $(between "$name" 2,20,38 mem 1 "memory GB/s")"
fi

name=antagonist
if [ -f "examples/iocad/$name.ini" ] && [ -f "examples/iocad/$name-observe.ini" ]; then
	# the same run with antagonists = observe: judged, never confined
	variant "$name" observe
	ob=$out/$name-observe.csv
	io=$out/$name.csv
	d() { pct "$(phase_mean "$io" "$1" 20 38)" "$(phase_mean "$ob" "$1" 20 38)"; }
	row "Antagonist confined to a small zone" "A4 (antagonists)" \
		"a tenant with very high L2 and LLC miss ratios confined to a small zone; the others gain" \
		"confine vs observe while a BE tenant sharing a DDIO way scans 1 GiB (20-38 s): DDIO misses $(phase_mean "$io" ddio_misses 20 38)/s vs $(phase_mean "$ob" ddio_misses 20 38)/s, memory $(d sim_mem_bytes_s), net IPC $(d net_ipc), web IPC $(d web_ipc), the antagonist's IPC $(d stream_ipc); $(grep -c 'is an antagonist' "$out/$name.log") confinement, $(grep -c 'no antagonist any more' "$out/$name.log") release" \
		"$(between "$name" 2,20,38 web 1 "web IPC"); $(between "$name" 2,20,38 net 1 "net IPC")"
fi

# Story $1's scenario with its config changed by sed expression $3, traced
# to $1-$2.csv (the config as $1-$2.ini beside it).
variant_sed() {
	sed "$3" "examples/iocad/$1.ini" >"$out/$1-$2.ini"
	variant "$1" "$2" "$out/$1-$2.ini"
}

name=a4-whole
if [ -f "examples/iocad/$name.ini" ] && [ -f "examples/iocad/$name-ioca.ini" ]; then
	# IOCA's rules alone (a4-whole-ioca.ini), and the whole design without each part
	variant "$name" ioca
	variant_sed "$name" no-inclusive 's/^antagonists = confine$/&\ninclusive_ways = none/'
	variant_sed "$name" ddio-on 's/^ddio = auto$/ddio = on/'
	variant_sed "$name" no-antagonists 's/^antagonists = confine$/antagonists = off/'
	io=$out/$name.csv
	# after the antagonist's verdict and the storage rule, to the end
	d() { pct "$(phase_mean "$io" "$2" 20 60)" "$(phase_mean "$out/$name-$1.csv" "$2" 20 60)"; }
	m() { phase_mean "$out/$name-$1.csv" "$2" 20 60; }
	# the PS tenants' mean IPC gain (web's and net's ratios averaged)
	hp() { awk -v a="$(m "$1" web_ipc)" -v b="$(phase_mean "$io" web_ipc 20 60)" \
		-v c="$(m "$1" net_ipc)" -v e="$(phase_mean "$io" net_ipc 20 60)" \
		'BEGIN { printf "%+.1f%%", ((b / a + e / c) / 2 - 1) * 100 }'; }
	part() { echo "PS mean $(hp "$1") (web $(d "$1" web_ipc), net $(d "$1" net_ipc)), BE db $(d "$1" db_ipc), batch $(d "$1" batch_ipc), DDIO misses $(phase_mean "$io" ddio_misses 20 60)/s vs $(m "$1" ddio_misses)/s, memory $(d "$1" sim_mem_bytes_s)"; }
	row "The whole design vs IOCA's rules alone" "A4 (overall)" \
		"+51 % for high-priority workloads over DDIO-oblivious management" \
		"whole vs IOCA alone (20-60 s): the PS tenants' mean IPC $(hp ioca) (web $(d ioca web_ipc), its latency $(d ioca sim_web_lat_ns); net $(d ioca net_ipc), its 3.29 Mpps $(d ioca sim_net_pkts_s)); BE db $(d ioca db_ipc), batch $(d ioca batch_ipc), stream $(d ioca stream_ipc); DDIO misses $(phase_mean "$io" ddio_misses 20 60)/s vs $(m ioca ddio_misses)/s, memory $(d ioca sim_mem_bytes_s). Whole vs without the inclusive ways: $(part no-inclusive); vs the SSD's DDIO on: $(part ddio-on); vs antagonists off: $(part no-antagonists)" \
		"$(between "$name" 2,20,60 web 1 "web IPC"); $(between "$name" 2,20,60 net 1 "net IPC"); $(between "$name" 2,20,60 mem 1 "memory GB/s")"
fi

if [ ${#rows[@]} -gt 0 ]; then
	echo
		echo "| story | paper | paper's result | ours (simulator) | static / ioca / oracle (noise-free, second half of each phase) |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
fi
# Sensitivity: each story's headline figure with one uncertain platform
# parameter moved to the low and high end of its plausible range (the
# defaults and ranges: iocad/SIMULATOR.md, "Memory bandwidth"). Each run is
# the story's scenario with that one [platform] key replaced.
with_key() { # name key value [section]: the story's scenario with key = value (-: as it is) in
	# [platform] or the section named ("tenant vswitch")
	local f=$out/sens/$1-$2-$3.scn want=${4:-platform}
	if [ "$3" = - ]; then # the story as it is
		cp "examples/iocad/$1.scn" "$f"
		echo "$f"
		return
	fi
	awk -v k="$2" -v v="$3" -v want="${want// /}" '
	function put() { if (sec == want && !done) { print k " = " v; done = 1 } }
	/^\[/ { put(); sec = $0; gsub(/[][ ]/, "", sec) }
	sec == want && $1 == k { put(); next }
	{ print }
	END { put() }' "examples/iocad/$1.scn" >"$f"
	echo "$f"
}
srun() { # name mode scn tag: run a scenario copy, trace to $out/sens/
	if ! "$iocad" --quiet --mode "$2" --sim "$3" --trace "$out/sens/$4-$2.csv" \
		"examples/iocad/$1.ini" 2>"$out/sens/$4-$2.log"; then
		echo "demo: iocad failed on $3 ($2):" >&2
		cat "$out/sens/$4-$2.log" >&2
		exit 1
	fi
}
headlines() { # key value [sec8 sec9 sec10 sec3]: "fig8 memory | fig8 IPC | fig9 IPC | fig10
	# vs static | vs core-only | fig3 64 and 512 vs 1024", key = value in [platform] or each
	# story's section named
	local k=$1 v=$2 s8=${3:-platform} s9=${4:-platform} s10=${5:-platform} s3=${6:-platform}
	local tag scn a z64 z512 z1024 z4096 zoff
	tag=fig8-$k-$v
	scn=$(with_key fig8-leaky-dma "$k" "$v" "$s8")
	srun fig8-leaky-dma ioca "$scn" "$tag"
	srun fig8-leaky-dma static "$scn" "$tag"
	h8m=$(pct "$(phase_mean "$out/sens/$tag-ioca.csv" sim_mem_bytes_s 44 55)" \
		"$(phase_mean "$out/sens/$tag-static.csv" sim_mem_bytes_s 44 55)")
	h8i=$(pct "$(phase_mean "$out/sens/$tag-ioca.csv" vswitch_ipc 44 55)" \
		"$(phase_mean "$out/sens/$tag-static.csv" vswitch_ipc 44 55)")
	tag=fig9-$k-$v
	scn=$(with_key fig9-flows "$k" "$v" "$s9")
	srun fig9-flows ioca "$scn" "$tag"
	srun fig9-flows static "$scn" "$tag"
	h9=$(pct "$(phase_mean "$out/sens/$tag-ioca.csv" vswitch_ipc 44 55)" \
		"$(phase_mean "$out/sens/$tag-static.csv" vswitch_ipc 44 55)")
	tag=fig10-$k-$v
	scn=$(with_key fig10-latent-sweep "$k" "$v" "$s10")
	for m in ioca core-only static; do
		srun fig10-latent-sweep "$m" "$scn" "$tag"
	done
	a=$(phase_mean "$out/sens/$tag-ioca.csv" sim_xmem4_refs_s 37 45)
	h10s="$(pct "$(phase_mean "$out/sens/$tag-ioca.csv" sim_xmem4_refs_s 7 15)" \
		"$(phase_mean "$out/sens/$tag-static.csv" sim_xmem4_refs_s 7 15)") / $(pct "$a" \
		"$(phase_mean "$out/sens/$tag-static.csv" sim_xmem4_refs_s 37 45)")"
	h10c="$(pct "$(phase_mean "$out/sens/$tag-ioca.csv" sim_xmem4_refs_s 7 15)" \
		"$(phase_mean "$out/sens/$tag-core-only.csv" sim_xmem4_refs_s 7 15)") / $(pct "$a" \
		"$(phase_mean "$out/sens/$tag-core-only.csv" sim_xmem4_refs_s 37 45)")"
	scn=$(with_key fig3-ring "$k" "$v" "$s3")
	read -r z64 z512 z1024 z4096 zoff < <(fig3 "$scn")
	echo "$h8m|$h8i|$h9|$h10s|$h10c|$(pct "$z64" "$z1024") / $(pct "$z512" "$z1024")"
}
if [ -f examples/iocad/fig8-leaky-dma.ini ] && [ -f examples/iocad/fig9-flows.ini ] &&
	[ -f examples/iocad/fig10-latent-sweep.ini ] && [ -f examples/iocad/fig3-ring.scn ] &&
	[ -x "$zeroloss" ]; then
	mkdir -p "$out/sens"
	echo
	echo "Sensitivity: each story's headline with one platform parameter at the low end, the"
	echo "default and the high end of its range (leak_cycles: 0, its default, then 4 and 16;"
	echo "inclusive_mask: 0, no inclusive ways, read ring lines stay in DDIO's; 0x3, A4's;"
	echo "0x7, three ways; stall: a polling core's longest stall in an RFC2544 trial; rx_burst:"
	echo "packets a poll takes), the NIC tenant's touch (bytes of a packet it reads) and tx (the"
	echo "share of its packets it sends back out). Fig. 8 at 1500 B and Fig. 9 at 100K flows,"
	echo "ioca vs static; Fig. 10 xmem4 throughput at 64 B / 1500 B; Fig. 3 zero-loss throughput"
	echo "at 64 / 512 descriptors vs 1024."
	echo
	echo "| parameter (low ; default ; high) | Fig. 8 memory | Fig. 8 vswitch IPC | Fig. 9 vswitch IPC | Fig. 10 vs static (64 B, 1500 B) | Fig. 10 vs core-only (64 B, 1500 B) | Fig. 3 (64, 512 vs 1024) |"
	echo "|---|---|---|---|---|---|---|"
	sens_row() { # label key lo def hi [sec8 sec9 sec10 sec3]: one row, key at three values
		local label=$1 k=$2 v c line cells=()
		shift 2
		for v in "$1" "$2" "$3"; do
			cells+=("$(headlines "$k" "$v" "${4:-platform}" "${5:-platform}" \
				"${6:-platform}" "${7:-platform}")")
		done
		line="| $label |"
		for c in 1 2 3 4 5 6; do
			line="$line $(for v in 0 1 2; do echo "${cells[$v]}" | cut -d'|' -f$c; done |
				paste -sd ';' | sed 's/;/ ; /g') |"
		done
		echo "$line"
	}
	for p in "mem_bw 64G 128G 256G" "mem_slope 0.1 0.2 0.4" "miss_penalty 160 200 230" \
		"inclusive_mask 0 0x3 0x7" "leak_cycles 0 4 16" "stall 10us 50us 200us" \
		"rx_burst 16 32 64"; do
		# leak_cycles' default is its low end, 0 (SIMULATOR.md)
		read -r k lo def hi <<<"$p"
		sens_row "$k ($lo ; $def ; $hi)" "$k" "$lo" "$def" "$hi"
	done
	# workload guesses of the NIC tenant, each story's own value (-) in the middle: the
	# bytes of each packet it reads (the stories: 64, 64, 128, 64), and the share of its
	# packets it sends back out (1: every one; SIMULATOR.md, "TX reads")
	nic="tenant vswitch|tenant vswitch|tenant pmd|tenant l3fwd"
	IFS='|' read -r n8 n9 n10 n3 <<<"$nic"
	sens_row "NIC tenant's touch, a workload guess (64 ; 64, 64, 128, 64 ; 256)" touch 64 - 256 \
		"$n8" "$n9" "$n10" "$n3"
	sens_row "NIC tenant's tx, the share it forwards (0 ; 1, the stories' ; 0.5)" tx 0 - 0.5 \
		"$n8" "$n9" "$n10" "$n3"
	# a workload guess: the vswitch's overlapped misses (fig9-flows.scn)
	cells=()
	for v in 1 6 12; do
		scn=$(with_key fig9-flows mlp "$v" "tenant vswitch")
		srun fig9-flows ioca "$scn" "fig9-mlp-$v"
		srun fig9-flows static "$scn" "fig9-mlp-$v"
		cells+=("$(pct "$(phase_mean "$out/sens/fig9-mlp-$v-ioca.csv" vswitch_ipc 44 55)" \
			"$(phase_mean "$out/sens/fig9-mlp-$v-static.csv" vswitch_ipc 44 55)")")
	done
	echo "| vswitch mlp, Fig. 9's workload (1 ; 6 ; 12) | | | ${cells[0]} ; ${cells[1]} ; ${cells[2]} | | | |"
fi
echo "demo: traces and pictures in $out/"
exit $status
