#!/usr/bin/env bash
# Benchmark: jheartbeat's ReplicationRunner against a bare `rsync -a --delete` on 10 000 files.
#
#   bench/replication-bench.sh [PEER]
#
# Without PEER both copy locally (target directory in the same temp dir). With PEER (an ssh
# destination such as root@198.18.1.2, reachable without a password) both copy over ssh; the
# tree lands on the peer under the same temp path (removed afterwards).
# In the lab (real ssh across the crossover link, each node with its own /srv):
#   LAB_ID=bn lab/lab.sh up
#   LAB_ID=bn lab/lab.sh exec node1 env SSH="$(LAB_ID=bn lab/lab.sh ssh-cmd)" BENCH_DIR=/srv \
#       bench/replication-bench.sh 198.18.1.2
#   LAB_ID=bn lab/lab.sh down
# Env: FILES (default 10000), KEEP=1 keeps the temp dir, SSH (remote shell, default
# "ssh -o BatchMode=yes"), BENCH_DIR (where the temp dir is made, default /tmp).
set -euo pipefail

PEER=${1:-}
FILES=${FILES:-10000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SSH=${SSH:-ssh -o BatchMode=yes}
WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/jhb-bench.XXXXXX")
cleanup() {
    if [[ -n "$PEER" ]]; then $SSH "$PEER" "rm -rf '$WORK'" || true; fi
    if [[ -z "${KEEP:-}" ]]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT

echo "== building (mvn -o -q -pl bench,cli -am package -DskipTests) =="
cd "$ROOT"
mvn -o -q -B -pl bench,cli -am package -DskipTests >/dev/null
# the sync module and its libraries come from the shaded hb.jar (its logging configuration,
# ClientLogConfigurator, sends warnings to stderr only, so stdout carries just the figures)
CP="$ROOT/bench/target/classes:$ROOT/cli/target/hb.jar"

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

JAVA_OPTS=(-cp "$CP" -Dbench.ssh="$SSH")
if [[ -n "$PEER" ]]; then
    echo "== jheartbeat ReplicationRunner over ssh to $PEER =="
    java "${JAVA_OPTS[@]}" org.jheartbeat.bench.ReplicationBench "$WORK/src" "$WORK/unused" "$WORK/state" "$PEER" \
        | tee "$WORK/jhb.txt"
    $SSH "$PEER" "rm -rf '$WORK/src' && mkdir -p '$WORK/src-bare'"
    DEST="$PEER:$WORK/src-bare/"
    RSH=(-e "$SSH")
else
    echo "== jheartbeat ReplicationRunner, local path target =="
    java "${JAVA_OPTS[@]}" org.jheartbeat.bench.ReplicationBench "$WORK/src" "$WORK/replica" "$WORK/state" \
        | tee "$WORK/jhb.txt"
    DEST="$WORK/bare/"
    RSH=()
fi

echo "== bare rsync -a --delete =="
bare() {
    local t0 t1
    t0=$(date +%s.%N)
    rsync -a --delete "${RSH[@]}" "$WORK/src/" "$DEST"
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
}
b1=$(bare); printf 'rsync      %-16s %8.3f s\n' "full copy" "$b1"
b2=$(bare); printf 'rsync      %-16s %8.3f s\n' "no-change rerun" "$b2"

j1=$(awk '/full copy/ {print $4}' "$WORK/jhb.txt")
j2=$(awk '/no-change rerun/ {print $4}' "$WORK/jhb.txt")
echo "== ratio jheartbeat / bare rsync (includes JVM-side file count for the guard, --stats, -HAX, stamp) =="
printf 'full copy        %6.2f x\n' "$(echo "$j1 / $b1" | bc -l)"
printf 'no-change rerun  %6.2f x\n' "$(echo "$j2 / $b2" | bc -l)"
