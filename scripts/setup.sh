#!/usr/bin/env bash
# Installs what building and testing jheartbeat needs on Debian 12 (run as root).
# Only missing packages are installed, so a second run costs a few dpkg queries.
set -euo pipefail

PACKAGES=(
  openjdk-17-jdk-headless maven    # build
  iproute2 iputils-arping          # ip netns / ip addr / gratuitous ARP (lab, IPaddr agent)
  socat curl                       # labweb HTTP server, client probes
  procps util-linux                # ps, nsenter, unshare (lab)
  heartbeat cluster-glue           # the real Heartbeat 3.0.6 interop peer, cl_status, stonith(8)
  fence-agents                     # ClusterLabs fence agents (fence_dummy drives the fence_agent device)
  iptables                         # lab.sh loss/noloss: packet loss inside a node namespace
  openssh-server openssh-client rsync  # lab: sshd per node, hb config push, data replication
  e2fsprogs                        # mkfs.ext4 for lab disk images
  asciidoctor                      # packaging: man pages (picocli's AsciiDoc to troff)
  lintian man-db systemd           # packaging: DebPackageIT (lintian, man -w, systemd-analyze verify)
  resource-agents kmod             # OCF agents (AgentClassesIT: IPaddr2, Filesystem; Filesystem needs modprobe)
  lighttpd                         # a real Debian LSB service (AgentClassesIT: lsb:lighttpd inside the nodes)
  # the town hall (TownhallIT, ./demo.sh townhall; lab/townhall): node1's web group, node2's mail group
  # (exim4 is Debian's default MTA; postfix would conflict with exim4-daemon-light, which CI needs anyway)
  mariadb-server apache2 libapache2-mod-php php-mysql   # ~330 MB, ~30 s on a fresh install
  exim4-daemon-light dovecot-imapd                      # ~18 MB
)

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run as root (it installs packages and the lab needs network namespaces)" >&2
  exit 1
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Packages such as openssh-server and heartbeat would start their system services on install;
  # the lab runs its own daemons inside namespaces, so keep services from starting (invoke-rc.d's
  # policy-rc.d, exit 101 = action forbidden) unless the machine already has a policy.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    trap 'rm -f "$policy"' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
