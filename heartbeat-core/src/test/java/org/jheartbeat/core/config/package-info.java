/**
 * Tests of configuration loading: the ha.cf, authkeys and haresources parsers and the validator
 * against Heartbeat 3.0.6's directive table and duration forms, broken directories with one
 * mistake each (exactly one ERROR on the right file:line), config and per-group digests, the
 * agreement of the two nodes' haresources, lenient haresources edits and the GNU-diff-compatible
 * line diff.
 */
package org.jheartbeat.core.config;
