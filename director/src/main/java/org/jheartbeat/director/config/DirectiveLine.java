package org.jheartbeat.director.config;

/**
 * One ldirectord.cf directive as written: its value (as after {@code =}, quotes kept) and its line, the
 * line every problem with it is reported at.
 */
record DirectiveLine(String value, int line) {
}
