#!/usr/bin/env bash
# Host side of the soak (found by `make vmtest`; `make soak` runs a longer
# one): builds ioca.ko and resctrl_emu.ko against KDIR and the static iocad
# and iocactl, boots the guest kernel under QEMU (TCG) with 4 CPUs on two
# sockets and runs guest.sh there: iocad on the host platform (ioca.ko
# emulate=1 emulate_sockets=2, resctrl_emu.ko with two L3 domains) under a
# seeded random sequence of faults, its invariants checked after every
# step. Prints the guest's TAP and "soak: N passed, M failed".
#
# Environment:
#   SOAK_SECONDS  nominal guest time of the fault sequence: one step per
#                 2.5 s (default 60, the short pass `make vmtest` runs;
#                 `make soak` passes 180)
#   SOAK_SEED     the seed of the sequence (default: a random one); the
#                 seed is printed, and the same SOAK_SEED and SOAK_SECONDS
#                 replay the same faults in the same order
#   SOAK_HOSTLOOP 1 adds the faults whose handling is the loop's (rmmod
#                 and insmod of ioca.ko under iocad, the rate check across a
#                 reload that changes sampling); default 1, 0 leaves them out
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/vm/guestparts.sh
. "$root/scripts/vm/guestparts.sh"
vm_runner soak

seconds=${SOAK_SECONDS:-60}
seed=${SOAK_SEED:-$(($(od -An -N4 -tu4 /dev/urandom) & 0x7fffffff))}
[[ $seconds =~ ^[1-9][0-9]*$ ]] || fail_all "SOAK_SECONDS '$seconds' is not a positive integer"
hostloop=${SOAK_HOSTLOOP:-1}
[[ $seed =~ ^[0-9]+$ ]] || fail_all "SOAK_SEED '$seed' is not a number"
[[ $hostloop =~ ^[01]$ ]] || fail_all "SOAK_HOSTLOOP '$hostloop' is not 0 or 1"
steps=$((seconds * 2 / 5))
[ "$steps" -ge 16 ] || steps=16 # the warm-up does each of 13 (14) faults once
echo "soak: seed $seed, $steps steps (SOAK_SECONDS $seconds); replay with SOAK_SEED=$seed SOAK_SECONDS=$seconds SOAK_HOSTLOOP=$hostloop"

guest_parts "$work"

# A step waits for up to 4 intervals and checks with bounded waits; under
# TCG on a loaded host one takes a few times its nominal 2.5 s (a remount
# or a restart after kill -9 more).
"$run" --cpu Skylake-Client --smp 4 --sockets 2 --mem 512 --timeout $((400 + seconds * 10)) \
	--append loglevel=2 "${guest_files[@]}" --file "$root/scripts/vm/tap.sh" \
	--file "$root/selftests/iocad/iocad_guest.sh" --file "$root/selftests/iocad/two_sockets.ini" \
	--file "$here/faults.sh" --file "$here/guest.sh" -- sh ./guest.sh "$seed" "$steps" "$hostloop" |
	tee "$work/console"
rc=${PIPESTATUS[0]}
"$root/scripts/vm/taptally.sh" soak "$work/console" "$rc"
