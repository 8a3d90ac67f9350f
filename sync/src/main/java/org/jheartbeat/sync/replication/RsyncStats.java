package org.jheartbeat.sync.replication;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers of an {@code rsync --stats} report (rsync 3.x wording; digits may be grouped with
 * commas, which are dropped). Fields missing from the text are 0.
 *
 * @param files            "Number of files" (all entries, incl. the top directory)
 * @param createdFiles     "Number of created files"
 * @param deletedFiles     "Number of deleted files"
 * @param filesTransferred "Number of regular files transferred"
 * @param totalSize        "Total file size", bytes
 * @param bytesTransferred "Total transferred file size", bytes
 */
public record RsyncStats(long files, long createdFiles, long deletedFiles, long filesTransferred, long totalSize,
                         long bytesTransferred) {
    /** All zero. */
    public static final RsyncStats ZERO = new RsyncStats(0, 0, 0, 0, 0, 0);

    /**
     * Parses the report out of rsync's stdout (other lines, e.g. progress, are ignored).
     *
     * @param stdout rsync's standard output
     * @return the numbers
     */
    public static RsyncStats parse(String stdout) {
        return new RsyncStats(num(stdout, "Number of files"), num(stdout, "Number of created files"),
                num(stdout, "Number of deleted files"), num(stdout, "Number of regular files transferred"),
                num(stdout, "Total file size"), num(stdout, "Total transferred file size"));
    }

    /** @return field-wise sum, for jobs with several paths */
    public RsyncStats plus(RsyncStats o) {
        return new RsyncStats(files + o.files, createdFiles + o.createdFiles, deletedFiles + o.deletedFiles,
                filesTransferred + o.filesTransferred, totalSize + o.totalSize, bytesTransferred + o.bytesTransferred);
    }

    private static long num(String text, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(label) + ": ([0-9,]+)").matcher(text);
        long v = 0;
        while (m.find()) {
            v = Long.parseLong(m.group(1).replace(",", ""));
        }
        return v;
    }
}
