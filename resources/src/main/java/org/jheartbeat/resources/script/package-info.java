/**
 * Script resource agents: {@code /etc/ha.d/resource.d/*} and {@code /etc/init.d/*} programs
 * driven as {@code <script> <args...> start|stop|status} through the core {@code ProcessRunner},
 * with status decided from stdout text by {@link org.jheartbeat.resources.script.StatusText}
 * (Heartbeat 3.0.6 ResourceManager semantics). Must not import {@code ip}, {@code group} or
 * {@code lookup}.
 */
package org.jheartbeat.resources.script;
