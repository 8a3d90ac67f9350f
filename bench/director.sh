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
# latency added over (a); ratios of (c) to (b). Options: --conns N (20000) --concurrency C (32)
# --latency N (3000) --bulk BYTES (1073741824). The director runs hb.jar's kernel-exact scheduling model.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LAB=$ROOT/lab/lab.sh
CONNS=20000 CONC=32 LAT=3000 BULK=1073741824
while (($#)); do
    case $1 in
        --conns) CONNS=$2; shift 2 ;;
        --concurrency) CONC=$2; shift 2 ;;
        --latency) LAT=$2; shift 2 ;;
        --bulk) BULK=$2; shift 2 ;;
        *) echo "director.sh: unknown argument '$1' (see the header of $0)" >&2; exit 2 ;;
    esac
done
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
PIDS=()
. "$ROOT/bench/lib.sh"
trap bench_cleanup EXIT
"$LAB" up >/dev/null
N1=$LAB_ID-n1 N2=$LAB_ID-n2 CL=$LAB_ID-cl
ip -n "$N1" addr add 198.18.0.100/24 dev eth0
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

measure() { # name host
    local name=$1 host=$2 cps lat bulk
    ip netns exec "$CL" ab -q -r -n 2000 -c "$CONC" "http://$host/small" >/dev/null 2>&1 || true # warm-up
    cps=$(ip netns exec "$CL" ab -q -r -n "$CONNS" -c "$CONC" "http://$host/small" 2>&1 \
        | awk '/Requests per second/ {print $4}') || true
    [[ -n $cps ]] || { echo "director.sh: ab through $name failed" >&2; exit 1; }
    lat=$(ip netns exec "$CL" python3 "$ROOT/bench/director-client.py" latency "$host" 80 "$LAT")
    bulk=$(ip netns exec "$CL" python3 "$ROOT/bench/director-client.py" bulk "$host" 80 "$BULK")
    echo "$name $cps $lat $bulk" >>"$OUT/results"
    echo "  $name: ${cps} conns/s, latency p50/p99 ${lat/ /\/} us, bulk ${bulk} MB/s" >&2
}

echo "(a) no director" >&2
measure none 198.18.0.21

echo "(b) haproxy $(haproxy -v 2>/dev/null | head -1 | awk '{print $3}')" >&2
cat >"$OUT/haproxy.cfg" <<CFG
global
    maxconn 8000
defaults
    mode tcp
    timeout connect 5s
    timeout client 900s
    timeout server 900s
frontend vip
    bind 198.18.0.100:80
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
sleep 1
measure haproxy 198.18.0.100
kill "$HAP"; wait "$HAP" 2>/dev/null || true
sleep 1

echo "(c) jheartbeat user-space director" >&2
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
ip netns exec "$N1" java ${HB_BENCH_JAVA_OPTS:--XX:+UseParallelGC -Xmx512m} -cp "$JAR" \
    org.jheartbeat.cli.Main lvs daemon --backend userspace --socket "$OUT/lvs.sock" "$OUT/ldirectord.cf" \
    >"$OUT/director.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
    [[ $(java -cp "$JAR" org.jheartbeat.cli.Main lvs status --socket "$OUT/lvs.sock" 2>/dev/null | grep -c '  -> 198') == 3 ]] && break
    sleep 0.3
done
measure jheartbeat 198.18.0.100
java -cp "$JAR" org.jheartbeat.cli.Main lvs status --stats --socket "$OUT/lvs.sock" >&2 || true

echo
echo "| through | new conns/s | bulk MB/s | latency p50 us | p99 us | added p50 us | added p99 us |"
echo "|---|---|---|---|---|---|---|"
awk 'NR==1 {b50=$3; b99=$4} {printf "| %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $5, $3, $4, $3-b50, $4-b99}' "$OUT/results"
awk '$1=="haproxy" {h=$0} $1=="jheartbeat" {j=$0} $1=="none" {n=$0}
     END {split(h,H," "); split(j,J," "); split(n,N," ");
          ah99=H[4]-N[4]; aj99=J[4]-N[4];
          p99 = (ah99 > 0 && aj99 > 0) ? sprintf("%.2fx", aj99/ah99) : "not measurable (an added p99 <= 0: noise above the effect)";
          printf "\nours / haproxy: conns/s %.2fx (goal >= 0.8), throughput %.2fx (goal >= 0.8), added p99 %s (goal <= 1.5)\n",
                 J[2]/H[2], J[5]/H[5], p99}' "$OUT/results"
