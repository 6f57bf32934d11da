# Timeline of one iocad trace (CSV, columns in iocad/loop/loop_types.h), drawn by
# scripts/plot_trace.sh, which passes:
#   csv      the trace file              png      the picture to write
#   title    a heading                    tenants  space-separated tenant names
#   waymap   a CSV of boxes t0,t1,way,owner (owner 0: DDIO, i: the i-th tenant)
#   nways    LLC ways                     tmax     the end of the time axis (s)
# Five panels over simulated time: the FSM state, who owns which LLC way
# (DDIO hatched over the tenants it shares with), the DDIO counters that
# drive I/O Demand and Core Demand, each tenant's LLC miss rate, its IPC.

set terminal pngcairo size 1200,1500 font "DejaVu Sans,10" noenhanced
set output png
set datafile separator ","
set datafile columnheaders
set datafile missing ""

state_num(s) = s eq "low_keep" ? 0 : s eq "io_demand" ? 1 : s eq "core_demand" ? 2 : \
	s eq "high_keep" ? 3 : s eq "reclaim" ? 4 : NaN
ratio(a, b) = b > 0 ? a / b : NaN
nt = words(tenants)
array col[8] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", \
	"#17becf", "#bcbd22"]
tc(i) = col[(i - 1) % 8 + 1]

set multiplot layout 5,1 title title font ",14"
set grid xtics ytics lc rgb "#dddddd"
set lmargin 17
set rmargin 24
set xrange [0:tmax]
set format x ""
set key outside right top Left reverse samplen 2 width 1

# 1. FSM state
set ytics ("low keep" 0, "I/O demand" 1, "core demand" 2, "high keep" 3, "reclaim" 4)
set yrange [-0.5:4.5]
set ylabel "FSM state"
# Each transition is labelled with its reason, where it happens.
prev = ""
changed(s) = (c = s ne prev, prev = s, c)
# An outside change of the DDIO mask (column ddio_outside: the mask iocad
# believed) is marked where iocad noticed it; older traces have no column.
outside(s) = strlen(s) > 0
if (has_outside) {
	plot csv using "t_s":(state_num(strcol("state"))) with steps lw 2 lc rgb "#1f77b4" \
		notitle, \
		csv using "t_s":(changed(strcol("state")) ? state_num(strcol("state")) : NaN): \
		(strcol("reason")) with labels left offset 0.5,0.6 font ",9" notitle, \
		csv using "t_s":(outside(strcol("ddio_outside")) ? 4.2 : NaN): \
		("DDIO ".strcol("ddio_outside")." -> ".strcol("ddio_mask")." (outside)") \
		with labels right offset -0.5,0 font ",9" tc rgb "#d62728" notitle
} else {
	plot csv using "t_s":(state_num(strcol("state"))) with steps lw 2 lc rgb "#1f77b4" \
		notitle, \
		csv using "t_s":(changed(strcol("state")) ? state_num(strcol("state")) : NaN): \
		(strcol("reason")) with labels left offset 0.5,0.6 font ",9" notitle
}

# 2. Way map: tenants' CAT ways filled, DDIO's ways hatched on top.
set ytics 1
set yrange [-0.5:nways - 0.5]
set ylabel "LLC way"
set grid noytics
set style fill solid 0.85 noborder
plot for [i=1:nt] waymap using 1:($4 == i ? $3 : NaN):1:2:($3 - 0.45):($3 + 0.45) \
	    with boxxyerror lc rgb tc(i) title word(tenants, i), \
	waymap using 1:($4 == 0 ? $3 : NaN):1:2:($3 - 0.5):($3 + 0.5) \
	    with boxxyerror fs transparent pattern 4 noborder lc rgb "black" title "DDIO"
set grid ytics
set style fill empty

# 3. DDIO counters
set ytics autofreq
set yrange [0:*]
set ylabel "DDIO events / interval (M)"
plot csv using "t_s":(column("ddio_hits") / 1e6) with lines lw 2 lc rgb "#2ca02c" \
	title "DDIO hits", \
	csv using "t_s":(column("ddio_misses") / 1e6) with lines lw 2 lc rgb "#d62728" \
	title "DDIO misses"

# 4. LLC miss rates
set ylabel "LLC miss rate"
set yrange [0:1]
plot for [i=1:nt] csv using "t_s":(ratio(column(word(tenants, i)."_llc_misses"), \
	column(word(tenants, i)."_llc_refs"))) with lines lw 2 lc rgb tc(i) \
	title word(tenants, i)

# 5. IPC
set yrange [0:*]
set ylabel "IPC"
set xlabel "simulated time (s)"
set format x "%g"
plot for [i=1:nt] csv using "t_s":(column(word(tenants, i)."_ipc")) with lines lw 2 \
	lc rgb tc(i) title word(tenants, i)

unset multiplot
