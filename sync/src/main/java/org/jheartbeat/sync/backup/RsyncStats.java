package org.jheartbeat.sync.backup;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of {@code rsync --stats} (rsync 3.1 and later print numbers with thousands
 * separators, e.g. {@code Number of files: 10,004 (reg: 10,000, dir: 4)}).
 *
 * @param files            regular files in the transfer ({@code reg:} of "Number of files", or
 *                         the whole count when rsync gives no breakdown)
 * @param filesTransferred regular files whose content was copied (not hard-linked from
 *                         {@code --link-dest})
 * @param bytesTransferred total size in bytes of those files ("Total transferred file size")
 */
public record RsyncStats(long files, long filesTransferred, long bytesTransferred) {
    private static final Pattern FILES = Pattern.compile("(?m)^Number of files: ([\\d,.]+)(?: \\(reg: ([\\d,.]+))?");
    private static final Pattern TRANSFERRED =
            Pattern.compile("(?m)^Number of (?:regular )?files transferred: ([\\d,.]+)");
    private static final Pattern BYTES = Pattern.compile("(?m)^Total transferred file size: ([\\d,.]+)");

    /**
     * @param stdout rsync's standard output with {@code --stats}
     * @return the figures; 0 for any that is absent
     */
    public static RsyncStats parse(String stdout) {
        Matcher f = FILES.matcher(stdout);
        long files = 0;
        if (f.find()) {
            files = number(f.group(2) != null ? f.group(2) : f.group(1));
        }
        Matcher t = TRANSFERRED.matcher(stdout);
        Matcher b = BYTES.matcher(stdout);
        return new RsyncStats(files, t.find() ? number(t.group(1)) : 0, b.find() ? number(b.group(1)) : 0);
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", "").replace(".", ""));
    }
}
