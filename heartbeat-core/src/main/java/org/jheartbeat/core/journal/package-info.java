/**
 * The event journal's vocabulary: what happened, when, to what, why and at whose request
 * ({@link ClusterEvent}, {@link EventKind}), its one-line JSON form ({@link EventCodec}) and the
 * sink the loop hands events to ({@link EventSink}). The store, the alert dispatcher, the web
 * console and {@code hb report} all read this one form. The store is {@link EventJournal} (its files read
 * without a writer: {@link JournalFiles}); {@link EventSinks} hands one event to several sinks. Imports
 * nothing of ours but JSON text and the monotonic clock.
 */
package org.jheartbeat.core.journal;
