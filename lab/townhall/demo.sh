#!/usr/bin/env bash
# demo.sh — the town hall demo (./demo.sh townhall; docs/townhall.md): the seed's two servers
# with real Debian services in the namespace lab. node1 runs the web group (Apache+PHP on MariaDB,
# ProFTPD, Tomcat 10) on 198.18.0.100, node2 the mail group (Exim SMTP, Dovecot IMAP, Samba,
# SpamAssassin) on 198.18.0.101, each group with its node's names (Hostname: NetBIOS and DNS, the
# LAN's DNS server being named in the client namespace); each group's data partition is replicated to the peer every 5 s.
# From the client it makes one real request per service on its own protocol, then powers node1
# off, shows when each of node1's services answers from node2 (and that node2's own never stopped),
# powers node1 back on, shows each service back on node1; then the same for node2. Which node
# answered is the MAC address that answers the client's ARP request for the address that served.
#
# The first run installs the demo's extra packages (proftpd-core tomcat10 spamd spamc smbclient
# samba, --no-install-recommends, no service started on the host); scripts/setup.sh has the rest.
# Prints a timeline (../timeline.sh) in time order, every time in ms from one reference point, the
# daemons' start; takeovers in the summary count from the power-off, failbacks from the power-on.
# Ends with one line "townhall: OK ..." (exit 0) or "townhall: FAILED ..." (exit 1), then the paths of
# both nodes' logs (kept after the lab is torn down).
# Env: LAB_ID (default townhall), TOWNHALL_TIMEOUT (s per phase, default 120), lab.sh's variables.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
L=$(cd "$HERE/.." && pwd)/lab.sh
export LAB_ID=${LAB_ID:-townhall}
export LAB_NODE_INIT=$HERE/node-init.sh LAB_PRIVATE_RUN=1 TOWNHALL_HARESOURCES=haresources.full
LAB_HARESOURCES=$(grep -v '^#' "$HERE/haresources.full")
export LAB_HARESOURCES
export LAB_KEEPALIVE=${LAB_KEEPALIVE:-500ms} LAB_DEADTIME=${LAB_DEADTIME:-3} LAB_AUTO_FAILBACK=on
TIMEOUT=${TOWNHALL_TIMEOUT:-120}
WEB=198.18.0.100
MAIL=198.18.0.101
SERVICES=(name1 web ftp tomcat name2 smtp imap smb spamd)
declare -A ADDR=([web]=$WEB [ftp]=$WEB [tomcat]=$WEB [smtp]=$MAIL [imap]=$MAIL [smb]=$MAIL [spamd]=$MAIL)
declare -A HOME_NODE=([name1]=node1 [web]=node1 [ftp]=node1 [tomcat]=node1 [name2]=node2 [smtp]=node2 [imap]=node2
    [smb]=node2 [spamd]=node2)
declare -A WHAT=([name1]="DNS node1.townhall.lan and NetBIOS NODE1" [web]="HTTP page by PHP from MariaDB"
    [ftp]="FTP login and listing" [tomcat]="Tomcat page" [name2]="DNS node2.townhall.lan and NetBIOS NODE2"
    [smtp]="SMTP" [imap]="IMAP login and search" [smb]="SMB share listing of NODE2 by NetBIOS name"
    [spamd]="spamc check")
EXTRA_PACKAGES=(proftpd-core tomcat10 spamd spamc smbclient samba)

die() {
    timeline
    echo "townhall: FAILED $*"
    exit 1
}

install_extras() {
    local missing=() p policy=/usr/sbin/policy-rc.d
    for p in "${EXTRA_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]} == 0)) && return 0
    echo "townhall: installing the demo's packages (first run only): ${missing[*]}"
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        trap 'rm -f "$policy"' RETURN
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        die "could not install ${missing[*]}"
}

now_ms() {
    local t=${EPOCHREALTIME/./}
    echo $((t / 1000))
}
# EVENTS: "EPOCH_MS TEXT" lines; T0 (the daemons' start) is the timeline's one reference point
T0=0 EVENTS=''
line() { EVENTS+="$1 $2"$'\n'; }
timeline() {
    ((T0 > 0)) || return 0
    echo
    printf '%s' "$EVENTS" | "$HERE/../timeline.sh" "$T0" "the daemons' start"
}

MSG=$(mktemp)
cleanup() {
    rm -f "$MSG"
    "$L" down >/dev/null 2>&1 || "$L" down || true
    if [[ -n ${LAB_RUN:-} ]]; then
        echo "townhall: logs (kept after the lab is torn down; LAB_ID=$LAB_ID $L clean removes them):"
        echo "  node1: $LAB_RUN/node1/ha-log $LAB_RUN/node1/daemon.out"
        echo "  node2: $LAB_RUN/node2/ha-log $LAB_RUN/node2/daemon.out"
    fi
}

