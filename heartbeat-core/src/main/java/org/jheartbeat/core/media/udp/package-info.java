/**
 * Netty adapters for the UDP media ({@code ucast}, {@code bcast}). The only package that imports
 * Netty; it hands plain {@code byte[]} frames to the loop.
 */
package org.jheartbeat.core.media.udp;
