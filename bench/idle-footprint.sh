#!/usr/bin/env bash
# Benchmark: the packaged launcher's footprint. In a lab (lab/lab.sh, root), starts the daemon on
# both nodes through packaging/src/bin/hb (the /usr/sbin/hb of the .deb, with its default JVM flags
# unless HB_JAVA_OPTS is set) and prints:
#   - first beat: time from the daemon's exec (lab.sh's "=== ... start" line, written just before
#     the exec) to the first heartbeat datagram node2 receives on the crossover (a socat listener on
#     198.18.1.2:694 inside node2, before node2's daemon runs);
#   - idle RSS: VmRSS of both daemons (/proc/PID/status) after IDLE_S seconds as a running
#     cluster (both up, the lab's resource group placed), then its peak (VmHWM).
# Figures are printed, never asserted (a loaded machine changes them). Goals of issue 13: first
# beat within 1 s, idle RSS at or under 48 MB.
#
#   bench/idle-footprint.sh                   # needs cli/target/hb.jar (mvn -o -q package -DskipTests -pl cli -am)
#   HB_JAVA_OPTS="-Xmx128m" bench/idle-footprint.sh   # another set of flags
# Env: IDLE_S (default 20), RUNS (first-beat samples, default 3), LAB_ID (default fp<pid>).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export LAB_ID=${LAB_ID:-fp$$}
IDLE_S=${IDLE_S:-20}
RUNS=${RUNS:-3}
LAB=$ROOT/lab/lab.sh
export HB_CMD=$ROOT/packaging/src/bin/hb
[[ -f $ROOT/cli/target/hb.jar ]] || { echo "idle-footprint: build first: mvn -o -q package -DskipTests -pl cli -am" >&2; exit 1; }
trap '"$LAB" down >/dev/null 2>&1 || true' EXIT
"$LAB" up >/dev/null 2>&1 || { "$LAB" up; exit 1; }
eval "$("$LAB" env)"
defaults=$(grep -o 'HB_JAVA_OPTS:-[^}]*' "$HB_CMD" | head -1)
echo "launcher: $HB_CMD; JVM flags: ${HB_JAVA_OPTS:-${defaults#HB_JAVA_OPTS:-} (its defaults)}"

ms_of_start_line() { # epoch ms of the last "=== DATE TIME lab.sh start" line of a daemon.out
    local l
    l=$(grep '^=== ' "$1" | tail -1 | cut -d' ' -f2,3)
    echo $(($(date -d "$l" +%s%N) / 1000000))
}

for ((r = 1; r <= RUNS; r++)); do
    stamp=$(mktemp)
    # one datagram from node1 on the crossover, then socat exits and the time is taken
    "$LAB" exec node2 sh -c 'socat -u UDP4-RECVFROM:694,bind=198.18.1.2 OPEN:/dev/null && date +%s%3N' >"$stamp" &
    lst=$!
    sleep 0.5
    "$LAB" start node1 >/dev/null 2>&1
    if ! timeout 20 tail --pid=$lst -f /dev/null; then
        echo "idle-footprint: no beat from node1 within 20 s" >&2
        kill "$lst" 2>/dev/null || true
        exit 1
    fi
    t0=$(ms_of_start_line "$N1_DAEMON_OUT")
    t1=$(cat "$stamp")
    rm -f "$stamp"
    echo "run $r: first beat on the wire $((t1 - t0)) ms after exec"
    [[ $r == "$RUNS" ]] || "$LAB" stop node1 >/dev/null 2>&1
done

"$LAB" start node2 >/dev/null 2>&1
echo "both nodes up; idle for ${IDLE_S} s"
sleep "$IDLE_S"
for n in 1 2; do
    pf=N${n}_DAEMON_PIDFILE; pid=$(cat "${!pf}")
    rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
    hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
    thr=$(awk '/^Threads/ {print $2}' "/proc/$pid/status")
    printf 'node%s: idle RSS %d kB (%.1f MB), peak %d kB, %s threads\n' "$n" "$rss" "$(echo "$rss/1024" | bc -l)" "$hwm" "$thr"
done