# probe NAME: one real request of the service's protocol from the client; exit 0 if it answered,
# printing the address that answered (a host name: where its DNS and NetBIOS names point, when both
# point at the same node)
probe() {
    local a=${ADDR[$1]:-} n d b
    case $1 in
        name1 | name2)
            n=${1#name}
            d=$("$L" client dig +short +norecurse +time=2 +tries=1 @198.18.0.10 "node$n.townhall.lan" A 2>/dev/null)
            b=$("$L" client nmblookup -B 198.18.0.255 "NODE$n" 2>/dev/null | awk -v nb="NODE$n<00>" '$2 == nb { print $1; exit }')
            [[ -n $d && -n $b && $(node_of "$d") == "$(node_of "$b")" ]] || return 1
            a=$b ;;
        web) "$L" client curl -s -f -m 2 "http://$a/" 2>/dev/null | grep -q '^row 1 welcome' || return 1 ;;
        ftp) "$L" client curl -s -m 3 --user clerk:townhall "ftp://$a/" 2>/dev/null | grep -q minutes.txt || return 1 ;;
        tomcat) "$L" client curl -s -f -m 3 "http://$a:8080/townhall/" 2>/dev/null | grep -q '^Tomcat' || return 1 ;;
        smtp) "$L" client curl -s -m 3 "smtp://$a/" >/dev/null 2>&1 || return 1 ;;
        imap) "$L" client curl -s -m 3 -u alice:townhall "imap://$a/INBOX?ALL" 2>/dev/null | grep -q '^\* SEARCH' ||
            return 1 ;;
        smb) "$L" client smbclient -N -R bcast -t 3 -L NODE2 2>/dev/null | grep -q 'public *Disk' || return 1 ;;
        spamd) printf 'Subject: council\n\nmeeting at 8\n' |
            "$L" client timeout 5 spamc -x -t 3 -d "$a" -c >/dev/null 2>&1
            (($? <= 1)) || return 1 ;;
    esac
    echo "$a"
}

# node_of ADDR: the node whose MAC answers the client's ARP request for ADDR
node_of() {
    local mac
    mac=$("$L" client arping -c 1 -w 1 -I eth0 "$1" 2>/dev/null | sed -n 's/.*\[\([0-9A-Fa-f:]*\)\].*/\1/p' | head -n 1)
    case ${mac,,} in
        02:00:c6:12:00:01) echo node1 ;;
        02:00:c6:12:00:02) echo node2 ;;
        *) echo "?" ;;
    esac
}

