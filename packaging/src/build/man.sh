#!/bin/sh
# man.sh GENERATED_ADOC_DIR HANDWRITTEN_ADOC_DIR OUT_DIR VERSION
# Turns the AsciiDoc man pages into gzipped troff for the package (asciidoctor, Debian package
# `asciidoctor`): the hb(8) and hb-SUBCOMMAND(8) pages picocli's ManPageGenerator wrote from the
# command model (it titles them section 1; hb is an administrator's command, so section 8, as
# Heartbeat's heartbeat(8)), and the hand-written file-format pages NAME.5.adoc. Pages land in
# OUT_DIR/man8 and OUT_DIR/man5 as NAME.N.gz (gzip -9n: what Debian policy 12.1 asks for).
set -eu
gen=$1 src=$2 out=$3 version=$4
command -v asciidoctor >/dev/null || {
    echo "man.sh: asciidoctor not found: install the Debian package asciidoctor (scripts/setup.sh does)" >&2
    exit 1
}
rm -rf "$out" "$out.adoc"
mkdir -p "$out.adoc" "$out/man8" "$out/man5"
for f in "$gen"/*.adoc; do
    sed -e 's/^= \(.*\)(1)$/= \1(8)/' \
        -e "s/^:mansource:.*/:mansource: jheartbeat $version/" \
        -e 's/^:manmanual:.*/:manmanual: jheartbeat Manual/' \
        -e 's/\*\(hb[a-z-]*\)\*(1)/*\1*(8)/g' \
        "$f" >"$out.adoc/$(basename "$f")"
done
# hb(8) points at every other page
{
    echo
    echo "== See also"
    echo
    for f in "$out.adoc"/hb-*.adoc; do
        n=$(basename "$f" .adoc)
        printf '*%s*(8), ' "$n"
    done
    for f in "$src"/*.5.adoc; do
        n=$(basename "$f" .5.adoc)
        printf '*%s*(5), ' "$n"
    done
    echo "*jheartbeat.service* (/lib/systemd/system), Heartbeat's *ha.cf*(5)"
} >>"$out.adoc/hb.adoc"
asciidoctor -b manpage -a "mansource=jheartbeat $version" -a "manmanual=jheartbeat Manual" \
    --failure-level=WARN -D "$out/man8" "$out.adoc"/*.adoc
asciidoctor -b manpage -a "mansource=jheartbeat $version" -a "manmanual=jheartbeat Manual" \
    --failure-level=WARN -D "$out/man5" "$src"/*.5.adoc
for p in "$out"/man8/* "$out"/man5/*; do
    gzip -9n "$p"
done
echo "man.sh: $(ls "$out/man8" | wc -l) pages in section 8, $(ls "$out/man5" | wc -l) in section 5"
