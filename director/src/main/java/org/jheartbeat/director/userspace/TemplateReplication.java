package org.jheartbeat.director.userspace;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.SyncSettings;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.userspace.sched.SyncedTemplate;
import org.jheartbeat.director.userspace.sync.SyncEntry;
import org.jheartbeat.director.userspace.sync.TemplateSender;
import org.jheartbeat.director.userspace.sync.TemplateSync;
import org.jheartbeat.director.userspace.sync.TemplateTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The user-space director's template sync while it is the active one: at start it takes over the
 * templates the standby kept ({@code hb lvs syncd}'s file), then each round sends its services' templates
 * to the other director ({@link TemplateSender}).
 */
final class TemplateReplication implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TemplateReplication.class);

    private final TemplateSender sender;
    private final SyncSettings sync;

    private TemplateReplication(TemplateSender sender, SyncSettings sync) {
        this.sender = sender;
        this.sync = sync;
    }

    /**
     * Loads the kept templates into {@code services} and opens the sender.
     *
     * @param stateDir where the standby's file is
     * @param wall     wall time (the file's ends are wall-clock ms)
     * @throws BackendException with the reason when syncpeer, the authkeys or the socket are unusable
     */
    static TemplateReplication start(SyncSettings sync, Map<ServiceKey, VirtualProxy> services, Path stateDir,
                                     Clock wall) throws BackendException {
        TemplateSync.Link link;
        MessageAuthenticator auth;
        try {
            link = TemplateSync.link(sync.peers(), TemplateSync::isLocal);
            auth = TemplateSync.authenticator(sync.authKeys());
        } catch (IllegalArgumentException e) {
            throw new BackendException("template sync: " + e.getMessage(), List.of());
        }
        java.nio.file.Path file = TemplateSync.stateFile(stateDir, sync.configName(), link.local());
        try {
            List<SyncEntry> kept = TemplateTable.load(file, wall.millis());
            Map<ServiceKey, List<SyncedTemplate>> byService = new HashMap<>();
            for (SyncEntry e : kept) {
                ServiceKey k = ServiceKey.of(e.udp() ? Protocol.UDP : Protocol.TCP,
                        new Endpoint(e.virtual().getAddress(), e.virtual().getPort()));
                byService.computeIfAbsent(k, x -> new ArrayList<>()).add(e.template());
            }
            int taken = 0;
            for (Map.Entry<ServiceKey, List<SyncedTemplate>> e : byService.entrySet()) {
                VirtualProxy v = services.get(e.getKey());
                if (v != null) {
                    v.adopt(e.getValue());
                    taken += e.getValue().size();
                }
            }
            LOG.info("Template sync: took over {} persistence template(s) of {} kept in {}", taken, kept.size(), file);
        } catch (IOException e) {
            LOG.warn("Template sync: the kept templates in {} cannot be read ({}); clients are scheduled afresh",
                    file, e.getMessage());
        }
        try {
            TemplateSender s = new TemplateSender(link, SyncSettings.TEMPLATE_PORT, auth, sync.syncId());
            LOG.info("Template sync: sending persistence templates from {} to {} (UDP {})",
                    link.local().getHostAddress(), link.others(), SyncSettings.TEMPLATE_PORT);
            return new TemplateReplication(s, sync);
        } catch (IOException e) {
            throw new BackendException("template sync: cannot bind " + link.local().getHostAddress() + ": "
                    + e.getMessage(), List.of());
        }
    }

    /** One round: every service's templates, in turn when they are many. */
    void round(Map<ServiceKey, VirtualProxy> services) {
        List<SyncEntry> table = new ArrayList<>();
        for (Map.Entry<ServiceKey, VirtualProxy> e : services.entrySet()) {
            if (e.getKey().endpoint().isEmpty()) {
                continue;
            }
            InetSocketAddress vip = e.getKey().endpoint().get().socketAddress();
            boolean udp = e.getKey().protocol() == Protocol.UDP;
            for (SyncedTemplate t : e.getValue().templates()) {
                table.add(new SyncEntry(udp, vip, t));
            }
        }
        sender.round(table);
    }

    TemplateSender.Figures figures() {
        return sender.figures();
    }

    SyncSettings settings() {
        return sync;
    }

    @Override
    public void close() {
        TemplateSender.Figures f = sender.figures();
        LOG.info("Template sync stopped: {} rounds, {} datagrams ({} bytes) sent, {} dropped", f.rounds(),
                f.datagrams(), f.bytes(), f.dropped());
        sender.close();
    }
}
