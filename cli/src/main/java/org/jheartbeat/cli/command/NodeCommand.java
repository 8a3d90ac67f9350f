package org.jheartbeat.cli.command;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Base of the commands that act as one node of a configuration ({@code hb daemon}, {@code hb config
 * check}, {@code hb sync ...}, {@code hb stonith ...}): their {@code --config-dir} and {@code --node-name}
 * (each command's own fallback for the name, its own wording from {@code HbMessages.properties}), and
 * the command spec for their output. picocli takes the mixins and spec of a superclass too.
 */
abstract class NodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    NodeNameOption nodeName;
}
