package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jheartbeat.director.config.Protocol;
import org.junit.jupiter.api.Test;

/**
 * Templates replicated from the other director of a pair: the client of a template goes to its real server
 * while the template lasts and the real may take it; an ended template, a real not listed or quiesced (with
 * {@code expire_quiescent_template}) means a fresh schedule; the service exports its own and the waiting
 * adopted templates with their time left.
 */
class AdoptedTemplatesTest {

    private static Rig persistentRr() {
        return new Rig(Rig.spec(Protocol.TCP, "rr", 300, null, null, false), Tunables.DEFAULTS).add("A", "B", "C");
    }

    @Test
    void anAdoptedClientKeepsItsRealServer() {
        Rig r = persistentRr();
        // rr (list C B A) would give client 1 real C; the other director had bound it to A
        r.svc.adopt(List.of(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"), 200_000)));
        assertThat(r.pick(1)).isEqualTo("A");
        assertThat(r.pick(1)).isEqualTo("A");
        assertThat(r.svc.persistConns(Rig.real("A"))).isEqualTo(1);
        // it is this director's template now: exported with the full timeout after the new connection
        assertThat(r.svc.templates()).containsExactly(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"),
                300_000));
        // a client without a template is scheduled as before
        assertThat(r.pick(2)).isEqualTo("C");
    }

    @Test
    void anEndedTemplateOrAGoneRealMeansAFreshSchedule() {
        Rig r = persistentRr();
        r.svc.adopt(List.of(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"), 10_000),
                new SyncedTemplate(Rig.client(2).getAddress(), Rig.real("D"), 100_000),
                new SyncedTemplate(Rig.client(3).getAddress(), Rig.real("B"), 100_000)));
        assertThat(r.svc.templates()).hasSize(3);
        r.advance(11);
        assertThat(r.svc.templates()).as("the ended one is not sent on").hasSize(2);
        assertThat(r.pick(1)).as("ended: rr's next").isEqualTo("C");
        assertThat(r.pick(2)).as("D is not a real of this service").isEqualTo("B");
        r.svc.removeReal(Rig.real("B"));
        assertThat(r.pick(3)).as("B was deleted").isEqualTo("A");
    }

    @Test
    void aQuiescedRealKeepsItsTemplatesUnlessExpireQuiescentTemplate() {
        Rig keep = persistentRr();
        keep.weight("A", 0);
        keep.svc.adopt(List.of(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"), 100_000)));
        assertThat(keep.pick(1)).isEqualTo("A");
        Rig expire = new Rig(Rig.spec(Protocol.TCP, "rr", 300, null, null, false),
                Tunables.DEFAULTS.withExpireQuiescentTemplate(true)).add("A", "B", "C");
        expire.weight("A", 0);
        expire.svc.adopt(List.of(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"), 100_000)));
        assertThat(expire.pick(1)).isNotEqualTo("A");
    }

    @Test
    void withoutPersistenceNothingIsExportedOrAdopted() {
        Rig r = Rig.of("rr").add("A", "B");
        r.svc.adopt(List.of(new SyncedTemplate(Rig.client(1).getAddress(), Rig.real("A"), 100_000)));
        assertThat(r.pick(1)).isEqualTo("B");
        assertThat(r.svc.templates()).isEmpty();
    }
}
