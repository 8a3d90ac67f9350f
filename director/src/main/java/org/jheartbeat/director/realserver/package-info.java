/** LVS-DR real-server set-up ({@code hb lvs realserver}): the VIP on lo with ARP suppressed, or a DNAT rule. */
package org.jheartbeat.director.realserver;
