package org.jheartbeat.core.config;

/**
 * Applies one value of an implemented ha.cf directive to the parse state. Package-private: the
 * public face of a directive is its {@link DirectiveTable} row.
 */
@FunctionalInterface
interface DirectiveHandler {
    /**
     * @param state the ha.cf being built; problems go to its diagnostics
     * @param value one token (ordinary directives) or the raw remainder (whole-line directives)
     * @param line  1-based ha.cf line
     */
    void apply(HaCfState state, String value, int line);
}
