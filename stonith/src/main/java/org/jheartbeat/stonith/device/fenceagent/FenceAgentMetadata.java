package org.jheartbeat.stonith.device.fenceagent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.xml.AgentMetadataXml;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a fence agent's {@code -o metadata} XML says (facts stonith-sync §3): its parameters in
 * document order and its actions.
 *
 * @param parameters {@code <parameters><parameter name required deprecated>}, in order
 * @param actions    {@code <actions><action name>} names, in order
 */
public record FenceAgentMetadata(List<Parameter> parameters, List<String> actions) {

    /**
     * One {@code <parameter>}.
     *
     * @param name       the option name used on stdin
     * @param required   {@code required="1"}
     * @param deprecated {@code deprecated="1"} (an old alias such as {@code ipaddr})
     */
    public record Parameter(String name, boolean required, boolean deprecated) {
    }

    public FenceAgentMetadata {
        parameters = List.copyOf(parameters);
        actions = List.copyOf(actions);
    }

    /** @return whether a parameter of this name is listed */
    public boolean hasParameter(String name) {
        return parameters.stream().anyMatch(p -> p.name().equals(name));
    }

    /**
     * Parses the XML with the JDK parser hardened against XXE: DOCTYPEs refused, no external
     * entities or schemas, no XInclude, secure processing on.
     *
     * @param xml the agent's metadata output
     * @return the parameters and actions
     * @throws IOException when the text is not well-formed XML or not a {@code resource-agent}
     */
    public static FenceAgentMetadata parse(String xml) throws IOException {
        Element root;
        try {
            root = AgentMetadataXml.resourceAgent(xml);
        } catch (IllegalArgumentException e) {
            throw new IOException("fence agent " + e.getMessage());
        }
        List<Parameter> params = new ArrayList<>();
        NodeList ps = root.getElementsByTagName("parameter");
        for (int i = 0; i < ps.getLength(); i++) {
            Element p = (Element) ps.item(i);
            String name = p.getAttribute("name");
            if (!name.isEmpty()) {
                params.add(new Parameter(name, "1".equals(p.getAttribute("required")),
                        "1".equals(p.getAttribute("deprecated"))));
            }
        }
        List<String> actions = new ArrayList<>();
        NodeList as = root.getElementsByTagName("action");
        for (int i = 0; i < as.getLength(); i++) {
            String name = ((Element) as.item(i)).getAttribute("name");
            if (!name.isEmpty()) {
                actions.add(name);
            }
        }
        return new FenceAgentMetadata(params, actions);
    }
}
