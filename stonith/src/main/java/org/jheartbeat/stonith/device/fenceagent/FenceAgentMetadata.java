package org.jheartbeat.stonith.device.fenceagent;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

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
        Document doc;
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(null);
            doc = b.parse(new InputSource(new StringReader(xml.strip())));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("fence agent metadata is not usable XML: " + e.getMessage(), e);
        }
        Element root = doc.getDocumentElement();
        if (!"resource-agent".equals(root.getTagName())) {
            throw new IOException("fence agent metadata root is <" + root.getTagName() + ">, not <resource-agent>");
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
