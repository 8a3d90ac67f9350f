#!/usr/bin/env bash
# Soak: a jheartbeat pair for an hour under load with link flaps; is it stable?
# One lab (lab/lab.sh, root), both nodes jheartbeat through the packaged launcher (packaging/src/bin/hb) with the
# scheduling jheartbeat.service gives it (Nice -10, best-effort I/O 0: nice/ionice here; the daemon puts its beat
# threads on SCHED_RR 1 itself), both
# media (ucast eth1 + ucast eth0), keepalive 100 ms / deadtime 500 ms / warntime 300 ms, the lab's group (VIP +
# labweb). During the soak:
#   - load: stress-ng --cpu 1 --vm 1 --vm-bytes 256m --io 1 (one of each: the machine stays usable) all along;
#   - a link flap every --flap-every seconds (default 180), alternating eth1 and eth0, each cut for 5 s
#     (longer than deadtime: the link dies, the node must not, the other medium carries the beats);
#   - `hb status` against each node every 10 s (the control socket: one connection each, a leak would show);
#   - an operator's planned move every --move-every seconds (default 900): `hb standby` on node1 (the group goes
#     to node2), 30 s later `hb takeover` on node1 (it comes back): two expected holder changes each;
#   - every 30 s, per daemon: RSS (VmRSS), threads (/proc/PID/status), open fds (/proc/PID/fd).
# Prints the samples as they come, an ASCII curve of RSS, then a summary: per node the first/min/max/last of each,
# and after the first 2 minutes the largest RSS and the median thread and fd counts of the first half and of the
# second half (stable: median fds no higher, median threads at most 2 more; a leak raises the level the daemon
# comes back to, while a sample taken during a status call or a move holds a few more for a moment), the false deaths ("node nodeN: is dead": none expected, one medium is always up), late beats, the
# "Link ... dead." lines (the flaps: expected), and the VIP's holder changes (sampled every 2 s; two per planned
# move expected, no others). The last line is the verdict, and so is the exit status:
#   soak: HELD (...)              exit 0: every criterion below held
#   soak: DID NOT HOLD: REASONS   exit 1
# Criteria: both daemons are the processes they were at the start; no false death; no sample with the VIP on
# both nodes; holder changes no more than two per planned move; every planned move and hb status call answered;
# after the first 2 minutes the second half's median fd count no higher than the first's, its median thread count
# at most 2 more, its largest RSS at most 8 MB or 5 % more (whichever is larger).
#
#   bench/soak.sh [--minutes M] [--flap-every S] [--move-every S] [--no-load]
#     --minutes M      soak duration (default 60; a day: --minutes 1440)
# Needs: root, stress-ng (installed with apt-get if missing), cli/target/hb.jar
# (mvn -o -q -B package -DskipTests -pl cli -am). Figures are printed, never asserted. Not run by CI.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
LAUNCHER=$ROOT/packaging/src/bin/hb
MINUTES=60
FLAP=180
MOVE=900
LOAD=1
. "$ROOT/bench/args.sh"
while (($#)); do
    case $1 in
        --minutes) need_value "$1" $#; positive_int "$1" "$2"; MINUTES=$2; shift 2 ;;
        --flap-every) need_value "$1" $#; int_at_least "$1" "$2" 20 "an integer >= 20 (seconds)"; FLAP=$2; shift 2 ;;
        --move-every)
            need_value "$1" $#
            # a planned move takes the group away for 30 s and back: closer than 120 s they would overlap
            [[ $2 == 0 ]] || int_at_least "$1" "$2" 120 "0 (none) or an integer >= 120 (seconds)"
            MOVE=$2
            shift 2 ;;
        --no-load) LOAD=0; shift ;;
        *) unknown_arg "$1" ;;
    esac
done
args_done
export HB_JAR=${HB_JAR:-$ROOT/cli/target/hb.jar}
[[ -f $HB_JAR ]] || { echo "soak.sh: build first: mvn -o -q -B package -DskipTests -pl cli -am" >&2; exit 1; }
if ((LOAD)) && ! command -v stress-ng >/dev/null; then
    echo "soak.sh: installing stress-ng" >&2
    apt-get install -y --no-install-recommends stress-ng >/dev/null || { echo "soak.sh: apt-get install stress-ng failed" >&2; exit 1; }
