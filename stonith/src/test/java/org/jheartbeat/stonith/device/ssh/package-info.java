/**
 * Tests of the ssh device with a scripted process runner standing in for ssh and ping: reset and
 * off run over ssh, then wait until the host stops answering ping; power on is refused; a host
 * that stays up is a failure.
 */
package org.jheartbeat.stonith.device.ssh;
