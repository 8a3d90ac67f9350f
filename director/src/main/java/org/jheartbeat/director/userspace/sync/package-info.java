/**
 * Persistence-template sync of a user-space director pair: the active director sends its templates
 * ({@link org.jheartbeat.director.userspace.sync.TemplateWire}, signed with the cluster's authkeys key) to the
 * other node, whose {@code hb lvs syncd} keeps them ({@link org.jheartbeat.director.userspace.sync.TemplateTable})
 * for its director's next start, so a persistent client keeps its real server across a director failover.
 */
package org.jheartbeat.director.userspace.sync;