# wait_all WHERE WATCH_NODE SERVICES...: probes (all at once, one round after the other) until each
# service answers from WHERE (node1|node2|home: each from its home node); meanwhile probes the
# services at home on WATCH_NODE (if not "-") and counts their failures in WATCH_FAIL. Prints one
# line per service, timed when its probe answered. Fails after TIMEOUT s.
WATCH_FAIL=0 WATCH_N=0
wait_all() {
    local where=$1 watch=$2 s want deadline got t
    shift 2
    local -a pending=("$@") still watched=()
    if [[ $watch != - ]]; then
        for s in "${SERVICES[@]}"; do [[ ${HOME_NODE[$s]} != "$watch" ]] || watched+=("$s"); done
    fi
    local dir
    dir=$(mktemp -d)
    deadline=$(($(now_ms) + TIMEOUT * 1000))
    while ((${#pending[@]} > 0)); do
        (($(now_ms) < deadline)) || { rm -rf "$dir"; die "after ${TIMEOUT} s: ${pending[*]} not answering from $where"; }
        rm -f "$dir"/*
        for s in "${pending[@]}"; do
            (a=$(probe "$s") && echo "$(node_of "$a") $(now_ms)" >"$dir/$s") &
        done
        for s in "${watched[@]}"; do
            (probe "$s" >/dev/null && echo ok >"$dir/watch-$s") &
        done
        wait
        still=()
        for s in "${pending[@]}"; do
            want=$where
            [[ $want != home ]] || want=${HOME_NODE[$s]}
            read -r got t 2>/dev/null <"$dir/$s" || got=''
            if [[ $got == "$want" ]]; then
                line "$t" "  $s (${WHAT[$s]}) answers from $want"
            else
                still+=("$s")
            fi
        done
        pending=("${still[@]}")
        for s in "${watched[@]}"; do
            WATCH_N=$((WATCH_N + 1))
            if [[ ! -e $dir/watch-$s ]]; then
                WATCH_FAIL=$((WATCH_FAIL + 1))
                line "$(now_ms)" "  ! $s on $watch did not answer"
            fi
        done
        sleep 0.2
    done
    rm -rf "$dir"
}

# the data written before a power-off must be on the survivor: a row through PHP, a mail through SMTP
write_data() { # TAG
    "$L" client curl -s -f -m 5 "http://$WEB/?add=$1" | grep -q '^added ' || die "could not add row $1 through PHP"
    printf 'Subject: %s\r\n\r\n%s\r\n' "$1" "$1" >"$MSG"
    "$L" client curl -s -m 10 "smtp://$MAIL" --mail-from clerk@townhall.lab --mail-rcpt alice@townhall.lab \
        -T "$MSG" || die "SMTP delivery of $1 failed"
}
synced_after() { # JOB NODE MS: a successful run of JOB on NODE started after MS
    local f=$LAB_RUN/$2/varlib-jhb/sync/$1.state s
    s=$(sed -n 's/^lastSuccess=//p' "$f" 2>/dev/null | sed 's/\\:/:/g')
    [[ -n $s ]] && (($(date -d "$s" +%s%3N) > $3))
}
check_data() { # TAG
    "$L" client curl -s -f -m 5 "http://$WEB/" | grep -q " $1\$" || die "row $1 missing from the PHP page"
    "$L" client curl -s -m 10 -u alice:townhall "imap://$MAIL/INBOX" -X "SEARCH SUBJECT $1" |
        grep -q '^\* SEARCH [0-9]' || die "mail $1 missing from IMAP"
}

# phase NODE: power NODE off, wait for its services on the peer, power it on, wait for them back
declare -A RESULT
phase() {
    local off=$1 peer t s tag t_off
    peer=node$((3 - ${off#node}))
    tag=before-$off-off
    write_data "$tag"
    local wrote
    wrote=$(now_ms)
    local i
    for ((i = 0; i < TIMEOUT * 10; i++)); do
        synced_after web node1 "$wrote" && synced_after mail node2 "$wrote" && break
        sleep 0.1
    done
    synced_after web node1 "$wrote" && synced_after mail node2 "$wrote" || die "no sync after the writes of $tag"
    echo
    echo "townhall: ---- $off powered off (row and mail \"$tag\" written and synced before)"
    t_off=$(now_ms)
    "$L" poweroff "$off" >/dev/null 2>&1 || die "poweroff $off"
    line "$t_off" "$off powered off"
    WATCH_FAIL=0 WATCH_N=0
    local -a moved=()
    for s in "${SERVICES[@]}"; do [[ ${HOME_NODE[$s]} == "$off" ]] && moved+=("$s"); done
    wait_all "$peer" "$peer" "${moved[@]}"
    RESULT[$off-takeover]=$(($(now_ms) - t_off))
    RESULT[$off-watch]="$WATCH_FAIL/$WATCH_N"
    line "$(now_ms)" "$peer's own services: $WATCH_FAIL failed of $WATCH_N probes meanwhile"
    check_data "$tag"
    line "$(now_ms)" "row and mail \"$tag\" found on $peer"
    write_data "while-$off-off"
    line "$(now_ms)" "row and mail \"while-$off-off\" written on $peer"
    echo "townhall: ---- $off powered on"
    t=$(now_ms)
    "$L" poweron "$off" >/dev/null 2>&1 || die "poweron $off"
    line "$t" "$off powered on"
    "$L" start "$off" >/dev/null 2>&1 || die "start $off"
    line "$(now_ms)" "$off's daemon answers on its control socket"
    wait_all "$off" - "${moved[@]}"
    RESULT[$off-failback]=$(($(now_ms) - t))
    check_data "while-$off-off"
    line "$(now_ms)" "row and mail \"while-$off-off\" found after failback"
    [[ $WATCH_FAIL == 0 ]] || die "$peer's own services failed $WATCH_FAIL of $WATCH_N probes while $off was off"
}

[[ -n ${HB_CMD:-} || -f ${HB_JAR:-$HERE/../../cli/target/hb.jar} ]] || die "cli/target/hb.jar not found: build it first (./demo.sh townhall does)"
install_extras
eval "$("$L" env)"
echo "townhall: lab '$LAB_ID'; web group on node1 ($WEB), mail group on node2 ($MAIL); keepalive $LAB_KEEPALIVE deadtime $LAB_DEADTIME"
"$L" up >/dev/null 2>&1 || die "lab.sh up failed (a leftover lab? LAB_ID=$LAB_ID $L down)"
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$HERE/start-named.sh" || die "the LAN's DNS server (start-named.sh)"
"$HERE/configure.sh" >/dev/null || die "configure.sh"
T0=$(now_ms)
"$L" start node1 >/dev/null 2>&1 || die "start node1"
"$L" start node2 >/dev/null 2>&1 || die "start node2"
line "$T0" "daemons started"
wait_all home - "${SERVICES[@]}"
line "$(now_ms)" "all answering"
phase node1
phase node2
timeline
echo
printf -v summary 'node1 off: its services on node2 in %d ms from its power-off, back in %d ms from its power-on; node2 off: on node1 in %d ms, back in %d ms; services of the survivor never failed (%s, %s probes failed)' \
    "${RESULT[node1-takeover]}" "${RESULT[node1-failback]}" "${RESULT[node2-takeover]}" "${RESULT[node2-failback]}" \
    "${RESULT[node1-watch]}" "${RESULT[node2-watch]}"
echo "townhall: OK $summary"
