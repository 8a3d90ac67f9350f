/**
 * The event journal's vocabulary: what happened, when, to what, why and at whose request
 * ({@link ClusterEvent}, {@link EventKind}), its one-line JSON form ({@link EventCodec}) and the
 * sink the loop hands events to ({@link EventSink}). The store, the alert dispatcher, the web
 * console and {@code hb report} all read this one form. Imports nothing of ours but JSON text.
 */
package org.jheartbeat.core.journal;
