#!/usr/bin/env bash
# Benchmark: the packaged launcher's footprint, and the same for the real Heartbeat 3.0.6 in the same lab.
# In a lab (lab/lab.sh, root), starts the daemon on node1 through packaging/src/bin/hb (the /usr/sbin/hb of the
# .deb, with its default JVM flags unless HB_JAVA_OPTS is set) RUNS times and prints per run:
#   - first beat: wall time from the daemon's exec (lab.sh's "=== ... start" line, written just before the
#     exec) to the first heartbeat datagram node2 receives on the crossover (a socat listener on
#     198.18.1.2:694 inside node2, before node2's daemon runs);
#   - the CPU time (user + system, /proc/PID/stat) the daemon had used by then (read within ~10 ms of the
#     datagram's arrival, so a little late): unlike the wall time, it
#     barely depends on the machine's load, so it tells a slower start from a busier machine;
# then, with node2 started too and the cluster idle for IDLE_S seconds (both up, the lab's group placed):
#   - idle RSS: VmRSS of node1's daemon (/proc/PID/status), its PSS (smaps_rollup: shared pages divided
#     among their users), its peak (VmHWM), threads, CPU time so far;
#   - loaded classes (jcmd VM.classloader_stats, taken after the RSS: attaching adds a thread and classes).
# Then the same in a second lab whose node1 runs the real Heartbeat 3.0.6 (Debian package heartbeat, peer
# jheartbeat), whose RSS is the sum over its processes (master, FIFO reader, one reader and writer per
# medium: the lab's session of the master), and prints jheartbeat/Heartbeat ratios of the medians.
# Also prints the load average. Figures are printed, never asserted (a loaded machine changes them).
# Goals (docs/benchmarks.md): first beat within 1 s; idle memory flat over time and at most half that of
# Corosync + Pacemaker (bench/vs-pacemaker.sh measures that stack). The former 48 MB idle-RSS goal is withdrawn.
#
#   bench/idle-footprint.sh                   # needs cli/target/hb.jar (mvn -o -q package -DskipTests -pl cli -am)
#   HB_JAVA_OPTS="-Xmx128m" bench/idle-footprint.sh   # another set of flags
#   CDS=1 bench/idle-footprint.sh             # with the daemon's class-data sharing archive, made first by
#                                             # packaging/src/bin/cds-archive as the .deb's postinst does
# Env: IDLE_S (default 30), RUNS (default 3), CDS (default 0), HB_CDS_DIR (an archive already made), REAL (default 1 if /usr/libexec/heartbeat/heartbeat exists:
# also measure the real Heartbeat), LAB_ID (default fp<pid>; the real-Heartbeat lab: LAB_ID with "r").
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/args.sh"
(($# == 0)) \
    || arg_error "takes no arguments, not '$1' (its settings are environment variables: IDLE_S, RUNS, CDS, REAL)"
BASE_ID=${LAB_ID:-fp$$}
IDLE_S=${IDLE_S:-30}
RUNS=${RUNS:-3}
REAL=${REAL:-$([[ -x /usr/libexec/heartbeat/heartbeat ]] && echo 1 || echo 0)}
int_at_least IDLE_S "$IDLE_S" 0 "a whole number of seconds"
positive_int RUNS "$RUNS"
one_of REAL "$REAL" 0 1
one_of CDS "${CDS:-0}" 0 1
args_done
LAB=$ROOT/lab/lab.sh
export HB_CMD=$ROOT/packaging/src/bin/hb
[[ -f ${HB_JAR:-$ROOT/cli/target/hb.jar} ]] || { echo "idle-footprint: build first: mvn -o -q package -DskipTests -pl cli -am" >&2; exit 1; }
TCK=$(getconf CLK_TCK)
trap '"$LAB" down >/dev/null 2>&1 || true' EXIT
defaults=$(sed -n 's/^defaults="\(.*\)"$/\1/p' "$HB_CMD")
echo "launcher: $HB_CMD; JVM flags: ${HB_JAVA_OPTS:-$defaults (its defaults)}"
if [[ ${CDS:-0} == 1 ]]; then
    # the daemon's class-data sharing archive, as the package's postinst makes it, for this jar and these flags
    if [[ -z ${HB_CDS_DIR:-} ]]; then
        HB_CDS_DIR=$(mktemp -d /tmp/idle-footprint-cds.XXXXXX)
        CDS_TMP=$HB_CDS_DIR # removed at exit
        trap '"$LAB" down >/dev/null 2>&1 || true; rm -rf "$CDS_TMP"' EXIT
    fi
    export HB_CDS_DIR
    HB=$HB_CMD "$ROOT/packaging/src/bin/cds-archive" create || exit 1
fi
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

ms_of_start_line() { # epoch ms of the last "=== DATE TIME lab.sh start" line of a daemon.out
    local l
    l=$(grep '^=== ' "$1" | tail -1 | cut -d' ' -f2,3)
    echo $(($(date -d "$l" +%s%N) / 1000000))
}
cpu_ms() { # CPU time (user + system) of PID so far, in ms
    awk -v t="$TCK" '{ sub(/.*\) /, ""); print int(($12 + $13) * 1000 / t) }' "/proc/$1/stat"
}
rss_kb() { # VmRSS of PID, or with "session", the sum over PID's session (real Heartbeat's processes)
    if [[ ${2:-} == session ]]; then
        ps -o rss= -s "$1" | awk '{ s += $1 } END { print s }'
    else
        awk '/^VmRSS/ {print $2}' "/proc/$1/status"
    fi
}
pss_kb() { # proportional set size of PID's session (shared pages divided among the processes sharing them)
    local p s=0
    for p in $(ps -o pid= -s "$1"); do
        s=$((s + $(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)))
    done
    echo "$s"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'; }

# measure KIND: in a fresh lab whose node1 is KIND (jheartbeat|heartbeat); appends "beat_ms cpu_ms" lines to
# $OUT.beat and "rss_kb" to $OUT.rss
measure() {
    local kind=$1 r stamp lst t0 t1 pid cpu rss pss hwm thr classes mode=
    export LAB_ID=$BASE_ID${kind:0:1} LAB_NODE1=$kind LAB_NODE2=jheartbeat
    [[ $kind == jheartbeat ]] || mode=session
    "$LAB" up >/dev/null 2>&1 || { "$LAB" up; exit 1; }
    eval "$("$LAB" env)"
    for ((r = 1; r <= RUNS; r++)); do
        stamp=$(mktemp)
        # one datagram from node1 on the crossover, then socat exits and the time is taken
        "$LAB" exec node2 sh -c 'socat -u UDP4-RECVFROM:694,bind=198.18.1.2 OPEN:/dev/null && date +%s%3N' >"$stamp" &
        lst=$!
        sleep 0.5
        "$LAB" start node1 >/dev/null
        # polled every 10 ms (tail's default is 1 s, which read the CPU time up to a second after the beat)
        if ! timeout 20 tail -s 0.01 --pid=$lst -f /dev/null; then
            echo "idle-footprint: no beat from node1 ($kind) within 20 s" >&2
            kill "$lst" 2>/dev/null || true
            exit 1
        fi
        pid=$(cat "$N1_DAEMON_PIDFILE")
        cpu=$(cpu_ms "$pid")
        t0=$(ms_of_start_line "$N1_DAEMON_OUT")
        t1=$(cat "$stamp")
        rm -f "$stamp"
        echo "$kind run $r: first beat on the wire $((t1 - t0)) ms after exec, $cpu ms CPU used by then (load $(cut -d' ' -f1 /proc/loadavg))"
        echo "$((t1 - t0)) $cpu" >>"$OUT.$kind.beat"
        if [[ $r != "$RUNS" ]]; then
            # Heartbeat's pid file in the node's /run outlives a stop by a while ("already running"):
            # a power cycle gives it a fresh /run
            if [[ $kind == jheartbeat ]]; then
                "$LAB" stop node1 >/dev/null
            else
                "$LAB" poweroff node1 >/dev/null && "$LAB" poweron node1 >/dev/null
            fi
        fi
    done
    "$LAB" start node2 >/dev/null 2>&1
    echo "$kind: both nodes up; idle for ${IDLE_S} s"
    sleep "$IDLE_S"
    pid=$(cat "$N1_DAEMON_PIDFILE")
    rss=$(rss_kb "$pid" $mode)
    pss=$(pss_kb "$pid")
    hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status")
    thr=$(awk '/^Threads/ {print $2}' "/proc/$pid/status")
    cpu=$(cpu_ms "$pid")
    if [[ $kind == jheartbeat ]]; then
        classes=$("$LAB" exec node1 jcmd "$pid" VM.classloader_stats 2>/dev/null | awk '/^Total =/ {print $4}')
        jsa=$(awk '$6 ~ /\.jsa$/ && $6 !~ /lib\/server\/classes\.jsa$/ {print $6}' "/proc/$pid/maps" | sort -u | head -1)
        printf '%s: node1 idle RSS %d kB (%.1f MB; PSS %d kB), peak %d kB, %s threads, %d ms CPU, %s classes loaded\n' \
            "$kind" "$rss" "$(echo "$rss/1024" | bc -l)" "$pss" "$hwm" "$thr" "$cpu" "${classes:-?}"
        echo "$kind: class-data archive mapped: ${jsa:-none (only the JDK base archive)}"
    else
        printf '%s: node1 idle RSS %d kB (%.1f MB; PSS %d kB) in %d processes (master: %d kB, peak %d kB), %d ms CPU (master)\n' \
            "$kind" "$rss" "$(echo "$rss/1024" | bc -l)" "$pss" "$(ps -o pid= -s "$pid" | wc -l)" \
            "$(rss_kb "$pid")" "$hwm" "$cpu"
    fi
    echo "$rss" >>"$OUT.$kind.rss"
    echo "$pss" >>"$OUT.$kind.pss"
    "$LAB" down >/dev/null 2>&1
}

OUT=$(mktemp -d)/fp
trap '"$LAB" down >/dev/null 2>&1 || true; rm -rf "$(dirname "$OUT")" ${CDS_TMP:+"$CDS_TMP"}' EXIT
measure jheartbeat
[[ $REAL != 1 ]] || measure heartbeat
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
jb=$(cut -d' ' -f1 "$OUT.jheartbeat.beat" | median)
jc=$(cut -d' ' -f2 "$OUT.jheartbeat.beat" | median)
jr=$(median <"$OUT.jheartbeat.rss")
printf 'jheartbeat: median first beat %d ms (%d ms CPU), idle RSS %.1f MB (goals: first beat <= 800 ms with <= 500 ms CPU; memory: bench/vs-pacemaker.sh)\n' \
    "$jb" "$jc" "$(echo "$jr/1024" | bc -l)"
if [[ $REAL == 1 ]]; then
    hb=$(cut -d' ' -f1 "$OUT.heartbeat.beat" | median)
    hr=$(median <"$OUT.heartbeat.rss")
    jp=$(median <"$OUT.jheartbeat.pss")
    hp=$(median <"$OUT.heartbeat.pss")
    printf 'Heartbeat 3.0.6: median first beat %d ms, idle RSS %.1f MB (PSS %.1f MB); jheartbeat/Heartbeat: first beat x%.1f, RSS x%.1f, PSS x%.1f\n' \
        "$hb" "$(echo "$hr/1024" | bc -l)" "$(echo "$hp/1024" | bc -l)" "$(echo "$jb/($hb+0.0001)" | bc -l)" \
        "$(echo "$jr/$hr" | bc -l)" "$(echo "$jp/($hp+0.0001)" | bc -l)"
fi
