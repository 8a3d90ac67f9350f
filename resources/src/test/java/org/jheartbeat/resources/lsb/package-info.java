/** Tests of the LSB class: the exit-code tables and the agent on a recording process runner. */
package org.jheartbeat.resources.lsb;