fi
export LAB_ID=${LAB_ID:-sk$(($$ % 1000))}
OUT=$(mktemp -d /tmp/soak.XXXXXX)
: >"$OUT/moves"; : >"$OUT/status.err"; : >"$OUT/flaps" # empty when nothing happened, never missing
PIDS=()
. "$ROOT/bench/lib.sh"
trap bench_cleanup EXIT

export LAB_NODE1=jheartbeat LAB_NODE2=jheartbeat LAB_KEEPALIVE=100ms LAB_DEADTIME=500ms LAB_WARNTIME=300ms
export LAB_INITDEAD=10 LAB_AUTO_FAILBACK=on
export HB_CMD="nice -n -10 ionice -c 2 -n 0 $LAUNCHER"
"$LAB" up >"$OUT/up.log" 2>&1 || { cat "$OUT/up.log" >&2; exit 1; }
eval "$("$LAB" env)"
"$LAB" start node1 >/dev/null 2>&1
"$LAB" start node2 >/dev/null 2>&1
for ((i = 0; i < 900; i++)); do
    [[ $("$LAB" http 2>/dev/null) == node1 ]] && grep -q "Link node1:eth1 up" "$N2_HA_LOG" 2>/dev/null && break
    sleep 0.1
done
[[ $("$LAB" http 2>/dev/null) == node1 ]] || { echo "soak.sh: node1 does not serve the VIP within 90 s" >&2; exit 1; }
sleep 3
eval "$("$LAB" env)"
P1=$N1_DAEMON_PID
P2=$N2_DAEMON_PID
OFF1=$(stat -c %s "$N1_HA_LOG")
OFF2=$(stat -c %s "$N2_HA_LOG")

holder() {
    local a=0 b=0 s1 s2
    s1=$(ip -n "$NS_N1" -o -4 addr show 2>/dev/null || true)
    s2=$(ip -n "$NS_N2" -o -4 addr show 2>/dev/null || true)
    [[ $s1 == *" 198.18.0.100/"* ]] && a=1
    [[ $s2 == *" 198.18.0.100/"* ]] && b=1
    case $a$b in 10) echo 1 ;; 01) echo 2 ;; 11) echo both ;; *) echo none ;; esac
}
sample() { # PID -> "rss_kb threads fds"
    local rss thr fds
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo -)
    thr=$(awk '/^Threads:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo -)
    fds=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    echo "${rss:--} ${thr:--} $fds"
}

SECS=$((MINUTES * 60))
echo "soak.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(uname -r), lab $LAB_ID, $MINUTES min, flap every ${FLAP} s" \
    "(eth1/eth0 alternately, 5 s), planned move every $( ((MOVE)) && echo "$MOVE s" || echo never), load: $( ((LOAD)) && echo "stress-ng --cpu 1 --vm 1 --vm-bytes 256m --io 1" || echo none)"
echo "  daemons: node1 pid $P1, node2 pid $P2 (launcher: $HB_CMD)"
if ((LOAD)); then
    stress-ng --cpu 1 --vm 1 --vm-bytes 256m --io 1 --timeout "${SECS}s" >"$OUT/stress.log" 2>&1 &
    PIDS+=($!)
fi
# hb status against each node every 10 s
(
    while :; do
        HB_CMD=$LAUNCHER "$LAB" status node1 >/dev/null 2>&1 || echo "$(date +%s) node1 status failed" >>"$OUT/status.err"
        HB_CMD=$LAUNCHER "$LAB" status node2 >/dev/null 2>&1 || echo "$(date +%s) node2 status failed" >>"$OUT/status.err"
        sleep 10
    done
) &
PIDS+=($!)
# link flaps
(
    k=0
    while :; do
        sleep "$FLAP"
        if ((k % 2 == 0)); then ifc=eth1; else ifc=eth0; fi
        echo "$(date +%s) flap node1 $ifc" >>"$OUT/flaps"
        "$LAB" linkdown node1 "$ifc" >/dev/null 2>&1
        sleep 5
        "$LAB" linkup node1 "$ifc" >/dev/null 2>&1
        k=$((k + 1))
    done
) &
PIDS+=($!)
# planned moves: standby on node1, then takeover back (the launcher, as an admin would type it)
if ((MOVE > 0)); then
    (
        while :; do
            sleep "$MOVE"
            HB_CMD=$LAUNCHER "$LAB" hb node1 standby all >/dev/null 2>&1
            echo "$(date +%s) standby $?" >>"$OUT/moves"
            sleep 30
            HB_CMD=$LAUNCHER "$LAB" hb node1 takeover all >/dev/null 2>&1
            echo "$(date +%s) takeover $?" >>"$OUT/moves"
        done
    ) &
    PIDS+=($!)
