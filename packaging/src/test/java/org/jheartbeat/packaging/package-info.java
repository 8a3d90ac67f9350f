/**
 * Tests of the Debian package: {@link org.jheartbeat.packaging.DebPackageIT} installs the built .deb into an
 * isolated root ({@link org.jheartbeat.packaging.IsolatedRoot}: a private mount namespace with overlays over
 * /usr, /etc and /var) and runs the daemon in the lab as the unit starts it.
 */
package org.jheartbeat.packaging;
