package org.jheartbeat.resources.ocf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.xml.AgentMetadataXml;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * An OCF agent's {@code meta-data} (OCF resource-agent API 1.0, {@code ra-api-1.dtd}): its
 * parameters and the default timeouts of its actions. Parsed with the JDK's DOM parser, bounded
 * ({@link #MAX_BYTES}) and closed to the outside: no DTD is loaded (the agents declare {@code
 * SYSTEM "ra-api-1.dtd"}), a document declaring entities is refused, no external entity or
 * XInclude is resolved, secure processing is on.
 *
 * @param name       the {@code resource-agent name} attribute
 * @param shortdesc  one-line description (English), may be empty
 * @param parameters the parameters in document order
 * @param actions    action name to its declared {@code timeout}, for actions that declare one
 */
public record OcfMetadata(String name, String shortdesc, List<Parameter> parameters, Map<String, Duration> actions) {
    /** Largest meta-data document accepted: 256 KiB (IPaddr2's is about 10 KiB). */
    public static final int MAX_BYTES = AgentMetadataXml.MAX_BYTES;
    /** No parameters, no action timeouts: what an agent whose meta-data cannot be read runs with. */
    public static final OcfMetadata EMPTY = new OcfMetadata("", "", List.of(), Map.of());

    public OcfMetadata {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(shortdesc, "shortdesc");
        parameters = List.copyOf(parameters);
        actions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(actions));
    }

    /**
     * One {@code <parameter>}.
     *
     * @param name         the parameter name ({@code OCF_RESKEY_<name>})
     * @param required     {@code required="1"}
     * @param unique       {@code unique="1"}
     * @param type         {@code content type}, e.g. {@code string}, {@code integer}, {@code boolean}; may be empty
     * @param defaultValue {@code content default}, if declared
     * @param shortdesc    the one-line description, blanks collapsed; may be empty
     */
    public record Parameter(String name, boolean required, boolean unique, String type,
                            Optional<String> defaultValue, String shortdesc) {
        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(defaultValue, "defaultValue");
            Objects.requireNonNull(shortdesc, "shortdesc");
        }
    }

    /**
     * @param action e.g. {@code start}
     * @return the timeout the agent declares for it, if any
     */
    public Optional<Duration> timeout(String action) {
        return Optional.ofNullable(actions.get(action));
    }

    /** @return the parameter names, in document order */
    public List<String> parameterNames() {
        return parameters.stream().map(Parameter::name).toList();
    }

    /**
     * Parses meta-data XML.
     *
     * @param xml the agent's {@code meta-data} output
     * @return the parsed meta-data
     * @throws OcfMetadataException if the text is larger than {@link #MAX_BYTES}, declares entities, is not well-formed
     *                              XML, has no {@code <resource-agent>} root, or a parameter has no name
     */
    public static OcfMetadata parse(String xml) {
        Element root;
        try {
            root = AgentMetadataXml.resourceAgent(xml);
        } catch (IllegalArgumentException e) {
            throw new OcfMetadataException(e.getMessage());
        }
        List<Parameter> parameters = new ArrayList<>();
        for (Element p : children(child(root, "parameters"), "parameter")) {
            String name = p.getAttribute("name");
            if (name.isEmpty()) {
                throw new OcfMetadataException("meta-data has a <parameter> without a name");
            }
            Element content = child(p, "content");
            Optional<String> def = content != null && content.hasAttribute("default")
                    ? Optional.of(content.getAttribute("default")) : Optional.empty();
            parameters.add(new Parameter(name, "1".equals(p.getAttribute("required")),
                    "1".equals(p.getAttribute("unique")), content == null ? "" : content.getAttribute("type"),
                    def, text(child(p, "shortdesc"))));
        }
        Map<String, Duration> actions = new LinkedHashMap<>();
        for (Element a : children(child(root, "actions"), "action")) {
            String timeout = a.getAttribute("timeout");
            if (!a.getAttribute("name").isEmpty() && !timeout.isEmpty() && !actions.containsKey(a.getAttribute("name"))) {
                try {
                    actions.put(a.getAttribute("name"), OperationTimeouts.parseDuration(timeout.strip()));
                } catch (IllegalArgumentException e) {
                    // an agent's odd timeout is ignored: the class default applies to that action
                }
            }
        }
        return new OcfMetadata(root.getAttribute("name"), text(child(root, "shortdesc")), parameters, actions);
    }

    private static Element child(Element parent, String tag) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> out = new ArrayList<>();
        if (parent == null) {
            return out;
        }
        NodeList list = parent.getChildNodes();
        for (int i = 0; i < list.getLength(); i++) {
            if (list.item(i) instanceof Element e && e.getTagName().equals(tag)) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element e) {
        return e == null ? "" : e.getTextContent().strip().replaceAll("\\s+", " ");
    }
}
