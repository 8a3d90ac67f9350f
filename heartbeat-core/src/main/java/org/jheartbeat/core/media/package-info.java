/**
 * The medium port: {@link org.jheartbeat.core.media.Medium} and
 * {@link org.jheartbeat.core.media.FrameSink}. Adapters live in sub-packages ({@code udp}); nothing
 * here imports Netty or serial libraries.
 */
package org.jheartbeat.core.media;
