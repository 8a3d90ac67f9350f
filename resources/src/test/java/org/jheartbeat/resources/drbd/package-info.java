/** Tests of the built-in drbddisk against a recording drbdadm script (DRBD cannot load in this kernel). */
package org.jheartbeat.resources.drbd;
