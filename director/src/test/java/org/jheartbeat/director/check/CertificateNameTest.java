package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Host name matching of {@link CertificateName} (RFC 6125 section 6.4). */
class CertificateNameTest {
    @Test
    void exactNamesMatchIgnoringCaseAndATrailingDot() {
        assertThat(CertificateName.matches("WWW.Example.Test.", List.of("www.example.test"))).isTrue();
        assertThat(CertificateName.matches("mail.example.test", List.of("www.example.test"))).isFalse();
        assertThat(CertificateName.matches("www.example.test", List.of())).isFalse();
    }

    @Test
    void aWildcardIsTheWholeLeftMostLabelAndMatchesExactlyOneLabel() {
        List<String> wild = List.of("*.example.test");
        assertThat(CertificateName.matches("www.example.test", wild)).isTrue();
        assertThat(CertificateName.matches("a.b.example.test", wild)).isFalse();
        assertThat(CertificateName.matches("example.test", wild)).isFalse();
        assertThat(CertificateName.matches("www.example.test", List.of("w*.example.test"))).isFalse();
        assertThat(CertificateName.matches("www.example.test", List.of("www.*.test"))).isFalse();
        assertThat(CertificateName.matches("example.test", List.of("*.test"))).isFalse();
    }
}
