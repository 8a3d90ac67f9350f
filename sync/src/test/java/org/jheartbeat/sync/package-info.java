/**
 * Tests of the sync module's helpers: the mount table parser (octal escapes, the last mount being
 * the visible one) and rsync's --stats figures; {@link org.jheartbeat.sync.TestClock} is a
 * java.time.Clock the tests move by hand.
 */
package org.jheartbeat.sync;
