/**
 * The medium port: {@link org.jheartbeat.core.media.Medium} and
 * {@link org.jheartbeat.core.media.FrameSink}. Adapters live in sub-packages ({@code udp}, {@code serial}); nothing
 * here imports Netty or serial libraries (only {@code serial} imports jSerialComm).
 */
package org.jheartbeat.core.media;