fi
# VIP holder every 2 s
(
    while :; do
        echo "$(date +%s) $(holder)" >>"$OUT/holders"
        sleep 2
    done
) &
PIDS+=($!)

printf '  %6s  %-28s %-28s\n' "" "node1: RSS MB / threads / fds" "node2: RSS MB / threads / fds"
start=$(date +%s)
end=$((start + SECS))
while :; do
    t=$(($(date +%s) - start))
    read -r r1 t1 f1 <<<"$(sample "$P1")"
    read -r r2 t2 f2 <<<"$(sample "$P2")"
    echo "$t $r1 $t1 $f1 $r2 $t2 $f2" >>"$OUT/samples"
    printf '  %5ds  %6.1f %4s %4s %13s %6.1f %4s %4s\n' "$t" "$(echo "$r1/1024" | bc -l 2>/dev/null || echo 0)" "$t1" "$f1" "" \
        "$(echo "$r2/1024" | bc -l 2>/dev/null || echo 0)" "$t2" "$f2"
    (($(date +%s) + 30 <= end + 2)) || break
    sleep 30
done
for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
PIDS=()

# the curve of RSS (ASCII): one column per sample, 10 rows from min to max of both nodes
# (at most 120 columns: a longer soak shows each column's largest sample)
nsamples=$(wc -l <"$OUT/samples")
per=$(((nsamples + 119) / 120))
echo "  RSS curve (MB; '1' node1, '2' node2, '*' both), one column per $((per * 30)) s (its largest sample):"
awk -v per="$per" 'NR == 1 || $2 < lo { lo = $2 } $2 > hi { hi = $2 } $5 < lo { lo = $5 } $5 > hi { hi = $5 }
    { k = int((NR - 1) / per) + 1; if ($2 > a[k]) a[k] = $2; if ($5 > b[k]) b[k] = $5; n = k }
    END {
        if (hi == lo) hi = lo + 1024
        for (row = 9; row >= 0; row--) {
            line = sprintf("  %7.1f |", (lo + (hi - lo) * row / 9) / 1024)
            for (i = 1; i <= n; i++) {
                ra = int((a[i] - lo) * 9 / (hi - lo) + 0.5); rb = int((b[i] - lo) * 9 / (hi - lo) + 0.5)
                c = " "; if (ra == row) c = "1"; if (rb == row) c = (c == "1" ? "*" : "2")
                line = line c
            }
            print line
        }
    }' "$OUT/samples"

log1=$(tail -c +$((OFF1 + 1)) "$N1_HA_LOG")
log2=$(tail -c +$((OFF2 + 1)) "$N2_HA_LOG")
count() { { grep -c "$2" <<<"$1" || true; }; }
echo "  summary after $(($(date +%s) - start)) s, $(wc -l <"$OUT/samples") samples:"
printf '    %-6s %-26s %-22s %-22s\n' node "RSS MB first/min/max/last" "threads first/min/max/last" "fds first/min/max/last"
stable=yes
why=()
for n in 1 2; do
    c=$(((n - 1) * 3 + 2))
    printf '    %-6s' "node$n"
    for m in 0 1 2; do
        col=$((c + m))
        awk -v c="$col" -v mb=$((m == 0)) 'NR == 1 { f = $c; lo = $c; hi = $c } { if ($c < lo) lo = $c; if ($c > hi) hi = $c; l = $c }
            END { if (mb) printf " %-26s", sprintf("%.1f/%.1f/%.1f/%.1f", f / 1024, lo / 1024, hi / 1024, l / 1024);
                  else printf " %-22s", f "/" lo "/" hi "/" l }' "$OUT/samples"
    done
    echo
    # stability after the first 2 minutes: a leak grows, so compare the second half with the first. RSS by the
    # largest sample of each half; threads and fds by their resting level, the median of each half: a sample
    # taken while a status call, a check or a move runs holds a few more (a control connection, a child's
    # pipes) and is gone 30 s later, while a leak raises the level the daemon comes back to
    for m in 0 1 2; do
        col=$((c + m))
        read -r h1 h2 d1 d2 < <(awk -v c="$col" '$1 >= 120 { v[++n] = $c }
            function med(lo, hi,   k, i, j, t, w) { k = 0; for (i = lo; i <= hi; i++) w[++k] = v[i]
                for (i = 2; i <= k; i++) { t = w[i]; for (j = i - 1; j >= 1 && w[j] > t; j--) w[j + 1] = w[j]; w[j + 1] = t }
                return k ? w[int((k + 1) / 2)] : 0 }
            END { h = int(n / 2); for (i = 1; i <= n; i++) { if (i <= h) { if (v[i] > a) a = v[i] } else if (v[i] > b) b = v[i] }
                  print a + 0, b + 0, med(1, h), med(h + 1, n) }' "$OUT/samples")
        case $m in
            0) echo "      RSS: largest $(echo "scale=1; $h1/1024" | bc) MB in the first half after 2 min, $(echo "scale=1; $h2/1024" | bc) MB in the second"
               allow=$((h1 / 20 > 8192 ? h1 / 20 : 8192))
               ((h2 - h1 <= allow)) || { stable=no; why+=("node$n's RSS grew $(((h2 - h1) / 1024)) MB"); } ;;
            1) echo "      threads: median $d1 in the first half after 2 min, $d2 in the second (largest $h1, $h2)"
               ((d2 - d1 <= 2)) || { stable=no; why+=("node$n's threads grew from a median of $d1 to $d2"); } ;;
            2) echo "      fds: median $d1 in the first half after 2 min, $d2 in the second (largest $h1, $h2)"
               ((d2 <= d1)) || { stable=no; why+=("node$n's fds grew from a median of $d1 to $d2"); } ;;
        esac
    done
