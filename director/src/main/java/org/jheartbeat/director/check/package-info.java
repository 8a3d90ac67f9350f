/**
 * Health checks of real servers, as ldirectord's {@code checktype} and {@code service}
 * directives name them. Each check is a blocking call bounded by its timeout; the director runs
 * them on its own check threads, never on an event loop.
 */
package org.jheartbeat.director.check;
