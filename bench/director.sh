#!/usr/bin/env bash
# bench/director.sh: the user-space director (for kernels without IPVS) against no director and HAProxy (TCP mode).
# Not a test: prints figures. Run as root on an idle machine:
#   mvn -o -q -B package -DskipTests -pl cli -am && mvn -o -q -B test-compile -pl director && bench/director.sh
# Lab: the client namespace runs the load, node1 the director, node2 three real servers
# (bench/director-real.py, asyncio) on 198.18.0.21-23:80. The same clients go through
#   (a) none:      straight to 198.18.0.21:80 (one real)
#   (b) haproxy:   Debian's haproxy (installed here with apt-get if missing; not in setup.sh), mode tcp,
#                  balance roundrobin, on node1 198.18.0.100:80
#   (c) jheartbeat: hb lvs daemon --backend userspace on node1 198.18.0.100:80, scheduler rr
# Figures: new connections/s (ab -n N -c C, one request per connection, 100-byte answers), bulk
# throughput (one 1 GiB download), latency p50/p99 of sequential new-connection requests and the
# latency added over (a); ratios of (c) to (b); the CPU time (user + system, /proc/PID/stat) the
# director and haproxy spent per connection (in the conns/s run) and per GiB (in the bulk run), which
# a busy machine disturbs less than the rates. Options: --conns N (20000) --concurrency C (32; at most
# --conns and --warmup) --latency N (3000) --bulk BYTES (1073741824) --rounds R (3): haproxy and the director
# run side by side (haproxy on 198.18.0.101) and are measured alternately R times (haproxy, ours, haproxy, ours, ...);
# the table gives each figure's median and its spread (min-max). --warmup N (2000): connections before each
# measurement; the JVM's C2 compiler is still at work after 2000 (about a third of the director's CPU then),
# 20000 measures the director as it runs after its first minutes.
# The director is started by packaging/src/bin/hb, so with the flags the package runs it with
# (HB_JAVA_OPTS to try others). It runs hb.jar's kernel-exact scheduling model.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
. "$ROOT/bench/args.sh"
CONNS=20000 CONC=32 LAT=3000 BULK=1073741824 ROUNDS=3 WARM=2000
while (($#)); do
    case $1 in
        --conns | --concurrency | --latency | --bulk | --rounds | --warmup)
            need_value "$1" $#
            positive_int "$1" "$2"
            case $1 in
                --conns) CONNS=$2 ;;
                --concurrency) CONC=$2 ;;
                --latency) LAT=$2 ;;
                --bulk) BULK=$2 ;;
                --rounds) ROUNDS=$2 ;;
                --warmup) WARM=$2 ;;
            esac
            shift 2 ;;
        *) unknown_arg "$1" ;;
    esac
done
# ab refuses a concurrency above its number of requests (and the warm-up's failure would go unseen)
((CONC <= CONNS && CONC <= WARM)) \
    || arg_error "--concurrency ($CONC) must be at most --conns ($CONNS) and --warmup ($WARM)"
args_done
JAR=${HB_JAR:-$ROOT/cli/target/hb.jar}
[[ -f $JAR ]] || { echo "director.sh: build first: mvn -o -q -B package -DskipTests -pl cli -am" >&2; exit 1; }
command -v ab >/dev/null || { echo "director.sh: needs ab (apt-get install apache2-utils)" >&2; exit 1; }
if ! command -v haproxy >/dev/null; then
    echo "installing haproxy (Debian) for the comparison" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends haproxy >/dev/null
    systemctl disable --now haproxy >/dev/null 2>&1 || true
fi
export LAB_ID=${LAB_ID:-db$(($$ % 1000))}
OUT=$(mktemp -d /tmp/director-bench.XXXXXX)
export LAB_RUN=$OUT/lab
export HB_JAR=$JAR
# the director's pid file, socket and event journal stay in this run's directory, not the host's /var/lib/jheartbeat
export HB_STATE_DIR=$OUT LDIRECTORD_PID_DIR=$OUT LDIRECTORD_SOCKET_DIR=$OUT
PIDS=()
. "$ROOT/bench/lib.sh"
trap bench_cleanup EXIT
"$LAB" up >/dev/null
N1=$LAB_ID-n1 N2=$LAB_ID-n2 CL=$LAB_ID-cl
ip -n "$N1" addr add 198.18.0.100/24 dev eth0
ip -n "$N1" addr add 198.18.0.101/24 dev eth0
for i in 1 2 3; do
    ip -n "$N2" addr add 198.18.0.2$i/24 dev eth0
    ip netns exec "$N2" python3 "$ROOT/bench/director-real.py" 198.18.0.2$i 80 >"$OUT/real$i.log" 2>&1 &
    PIDS+=($!)
