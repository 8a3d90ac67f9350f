/**
 * What LVS-DR needs of the network, checked from the director's side: its addresses and routes (as
 * {@code ip -j addr} and {@code ip -j route get} print them) against the {@code gate} reals of an ldirectord.cf.
 * Pure: the caller runs {@code ip} and hands the text in.
 */
package org.jheartbeat.director.topology;
