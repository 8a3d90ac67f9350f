package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.takeover.Announcement.AskResources;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.junit.jupiter.api.Test;

/** Heartbeat 3.0.6's i_hold_resources rules (hb_resource.c), applied to what this node sends. */
class RscHoldTest {
    /** node2 of the lab's single-group cluster: no group of its own, node1's group is foreign. */
    final RscHold noOwnGroups = new RscHold(false, true);

    private Resources send(RscHold h, ResourceSet actual, String info) {
        return (Resources) h.sent(new Resources(actual, true, info));
    }

    @Test
    void takeoverFromADeadPeerHoldsAllEvenWithoutForeignGroups() {
        RscHold node1 = new RscHold(true, false);
        assertThat(send(node1, ResourceSet.LOCAL, "mach_down").held()).as("rsc_hold on the wire").isEqualTo(ResourceSet.ALL);
        assertThat(node1.value()).isEqualTo(ResourceSet.ALL);
    }

    @Test
    void takingOurOwnEmptyShareSetsLocal() {
        assertThat(send(noOwnGroups, ResourceSet.NONE, "req_our_resources()").held()).isEqualTo(ResourceSet.LOCAL);
    }

    @Test
    void findingThePeerHoldingOurShareChangesNothing() {
        assertThat(send(noOwnGroups, ResourceSet.NONE, "").held()).isEqualTo(ResourceSet.NONE);
    }

    @Test
    void standbyGiverLosesTheSetTakerGainsItsMirror() {
        RscHold giver = new RscHold(true, false);
        send(giver, ResourceSet.LOCAL, "mach_down");
        giver.sent(new AskResources(ResourceSet.FOREIGN, StandbyPhase.ME));
        assertThat(((Resources) giver.sent(new Resources(ResourceSet.LOCAL, false, "standby"))).held())
                .isEqualTo(ResourceSet.LOCAL);
        giver.sent(new AskResources(ResourceSet.FOREIGN, StandbyPhase.DONE));
        assertThat(giver.value()).isEqualTo(ResourceSet.LOCAL);

        RscHold taker = noOwnGroups;
        taker.sent(new AskResources(ResourceSet.FOREIGN, StandbyPhase.OTHER));
        taker.sent(new AskResources(ResourceSet.FOREIGN, StandbyPhase.DONE));
        assertThat(taker.value()).as("given the peer's foreign share = our local share").isEqualTo(ResourceSet.LOCAL);
    }

    @Test
    void standbyOfAllMovesEverything() {
        RscHold giver = new RscHold(true, false);
        send(giver, ResourceSet.LOCAL, "req_our_resources()");
        giver.sent(new AskResources(ResourceSet.ALL, StandbyPhase.ME));
        giver.sent(new AskResources(ResourceSet.ALL, StandbyPhase.DONE));
        assertThat(giver.value()).isEqualTo(ResourceSet.NONE);
        noOwnGroups.sent(new AskResources(ResourceSet.ALL, StandbyPhase.OTHER));
        noOwnGroups.sent(new AskResources(ResourceSet.ALL, StandbyPhase.DONE));
        assertThat(noOwnGroups.value()).isEqualTo(ResourceSet.ALL);
    }

    @Test
    void shutdownHoldsNothing() {
        send(noOwnGroups, ResourceSet.FOREIGN, "mach_down");
        assertThat(send(noOwnGroups, ResourceSet.NONE, "shutdown").held()).isEqualTo(ResourceSet.NONE);
    }

    @Test
    void afterAHealedPartitionExistingKindsFollowTheReport() {
        send(noOwnGroups, ResourceSet.FOREIGN, "mach_down");
        assertThat(send(noOwnGroups, ResourceSet.NONE, "partition").held())
                .as("foreign groups released; the empty local share is kept").isEqualTo(ResourceSet.LOCAL);
    }

    @Test
    void anAuditToAPeerClaimingOurGroupsCarriesWhatRunsHere() {
        RscHold node1 = new RscHold(true, true);
        send(node1, ResourceSet.NONE, ""); // found the peer holding our share: nothing of ours
        assertThat(send(node1, ResourceSet.LOCAL, "audit").held()).as("our groups run here after all")
                .isEqualTo(ResourceSet.LOCAL);
    }

    @Test
    void otherAnnouncementsPassUnchanged() {
        Announcement a = new Announcement.Starting();
        assertThat(noOwnGroups.sent(a)).isSameAs(a);
        assertThat(noOwnGroups.value()).isEqualTo(ResourceSet.NONE);
    }
}
