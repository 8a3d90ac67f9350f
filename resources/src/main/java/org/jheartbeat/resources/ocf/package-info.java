/**
 * The {@code ocf:} agent class (OCF resource-agent API 1.0, Debian's resource-agents under
 * {@code /usr/lib/ocf}): the environment ({@code OCF_ROOT}, {@code OCF_RESKEY_*}, ...), return
 * codes 0..8, bounded and entity-free meta-data parsing, agent lookup with a meta-data cache.
 * Must not import {@code ip}, {@code group} or {@code lookup}.
 */
package org.jheartbeat.resources.ocf;
