#!/usr/bin/env bash
# Benchmark: how long the commands admins run in loops take against a live daemon, beside the real
# Heartbeat 3.0.6's cl_status. One lab (lab/lab.sh, root): node1 runs jheartbeat, node2 the real Heartbeat
# (Debian package heartbeat), both started and settled. Then, RUNS times each and interleaved, inside the
# node (nsenter into its namespaces, as an admin logged in there):
#   - jheartbeat: `hb status` and `cl_status hbstatus` / `cl_status nodestatus node2` through the packaged
#     launchers (packaging/src/bin/hb and cl_status, the /usr/sbin ones of the .deb, with their JVM flags);
#   - Heartbeat: /usr/bin/cl_status hbstatus / nodestatus node1 on node2.
# With CDS=1, the client commands' class-data sharing archive is made first (packaging/src/bin/cds-archive
# create, as the .deb's postinst does, into a temporary HB_CDS_DIR) and every jheartbeat command runs twice a
# round: with it ("+cds" rows) and with HB_CDS=off (the launcher maps no archive of ours).
# Prints per command min/median/max wall time and the median CPU time (user + system of the command and its
# children: the part that does not depend on the machine's load), and the ratio of the medians. Figures are
# printed, never asserted. Not run by CI.
#
#   bench/cli-latency.sh [--runs N]       # default 10; needs cli/target/hb.jar
#   CDS=1 bench/cli-latency.sh --runs 10  # with and without the client archive, interleaved
# Env: LAB_ID (default cl<pid mod 1000>), HB_JAR (the jar the launchers run; e.g. an older build for a before/after),
# HB_BIN (the directory of the launchers hb and cl_status; default packaging/src/bin: e.g. an older checkout's).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
. "$ROOT/bench/args.sh"
RUNS=10
while (($#)); do
    case $1 in
        --runs) need_value "$1" $#; positive_int "$1" "$2"; RUNS=$2; shift 2 ;;
        *) unknown_arg "$1" ;;
    esac
done
one_of CDS "${CDS:-0}" 0 1
args_done
export HB_JAR=${HB_JAR:-$ROOT/cli/target/hb.jar}
[[ -f $HB_JAR ]] || { echo "cli-latency.sh: build first: mvn -o -q -B package -DskipTests -pl cli -am" >&2; exit 1; }
REAL=$([[ -x /usr/libexec/heartbeat/heartbeat ]] && echo 1 || echo 0)
export LAB_ID=${LAB_ID:-cl$(($$ % 1000))} LAB_NODE1=jheartbeat LAB_NODE2=$([[ $REAL == 1 ]] && echo heartbeat || echo jheartbeat)
OUT=$(mktemp -d /tmp/cli-latency.XXXXXX)
trap '"$LAB" down >/dev/null 2>&1 || true; rm -rf "$OUT"' EXIT
BIN=${HB_BIN:-$ROOT/packaging/src/bin}
VARIANTS=plain
if [[ ${CDS:-0} == 1 ]]; then
    # the archives as the package's postinst makes them, for this jar and these launchers
    export HB_CDS_DIR=$OUT/cds
    HB=$BIN/hb "$ROOT/packaging/src/bin/cds-archive" create >"$OUT/cds.log" 2>&1 || { cat "$OUT/cds.log" >&2; exit 1; }
    VARIANTS="cds plain"
fi
"$LAB" up >"$OUT/up.log" 2>&1 || { cat "$OUT/up.log" >&2; exit 1; }
eval "$("$LAB" env)"
"$LAB" start node1 >/dev/null 2>&1
"$LAB" start node2 >/dev/null 2>&1
for ((i = 0; i < 300; i++)); do
    [[ $("$LAB" http 2>/dev/null) == node1 ]] && break
    sleep 0.1
done
sleep 2

timed() { # NAME NODE CMD...: runs CMD inside NODE, appends "wall_ms cpu_ms" to $OUT/NAME; fails if CMD fails
    local name=$1 holder
    holder=$(cat "$(eval echo "\$N${2#node}_HOLDER_PIDFILE")")
    shift 2
    python3 - "$holder" "$@" >>"$OUT/$name" <<'EOF'
import resource, subprocess, sys, time
holder, argv = sys.argv[1], sys.argv[2:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
r = subprocess.run(["nsenter", "-t", holder, "-m", "-u", "-n", "--"] + argv, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
wall = (time.monotonic() - t0) * 1000
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
if r.returncode != 0:
    sys.stderr.write("%s failed (%d): %s\n" % (" ".join(argv), r.returncode, r.stderr.decode()))
    sys.exit(1)
print("%d %d" % (wall, cpu))
EOF
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'; }

echo "cli-latency.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each, interleaved"
echo "  launcher: $BIN/hb, jar $HB_JAR"
for ((r = 1; r <= RUNS; r++)); do
    for v in $VARIANTS; do
        if [[ $v == cds ]]; then s=+cds; c=; else s=; c=off; fi
        [[ $VARIANTS == plain ]] && c=
        timed hb-status$s node1 env HB_CDS="$c" HB_JAR="$HB_JAR" "$BIN/hb" status --state-dir "$N1_STATE_DIR"
        timed jhb-cl_status-hbstatus$s node1 env HB_CDS="$c" HB_JAR="$HB_JAR" HB_STATE_DIR="$N1_STATE_DIR" \
            "$BIN/cl_status" hbstatus
        timed jhb-cl_status-nodestatus$s node1 env HB_CDS="$c" HB_JAR="$HB_JAR" HB_STATE_DIR="$N1_STATE_DIR" \
            "$BIN/cl_status" nodestatus node2
    done
    if [[ $REAL == 1 ]]; then
        timed hb306-cl_status-hbstatus node2 /usr/bin/cl_status hbstatus
        timed hb306-cl_status-nodestatus node2 /usr/bin/cl_status nodestatus node1
    fi
done
printf '  %-32s %-22s %s\n' command "wall min/median/max ms" "CPU median ms"
for f in hb-status hb-status+cds jhb-cl_status-hbstatus jhb-cl_status-hbstatus+cds jhb-cl_status-nodestatus \
    jhb-cl_status-nodestatus+cds hb306-cl_status-hbstatus hb306-cl_status-nodestatus; do
    [[ -s $OUT/$f ]] || continue
    w=$(cut -d' ' -f1 "$OUT/$f")
    printf '  %-32s %-22s %s\n' "$f" "$(sort -n <<<"$w" | head -1)/$(median <<<"$w")/$(sort -n <<<"$w" | tail -1)" \
        "$(cut -d' ' -f2 "$OUT/$f" | median)"
done
if [[ $REAL == 1 ]]; then
    printf '  ratio of wall medians jheartbeat/Heartbeat cl_status hbstatus: %.1f\n' \
        "$(echo "$(cut -d' ' -f1 "$OUT/jhb-cl_status-hbstatus" | median)/$(cut -d' ' -f1 "$OUT/hb306-cl_status-hbstatus" | median)" | bc -l)"
    if [[ -s $OUT/jhb-cl_status-hbstatus+cds ]]; then
        printf '  ratio of wall medians jheartbeat (+cds)/Heartbeat cl_status hbstatus: %.1f\n' \
            "$(echo "$(cut -d' ' -f1 "$OUT/jhb-cl_status-hbstatus+cds" | median)/$(cut -d' ' -f1 "$OUT/hb306-cl_status-hbstatus" | median)" | bc -l)"
    fi
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
