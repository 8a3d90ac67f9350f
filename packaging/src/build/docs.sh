#!/bin/sh
# docs.sh MAVEN_VERSION OUT_DIR COMPLETION_SCRIPT
# Writes the package's changelog.Debian.gz (gzip -9n) into OUT_DIR, and drops the "#!" line of the
# bash completion picocli's AutoComplete wrote (a completion is sourced, not run: Debian's
# bash-completion-with-hashbang). The Debian version is the
# Maven version with "-SNAPSHOT" as "~SNAPSHOT" (sorts before the release, as jdeb's [[version]]
# with snapshotExpand off writes it in DEBIAN/control), plus the Debian revision "-1".
set -eu
mvn_version=$1 out=$2 completion=$3
deb_version="$(echo "$mvn_version" | sed 's/-SNAPSHOT$/~SNAPSHOT/')-1"
mkdir -p "$out"
{
    echo "jheartbeat ($deb_version) unstable; urgency=medium"
    echo
    echo "  * Built from the jheartbeat source tree (Maven version $mvn_version):"
    echo "    hb command, jheartbeat.service, /etc/init.d/jheartbeat, man pages"
    echo "    and bash completion."
    echo
    echo " -- jheartbeat developers <jheartbeat@example.org>  $(LC_ALL=C date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")"
} | gzip -9n >"$out/changelog.Debian.gz"
echo "docs.sh: changelog.Debian.gz for $deb_version"
sed -i '1{/^#!/d}' "$completion"
