#!/usr/bin/env bash
# The fault matrix (docs/benchmarks.md). Runs every fault scenario in the lab (each on a fresh lab),
# checks each expected outcome and, throughout, that never two nodes serve the VIP (the client's ARP
# view and the nodes' addresses), and prints the table (also in cli/target/fault-matrix.md).
# As root. About 15 minutes (the three junk and replay drills, FloodDrills, take 2.5 of them). Usage:
#   bench/fault-matrix.sh                 # every scenario
#   bench/fault-matrix.sh 'STONITH'       # only scenarios whose name contains STONITH
#   bench/fault-matrix.sh 'flood'         # the junk-flood drill (FloodDrills, bench/hb-frames.py; ~1.5 min)
#   bench/fault-matrix.sh 'replay'        # the two replay drills (node2's frames replayed after it froze / lost power)
#   FLAP_SECONDS=20 bench/fault-matrix.sh # a shorter flapping-link scenario (default 60 s)
# Exit status: 0 iff every row is PASS.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/args.sh
case ${1:-} in -*) unknown_arg "$1" ;; esac
(($# <= 1)) || arg_error "one name filter at most, not $#: quote a filter with blanks"
only=${1:-}
positive_int FLAP_SECONDS "${FLAP_SECONDS:-60}"
args_done
[[ $(id -u) == 0 ]] || { echo "fault-matrix.sh: the lab needs root (network namespaces); run it as root" >&2; exit 2; }
log=cli/target/fault-matrix.log
mkdir -p cli/target
rm -f cli/target/fault-matrix.md
rc=0
mvn -o -B -q verify -pl cli -am -DskipTests=false -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test='FaultMatrixIT#fullMatrix' -Djhb.drills=true \
    -Djhb.faults="$only" -Djhb.faults.flapSeconds="${FLAP_SECONDS:-60}" >"$log" 2>&1 || rc=$?
if [[ -f cli/target/fault-matrix.md ]]; then
    echo "fault matrix, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -r)"
    cat cli/target/fault-matrix.md
else
    echo "fault-matrix.sh: no table was written; see $log" >&2
    tail -40 "$log" >&2
fi
exit "$rc"
