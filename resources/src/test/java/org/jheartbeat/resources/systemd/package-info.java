/** Tests of the systemd class against a recording systemctl script (systemd is not PID 1 here). */
package org.jheartbeat.resources.systemd;
