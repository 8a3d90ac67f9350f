#!/usr/bin/env bash
# Benchmark: jheartbeat's ReplicationRunner against a bare rsync with the same argv, 10 000 files.
#
#   bench/replication-bench.sh [PEER]
#   bench/replication-bench.sh --help     # this header
#
# Fair by construction:
# - the bare rsync runs exactly the argv the runner runs (printed below; -aHAX --numeric-ids --stats
#   --partial --delete, and -e SSH --protect-args --mkpath towards a peer), to the same destination,
#   over the same transport;
# - the runs interleave: per round a full copy by each (the destination removed and `sync` run
#   before each, and the source read into the page cache, untimed), then a run with nothing to copy by each; odd rounds start with
#   jheartbeat, even rounds with rsync;
# - the runner lives in one JVM for the whole bench, as in the daemon, and is warmed up first (two
#   runs of a 200-file tree): class loading and JVM start are not counted; the bare rsync is timed
#   by bash ($EPOCHREALTIME around the command, no fork for the clock);
# - ROUNDS rounds (default 5): medians, min-max and the ratio of the medians.
# Without PEER both copy locally (the destination in the same temp dir). With PEER (an ssh
# destination such as root@198.18.1.2, reachable without a password) both copy over ssh; the
# tree lands on the peer under the same temp path (removed afterwards).
# In the lab (real ssh across the crossover link, each node with its own /srv):
#   LAB_ID=bn lab/lab.sh up
#   LAB_ID=bn lab/lab.sh exec node1 env SSH="$(LAB_ID=bn lab/lab.sh ssh-cmd)" BENCH_DIR=/srv \
#       bench/replication-bench.sh 198.18.1.2
#   LAB_ID=bn lab/lab.sh down
# Env: FILES (default 10000), ROUNDS (default 5), KEEP=1 keeps the temp dir, SSH (remote shell,
# default "ssh -o BatchMode=yes"), BENCH_DIR (where the temp dir is made, default /tmp),
# NO_BUILD=1 uses the jars already built, HB_JAR another hb.jar (e.g. one built from an older commit).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/args.sh"

PEER=
while (($#)); do
    case $1 in
        -h | --help) print_header; exit 0 ;;
        -*) unknown_arg "$1" ;;
        *)
            [[ -z $PEER ]] || arg_error "one PEER at most, not '$PEER' and '$1'"
            PEER=$1
            shift ;;
    esac
