/**
 * {@code hb web}: the web console, a process of its own beside the daemon. It reads the local daemon through the
 * control socket and the peer's journal over ssh, renders HTML on the server (Netty's HTTP codec) and pushes
 * "something changed" to open pages with server-sent events. Decisions (the failover spans, who may act, what an
 * action will move) are pure classes; the server, the sources and the user file are the thin I/O edges.
 */
package org.jheartbeat.cli.web;