done
for i in 1 2 3; do
    for _ in $(seq 100); do
        ip netns exec "$CL" python3 "$ROOT/bench/director-client.py" bulk 198.18.0.2$i 80 100 >/dev/null 2>&1 && break
        sleep 0.2
    done
done

cpu_ticks() { # PID: user + system clock ticks so far
    awk '{print $14 + $15}' "/proc/$1/stat"
}

measure() { # name host pid (0: none)
    local name=$1 host=$2 pid=$3 cps lat bulk c0 c1 c2 cpuconn=0 cpugib=0
    ip netns exec "$CL" ab -q -r -n "$WARM" -c "$CONC" "http://$host/small" >/dev/null 2>&1 || true # warm-up
    ((pid)) && c0=$(cpu_ticks "$pid")
    cps=$(ip netns exec "$CL" ab -q -r -n "$CONNS" -c "$CONC" "http://$host/small" 2>&1 \
        | awk '/Requests per second/ {print $4}') || true
    [[ -n $cps ]] || { echo "director.sh: ab through $name failed" >&2; exit 1; }
    ((pid)) && c1=$(cpu_ticks "$pid")
    lat=$(ip netns exec "$CL" python3 "$ROOT/bench/director-client.py" latency "$host" 80 "$LAT")
    ((pid)) && c2=$(cpu_ticks "$pid")
    bulk=$(ip netns exec "$CL" python3 "$ROOT/bench/director-client.py" bulk "$host" 80 "$BULK")
    if ((pid)); then
        local c3 hz
        c3=$(cpu_ticks "$pid") hz=$(getconf CLK_TCK)
        cpuconn=$(awk -v d=$((c1 - c0)) -v hz="$hz" -v n="$CONNS" 'BEGIN {printf "%.1f", d / hz / n * 1e6}')
        cpugib=$(awk -v d=$((c3 - c2)) -v hz="$hz" -v b="$BULK" 'BEGIN {printf "%.2f", d / hz / (b / 1073741824)}')
    fi
    echo "$name $cps $lat $bulk $cpuconn $cpugib" >>"$OUT/results"
    echo "  $name: ${cps} conns/s, latency p50/p99 ${lat/ /\/} us, bulk ${bulk} MB/s; CPU ${cpuconn} us/conn," \
        "${cpugib} s/GiB" >&2
}

echo "(a) no director" >&2
measure none 198.18.0.21 0

echo "(b) haproxy $(haproxy -v 2>/dev/null | head -1 | awk '{print $3}') on 198.18.0.101" >&2
cat >"$OUT/haproxy.cfg" <<CFG
global
    maxconn 8000
defaults
    mode tcp
    timeout connect 5s
    timeout client 900s
    timeout server 900s
frontend vip
    bind 198.18.0.101:80
    default_backend reals
backend reals
    balance roundrobin
    server r1 198.18.0.21:80
    server r2 198.18.0.22:80
    server r3 198.18.0.23:80
CFG
ip netns exec "$N1" haproxy -f "$OUT/haproxy.cfg" -db >"$OUT/haproxy.log" 2>&1 &
HAP=$!
PIDS+=($HAP)

echo "(c) jheartbeat user-space director on 198.18.0.100 (packaging/src/bin/hb; HB_JAVA_OPTS=${HB_JAVA_OPTS:-unset: the package defaults})" >&2
cat >"$OUT/ldirectord.cf" <<CFG
checktimeout=2
checkinterval=5
quiescent=no
logfile="$OUT/ldirectord.log"
virtual=198.18.0.100:80
	real=198.18.0.21:80 masq
	real=198.18.0.22:80 masq
	real=198.18.0.23:80 masq
	scheduler=rr
	protocol=tcp
	checktype=connect
