package org.jheartbeat.sync;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers of an {@code rsync --stats} report (rsync 3.x wording; digits may be grouped with
 * commas, which are dropped; rsync before 3.1 says "Number of files transferred"). Fields missing
 * from the text are 0. Used by replication runs and backups alike.
 *
 * @param files            "Number of files" (all entries, incl. the top directory)
 * @param regularFiles     the {@code reg:} part of "Number of files", or {@code files} when rsync
 *                         gives no breakdown
 * @param createdFiles     "Number of created files"
 * @param deletedFiles     "Number of deleted files"
 * @param filesTransferred "Number of regular files transferred"
 * @param totalSize        "Total file size", bytes
 * @param bytesTransferred "Total transferred file size", bytes
 */
public record RsyncStats(long files, long regularFiles, long createdFiles, long deletedFiles, long filesTransferred,
                         long totalSize, long bytesTransferred) {
    /** All zero. */
    public static final RsyncStats ZERO = new RsyncStats(0, 0, 0, 0, 0, 0, 0);
    private static final Pattern REGULAR = Pattern.compile("(?m)^Number of files: [0-9,]+ \\(reg: ([0-9,]+)");

    /**
     * Parses the report out of rsync's stdout (other lines, e.g. progress, are ignored).
     *
     * @param stdout rsync's standard output
     * @return the numbers
     */
    public static RsyncStats parse(String stdout) {
        long files = num(stdout, "Number of files");
        Matcher reg = REGULAR.matcher(stdout);
        long regular = reg.find() ? Long.parseLong(reg.group(1).replace(",", "")) : files;
        long transferred = stdout.contains("Number of regular files transferred:")
                ? num(stdout, "Number of regular files transferred") : num(stdout, "Number of files transferred");
        return new RsyncStats(files, regular, num(stdout, "Number of created files"),
                num(stdout, "Number of deleted files"), transferred, num(stdout, "Total file size"),
                num(stdout, "Total transferred file size"));
    }

    /** @return field-wise sum, for jobs with several paths or a repair pass */
    public RsyncStats plus(RsyncStats o) {
        return new RsyncStats(files + o.files, regularFiles + o.regularFiles, createdFiles + o.createdFiles,
                deletedFiles + o.deletedFiles, filesTransferred + o.filesTransferred, totalSize + o.totalSize,
                bytesTransferred + o.bytesTransferred);
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
