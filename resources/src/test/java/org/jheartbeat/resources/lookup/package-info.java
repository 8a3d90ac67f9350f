/**
 * Tests of the resource-agent lookup: the config directory's resource.d before /etc/init.d, as
 * Heartbeat 3.0.6's ResourceManager looks, and non-executable or non-regular files skipped; real
 * scripts in temporary directories.
 */
package org.jheartbeat.resources.lookup;