CFG
# ip netns exec and the hb script exec: $! is the JVM's PID
ip netns exec "$N1" "$ROOT/packaging/src/bin/hb" lvs daemon --backend userspace --socket "$OUT/lvs.sock" \
    "$OUT/ldirectord.cf" >"$OUT/director.log" 2>&1 &
JHB=$!
PIDS+=($JHB)
for _ in $(seq 100); do
    [[ $(java -cp "$JAR" org.jheartbeat.cli.Main lvs status --socket "$OUT/lvs.sock" 2>/dev/null | grep -c '  -> 198') == 3 ]] && break
    sleep 0.3
done
[[ $(tr '\0' ' ' <"/proc/$JHB/cmdline") == *java* ]] || { echo "director.sh: PID $JHB is not the director's JVM" >&2; exit 1; }

for r in $(seq "$ROUNDS"); do
    echo "round $r/$ROUNDS (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    measure haproxy 198.18.0.101 "$HAP"
    measure jheartbeat 198.18.0.100 "$JHB"
done
java -cp "$JAR" org.jheartbeat.cli.Main lvs status --stats --socket "$OUT/lvs.sock" >&2 || true

echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); medians of $ROUNDS rounds (min-max)"
echo "| through | new conns/s | bulk MB/s | latency p50 us | p99 us | added p50 us | added p99 us | CPU us/conn | CPU s/GiB |"
echo "|---|---|---|---|---|---|---|---|---|"
awk '
function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function fig(a, n,   lo, hi, i, m) { lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
    m = med(a, n); return n > 1 ? sprintf("%g (%g-%g)", m, lo, hi) : sprintf("%g", m) }
$1 == "none" { b50 = $3; b99 = $4; print "| none | " $2 " | " $5 " | " $3 " | " $4 " | | | | |"; next }
{ k = $1; n[k]++; i = n[k]; C[k, i] = $2; P50[k, i] = $3; P99[k, i] = $4; B[k, i] = $5; U[k, i] = $6; G[k, i] = $7
  A50[k, i] = $3 - b50; A99[k, i] = $4 - b99 }
END {
  split("haproxy jheartbeat", names, " ")
  for (x = 1; x <= 2; x++) { k = names[x]; m = n[k]
    for (i = 1; i <= m; i++) { c[i] = C[k, i]; p5[i] = P50[k, i]; p9[i] = P99[k, i]; b[i] = B[k, i]; u[i] = U[k, i]; g[i] = G[k, i]; a5[i] = A50[k, i]; a9[i] = A99[k, i] }
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k, fig(c, m), fig(b, m), fig(p5, m), fig(p9, m), fig(a5, m), fig(a9, m), fig(u, m), fig(g, m)
    for (i = 1; i <= m; i++) { c[i] = C[k, i]; b[i] = B[k, i]; a9[i] = A99[k, i]; u[i] = U[k, i]; g[i] = G[k, i] }
    mc[k] = med(c, m); mb[k] = med(b, m); ma[k] = med(a9, m); mu[k] = med(u, m); mg[k] = med(g, m)
    # per-round ratios (round i: haproxy then ours)
  }
  for (i = 1; i <= n["jheartbeat"]; i++) { rc[i] = C["jheartbeat", i] / C["haproxy", i]; rb[i] = B["jheartbeat", i] / B["haproxy", i] }
  p99 = (ma["haproxy"] > 0 && ma["jheartbeat"] > 0) ? sprintf("%.2fx", ma["jheartbeat"] / ma["haproxy"]) \
      : "not measurable (an added p99 <= 0: noise above the effect)"
  printf "\nours / haproxy (medians): conns/s %.2fx (goal >= 1.0; per round %s), throughput %.2fx (goal >= 1.0; per round %s),", \
      mc["jheartbeat"] / mc["haproxy"], fig(rc, n["jheartbeat"]), mb["jheartbeat"] / mb["haproxy"], fig(rb, n["jheartbeat"])
  printf " added p99 %s (goal <= 1.2)\n", p99
  printf "CPU: %.2fx haproxy'"'"'s per connection, %.2fx per GiB\n", (mu["haproxy"] > 0 ? mu["jheartbeat"] / mu["haproxy"] : 0), \
      (mg["haproxy"] > 0 ? mg["jheartbeat"] / mg["haproxy"] : 0)
}' "$OUT/results"
