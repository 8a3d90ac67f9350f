/**
 * The virtual-service table: its model ({@link org.jheartbeat.director.table.IpvsTable}), the
 * changes ({@link org.jheartbeat.director.table.TableCommand}, written as ldirectord writes ipvsadm
 * commands), ipvsadm 1.31's text formats both ways, the difference between two tables, and the
 * backends behind {@link org.jheartbeat.director.table.TableBackend} (the kernel's IPVS through
 * ipvsadm; a user-space director plugs in here). Knows nothing of checks or schedules.
 */
package org.jheartbeat.director.table;
