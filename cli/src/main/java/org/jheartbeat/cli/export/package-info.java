/**
 * The I/O edge of {@code hb export pacemaker} ({@link org.jheartbeat.cli.export.ExportSources}): gathers
 * the export module's input from a configuration directory with the loaders {@code hb config check}
 * uses. The conversion itself is the export module ({@code org.jheartbeat.export}).
 */
package org.jheartbeat.cli.export;
