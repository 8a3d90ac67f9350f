/**
 * The contract between the user-space data path and its decisions
 * ({@link org.jheartbeat.director.userspace.sched.ServiceScheduling}, kept beside its implementation so
 * that this package never depends on the Netty data path in {@code director.userspace}) and the
 * kernel-exact decision model behind it:
 * the IPVS schedulers ({@code rr wrr lc wlc sed nq lblc lblcr dh sh mh fo ovf}) with their
 * selection rules and tie-breaks, the destination list in the kernel's order, connection entries
 * and their TCP/UDP state timeouts, the ActiveConn/InActConn/PersistConn counters and the
 * overload thresholds, persistence templates with their lifetime rules, the deleted-destination
 * trash, and the {@code --stats}/{@code --rate} counters with the kernel's 2-second estimator
 * (facts {@code lvs.md} §1, §2; Linux {@code net/netfilter/ipvs}, read for facts only).
 *
 * <p>Pure: no I/O, no threads; time comes from the clock given at creation. Depends on the
 * director's table records only, never on Netty.
 */
package org.jheartbeat.director.userspace.sched;
