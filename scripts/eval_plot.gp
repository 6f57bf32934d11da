# make eval's picture: the distribution of PS tenants' IPC against static,
# one curve per mode (csv and png are set on the command line).
set datafile separator ","
set terminal pngcairo size 900,520
set output png
set key bottom right
set grid
set xlabel "PS tenant-phases, sorted (fraction)"
set ylabel "IPC / static's IPC"
set yrange [0:*]
plot csv using 1:2 with lines lw 2 title "ioca", \
     csv using 1:3 with lines lw 2 title "core-only", \
     csv using 1:4 with lines lw 2 title "oracle", \
     0.95 with lines dt 2 lc rgb "red" title "0.95"
