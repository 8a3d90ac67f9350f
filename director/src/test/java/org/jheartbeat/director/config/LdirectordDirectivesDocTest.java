package org.jheartbeat.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The directive table and docs/reference.md ("ldirectord.cf directives") name the same directives, each
 * with the same scope: a directive added to the parser without its line in the reference fails here, and so
 * does a documented one the parser does not know.
 */
class LdirectordDirectivesDocTest {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9]+)` \\| (global|both|virtual) \\|", Pattern.MULTILINE);

    @Test
    void everyDirectiveOfTheTableIsDocumentedWithItsScope() {
        String doc = reference();
        int start = doc.indexOf("#### ldirectord.cf directives");
        assertThat(start).as("the section in docs/reference.md").isNotNegative();
        int end = doc.indexOf("\n\n", doc.indexOf("|---|", start));
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher m = ROW.matcher(doc.substring(start, end));
        while (m.find()) {
            documented.put(m.group(1), m.group(2));
        }
        Map<String, String> table = new LinkedHashMap<>();
        LdirectordDirectives.all().values().forEach(d -> table.put(d.name(), d.scope().name().toLowerCase(Locale.ROOT)));
        assertThat(table).hasSize(56);
        assertThat(documented).containsExactlyEntriesOf(table);
    }

    @Test
    void theRemovedDirectivesAreNamedInTheReference() {
        String doc = reference();
        for (String removed : LdirectordDirectives.REMOVED.keySet()) {
            assertThat(doc).contains("`" + removed + "`");
        }
    }

    /** docs/reference.md of the checkout the test runs in (the module directory's parents). */
    private static String reference() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path f = dir.resolve("docs/reference.md");
            if (Files.isRegularFile(f) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                try {
                    return Files.readString(f, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no docs/reference.md above " + Path.of("").toAbsolutePath());
    }
}
