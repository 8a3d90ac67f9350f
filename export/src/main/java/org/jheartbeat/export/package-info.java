/**
 * {@code hb export pacemaker}: the configuration as a Corosync 3 + Pacemaker 2 cluster. The CIB model
 * ({@link org.jheartbeat.export.Cib}), the pure conversion ({@link
 * org.jheartbeat.export.PacemakerExporter}) with its line-by-line report, the renderers (CIB XML,
 * pcs and crm scripts), the expected placements read from {@code crm_simulate} ({@link
 * org.jheartbeat.export.Placement}) and the check that runs Pacemaker's tools ({@link
 * org.jheartbeat.export.PacemakerCheck}). Design: docs/design/export.md.
 */
package org.jheartbeat.export;
