/** Tests of the built-in Hostname resource: token parsing, command text, output parsing, the agent on fakes. */
package org.jheartbeat.resources.names;
