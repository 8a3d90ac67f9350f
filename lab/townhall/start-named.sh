#!/usr/bin/env bash
# start-named.sh — the town hall LAN's DNS server for ./demo.sh townhall: BIND's named in the lab's
# client namespace, on 198.18.0.10:53 only, authoritative for townhall.lan (node1 198.18.0.1,
# node2 198.18.0.2), dynamic updates (RFC 2136) allowed with the TSIG key <run>/named/ddns.key,
# which the Hostname resources of haresources.full use. Ends with the lab (lab.sh down).
# Environment: as lab.sh (LAB_ID, LAB_RUN); the lab must be up.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
L=$HERE/../lab.sh
run=$(eval "$("$L" env)"; echo "$LAB_RUN")
dir=$run/named
mkdir -p "$dir"
tsig-keygen -a hmac-sha256 ddns-key >"$dir/ddns.key"
cat >"$dir/named.conf" <<CONF
include "$dir/ddns.key";
options {
  directory "$dir";
  pid-file "$dir/named.pid";
  listen-on port 53 { 198.18.0.10; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  notify no;
};
controls { };
zone "townhall.lan" {
  type primary;
  file "$dir/townhall.lan.zone";
  allow-update { key ddns-key; };
};
CONF
cat >"$dir/townhall.lan.zone" <<ZONE
\$TTL 60
@ IN SOA ns.townhall.lan. admin.townhall.lan. ( 1 60 60 600 60 )
@ IN NS ns.townhall.lan.
ns IN A 198.18.0.10
node1 IN A 198.18.0.1
node2 IN A 198.18.0.2
ZONE
"$L" client named -c "$dir/named.conf" -L "$dir/named.log"
for ((i = 0; i < 100; i++)); do
    [[ $("$L" client dig +short +norecurse @198.18.0.10 node1.townhall.lan A 2>/dev/null) == 198.18.0.1 ]] && exit 0
    sleep 0.1
done
echo "start-named.sh: named does not answer on 198.18.0.10 (see $dir/named.log)" >&2
exit 1
