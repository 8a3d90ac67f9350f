package org.jheartbeat.stonith.registry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.device.external.ExternalDevice;
import org.jheartbeat.stonith.device.fenceagent.FenceAgentDevice;
import org.jheartbeat.stonith.device.fenceagent.FenceAgents;
import org.jheartbeat.stonith.device.apcsmart.ApcSmartDevice;
import org.jheartbeat.stonith.device.meatware.MeatwareDevice;
import org.jheartbeat.stonith.device.nil.NullDevice;
import org.jheartbeat.stonith.device.nut.NutDevice;
import org.jheartbeat.stonith.device.ssh.SshDevice;

/**
 * The STONITH device types jheartbeat knows, by ha.cf type name: the built-in ones, every
 * cluster-glue external plugin installed ({@code external/<x>}, facts stonith-sync §2.4) and every
 * fence agent installed ({@code fence_<x>}, §3); and the mapping of positional ha.cf
 * {@code stonith_host} words / {@code -p} strings onto parameter names (§2.2, §2.5).
 *
 * <p>Adding a built-in device is one line in the static block below.
 */
public final class StonithDevices {
    /** Creates an unconfigured device. */
    @FunctionalInterface
    private interface Factory {
        StonithDevice create() throws StonithConfigException;
    }

    private static final Map<String, Factory> BUILT_IN = new LinkedHashMap<>();

    static {
        // one line per built-in device, in the order "hb stonith list-types" shows them
        BUILT_IN.put(NullDevice.TYPE, NullDevice::new);
        BUILT_IN.put(MeatwareDevice.TYPE, MeatwareDevice::new);
        BUILT_IN.put(SshDevice.TYPE, SshDevice::new);
        BUILT_IN.put(NutDevice.TYPE, NutDevice::new);
        BUILT_IN.put(ApcSmartDevice.TYPE, ApcSmartDevice::new);
    }

    private StonithDevices() {
    }

    /** The built-in type names, in registration order. */
    public static List<String> builtInTypes() {
        return List.copyOf(BUILT_IN.keySet());
    }

    /**
     * Every type {@link #create(String)} accepts here: built-ins, then {@code external/<x>} for each
     * file in {@link ExternalDevice#DEFAULT_PLUGIN_DIR}, then each {@code fence_<x>} on PATH or in
     * /usr/sbin (both sorted).
     */
    public static List<String> types() {
        return types(ExternalDevice.DEFAULT_PLUGIN_DIR, FenceAgents.searchPath());
    }

    /**
     * As {@link #types()} with explicit directories.
     *
     * @param pluginDir external plugin directory; a missing one contributes nothing
     * @param agentDirs directories searched for fence agents
     */
    public static List<String> types(Path pluginDir, List<Path> agentDirs) {
        List<String> types = new ArrayList<>(BUILT_IN.keySet());
        try (Stream<Path> files = Files.list(pluginDir)) {
            files.filter(Files::isRegularFile).map(p -> "external/" + p.getFileName()).sorted()
                    .forEach(types::add);
        } catch (IOException e) {
            // no cluster-glue installed: no external types
        }
        types.addAll(FenceAgents.installed(agentDirs));
        return Collections.unmodifiableList(types);
    }

    /**
     * A new, unconfigured device of {@code type} (case as written in ha.cf; built-in names are
     * matched case-insensitively, like cluster-glue's lower-case names).
     *
     * @throws StonithConfigException for an unknown type (the message says how to list the valid
     *                                ones), or when the plugin/agent cannot be used
     */
    public static StonithDevice create(String type) throws StonithConfigException {
        if (type == null || type.isBlank()) {
            throw unknown(type);
        }
        Factory builtIn = BUILT_IN.get(type.toLowerCase(Locale.ROOT));
        if (builtIn != null) {
            return builtIn.create();
        }
        if (type.startsWith("external/")) {
            return new ExternalDevice(type.substring("external/".length()));
        }
        if (type.startsWith("fence_")) {
            return new FenceAgentDevice(type);
        }
        throw unknown(type);
    }

    private static StonithConfigException unknown(String type) {
        return new StonithConfigException("unknown STONITH device type '" + type
                + "'; run 'hb stonith list-types' to see the valid types");
    }

    /**
     * Maps a {@code -p} string / the rest of a {@code stonith_host} line (split on whitespace).
     *
     * @see #positional(StonithDevice, List)
     */
    public static Map<String, String> positional(StonithDevice device, String line) throws StonithConfigException {
        String s = line == null ? "" : line.strip();
        return positional(device, s.isEmpty() ? List.of() : Arrays.asList(s.split("\\s+")));
    }

    /**
     * Maps positional words onto {@link StonithDevice#configNames()} in order, as cluster-glue does
     * for {@code -p} and ha.cf {@code stonith_host} (§2.2, §2.5): the last name takes all remaining
     * words joined by single blanks (so {@code apcsmart /dev/ttyS1 nodeb nodec} gives
     * {@code hostlist="nodeb nodec"}).
     *
     * @param device the device whose names are used
     * @param words  the values, e.g. {@code [/dev/ttyS1, nodeb]}
     * @return name → value, in configNames order
     * @throws StonithConfigException naming the first parameter without a value, or when the
     *                                device takes no parameters but words were given
     */
    public static Map<String, String> positional(StonithDevice device, List<String> words)
            throws StonithConfigException {
        List<String> names = device.configNames();
        List<String> values = words.stream().filter(w -> w != null && !w.isBlank()).toList();
        Map<String, String> params = new LinkedHashMap<>();
        if (names.isEmpty()) {
            if (!values.isEmpty()) {
                throw new StonithConfigException(device.type() + " takes no parameters, got: "
                        + String.join(" ", values));
            }
            return params;
        }
        for (int i = 0; i < names.size(); i++) {
            if (i >= values.size()) {
                throw new StonithConfigException(device.type() + ": parameter '" + names.get(i)
                        + "' is missing (expected, in order: " + String.join(" ", names) + ")");
            }
            boolean last = i == names.size() - 1;
            params.put(names.get(i), last ? String.join(" ", values.subList(i, values.size())) : values.get(i));
        }
        return params;
    }
}