done
FILES=${FILES:-10000}
ROUNDS=${ROUNDS:-5}
positive_int FILES "$FILES"
positive_int ROUNDS "$ROUNDS"
args_done
SSH=${SSH:-ssh -o BatchMode=yes}
WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/jhb-bench.XXXXXX")
JPID=
cleanup() {
    if [[ -n "$JPID" ]]; then kill "$JPID" 2>/dev/null || true; fi
    if [[ -n "$PEER" ]]; then $SSH "$PEER" "rm -rf '$WORK'" || true; fi
    if [[ -z "${KEEP:-}" ]]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT

cd "$ROOT"
if [[ -z "${NO_BUILD:-}" ]]; then
    echo "== building (mvn -o -q -pl bench,cli -am package -DskipTests) =="
    mvn -o -q -B -pl bench,cli -am package -DskipTests >/dev/null
fi
# the sync module and its libraries come from the shaded hb.jar (its logging configuration,
# ClientLogConfigurator, sends warnings to stderr only, so stdout carries just the protocol)
CP="$ROOT/bench/target/classes:${HB_JAR:-$ROOT/cli/target/hb.jar}"

echo "== creating $FILES files in $WORK/src =="
mkdir -p "$WORK/src"
for d in $(seq 0 19); do mkdir -p "$WORK/src/d$d/sub"; done
pad=$(printf '%*s' 65536 '')
for ((i = 0; i < FILES; i++)); do
    size=$(( (i * 7919) % 16384 + 1 ))       # 1 B .. 16 KiB, varied
    d=$(( i % 20 ))
    if (( i % 3 == 0 )); then f="$WORK/src/d$d/sub/f$i"; else f="$WORK/src/d$d/f$i"; fi
    printf '%s' "${pad:0:size}" > "$f"
done
for i in 1 2 3; do head -c $((4 * 1024 * 1024)) /dev/urandom > "$WORK/src/big$i"; done
echo "   $(find "$WORK/src" -type f | wc -l) files, $(du -sh "$WORK/src" | cut -f1)"

# read the source into the page cache before each full copy (untimed): on a busy machine the
# first copy after a while would otherwise read it from disk and the second from memory
warm() { find "$WORK/src" -type f -exec cat {} + >/dev/null; }
if [[ -n "$PEER" ]]; then
    fresh() { $SSH "$PEER" "rm -rf '$WORK/src' && sync"; warm; }
    echo "== over ssh to $PEER (remote shell: $SSH) =="
    coproc JHB { exec java -cp "$CP" -Dbench.ssh="$SSH" org.jheartbeat.bench.ReplicationBench \
        "$WORK/src" "$WORK/unused" "$WORK/state" "$PEER"; }
else
    # the runner creates the destination directory (rsync makes only its last component)
    fresh() { rm -rf "$WORK/replica"; mkdir -p "${ARGV[-1]}"; sync; warm; }
    echo "== local path target =="
    coproc JHB { exec java -cp "$CP" org.jheartbeat.bench.ReplicationBench \
        "$WORK/src" "$WORK/replica" "$WORK/state"; }
fi
JPID=$JHB_PID
ARGV=()
read -r line <&"${JHB[0]}"
[[ "$line" == argv-begin ]] || { echo "unexpected from the bench JVM: $line" >&2; exit 1; }
while read -r line <&"${JHB[0]}" && [[ "$line" != argv-end ]]; do ARGV+=("$line"); done
read -r line <&"${JHB[0]}"
[[ "$line" == ready ]] || { echo "unexpected from the bench JVM: $line" >&2; exit 1; }
printf 'argv of both (jheartbeat runs it, the bare rsync runs it the same):\n '; printf ' %q' "${ARGV[@]}"; echo

# each sets T to the run's wall time in seconds (no command substitution: the coprocess's
# descriptors and a failing run's exit stay in this shell)
jhb() {
    local res n
    echo run >&"${JHB[1]}"
    read -r T res n <&"${JHB[0]}"
    [[ "$res" == OK ]] || { echo "jheartbeat run: $res" >&2; exit 1; }
}
bare() {
    local t0 t1
    t0=$EPOCHREALTIME
    LC_ALL=C "${ARGV[@]}" >/dev/null
    t1=$EPOCHREALTIME
    T=$(echo "$t1 - $t0" | bc -l)
}
: > "$WORK/times"
for ((r = 1; r <= ROUNDS; r++)); do
    if (( r % 2 == 1 )); then order=(jhb bare); else order=(bare jhb); fi
    for who in "${order[@]}"; do
        fresh
        $who
        printf '%s full %s\n' "$who" "$T" >> "$WORK/times"
    done
    for who in "${order[@]}"; do
        $who
        printf '%s noop %s\n' "$who" "$T" >> "$WORK/times"
    done
    printf 'round %d/%d (%s first): %s\n' "$r" "$ROUNDS" "${order[0]}" \
        "$(tail -4 "$WORK/times" | awk '{printf "%s %s %.3f s; ", $1, $2, $3}')"
done
exec {JHB[1]}>&-
wait "$JPID" || true
JPID=

median() { sort -g | awk '{a[NR] = $1} END {if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
stats() { awk -v w="$1" -v k="$2" '$1 == w && $2 == k {print $3}' "$WORK/times"; }
echo "== $ROUNDS interleaved rounds: median (min-max) in seconds; load average $(cut -d' ' -f1-3 /proc/loadavg) =="
for kind in full noop; do
    mj=$(stats jhb $kind | median); mb=$(stats bare $kind | median)
    rj=$(stats jhb $kind | sort -g | awk 'NR == 1 {a = $1} {b = $1} END {printf "%.3f-%.3f", a, b}')
    rb=$(stats bare $kind | sort -g | awk 'NR == 1 {a = $1} {b = $1} END {printf "%.3f-%.3f", a, b}')
    label=$([[ $kind == full ]] && echo "full copy" || echo "nothing to copy")
    printf '%-16s jheartbeat %7.3f (%s)  rsync %7.3f (%s)  ratio of medians %5.2f x\n' "$label" \
        "$mj" "$rj" "$mb" "$rb" "$(echo "$mj / $mb" | bc -l)"
done