done
echo "    RSS, thread and fd counts stable (second half after 2 min: median fds no higher, median threads at most 2 more," \
    "largest RSS at most 8 MB or 5 % more): $stable"
echo "    link flaps: $(cat "$OUT/flaps" 2>/dev/null | wc -l); 'Link ... dead.' lines: node1 $(count "$log1" "Link node2:eth[01] dead")," \
    "node2 $(count "$log2" "Link node1:eth[01] dead")"
echo "    false deaths ('is dead'): node1 $(count "$log1" "node node2: is dead"), node2 $(count "$log2" "node node1: is dead");" \
    "late beats: node1 $(count "$log1" "Late heartbeat"), node2 $(count "$log2" "Late heartbeat")"
echo "    VIP serving node changes: $(awk '$2 == "1" || $2 == "2" { if (p != "" && $2 != p) m++; p = $2 } END { print m + 0 }' "$OUT/holders"); samples on both nodes:" \
    "$(awk '$2 == "both" { b++ } END { print b + 0 }' "$OUT/holders") of $(wc -l <"$OUT/holders"); failed hb status calls:" \
    "$(cat "$OUT/status.err" 2>/dev/null | wc -l)"
moves=$(wc -l <"$OUT/moves")
failedmoves=$(awk '$3 != 0 { n++ } END { print n + 0 }' "$OUT/moves")
echo "    planned moves: $((moves / 2)) (standby and takeover: $moves commands, $failedmoves failed)"
deaths=$(($(count "$log1" "node node2: is dead") + $(count "$log2" "node node1: is dead")))
both=$(awk '$2 == "both" { b++ } END { print b + 0 }' "$OUT/holders")
# a planned move is two changes of the serving node (1 -> 2 -> 1); "none" between them is the hand-over
changes=$(awk '$2 == "1" || $2 == "2" { if (p != "" && $2 != p) m++; p = $2 } END { print m + 0 }' "$OUT/holders")
statusfail=$(wc -l <"$OUT/status.err")
[[ -d /proc/$P1 && -d /proc/$P2 ]] || why+=("a daemon is not the process it was at the start (node1 pid $P1, node2 pid $P2)")
((deaths == 0)) || why+=("$deaths false death(s)")
((both == 0)) || why+=("$both samples with the VIP on both nodes")
((changes <= moves)) || why+=("$changes VIP holder changes for $((moves / 2)) planned moves")
((failedmoves == 0)) || why+=("$failedmoves planned move command(s) failed")
((statusfail == 0)) || why+=("$statusfail hb status call(s) failed")
rm -rf "$OUT"
if ((${#why[@]} == 0)); then
    echo "soak: HELD ($MINUTES min: no false death, never on both nodes, $((moves / 2)) planned moves, RSS, threads and fds flat)"
    exit 0
fi
printf -v reasons '%s; ' "${why[@]}"
echo "soak: DID NOT HOLD: ${reasons%; }"
exit 1
