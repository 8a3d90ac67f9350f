package org.jheartbeat.core.xml;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Parses an agent's {@code meta-data} output, the {@code <resource-agent>} document of the OCF
 * resource-agent API (ra-api-1.dtd), which ClusterLabs fence agents print too. One hardened parser for
 * both: the text is at most {@link #MAX_BYTES}; a document that declares entities ({@code <!ENTITY})
 * is refused before parsing (no agent needs one, and refusing them rules out entity expansion
 * whatever the JDK's settings); a {@code DOCTYPE} is allowed (OCF agents name ra-api-1.dtd) but
 * never loaded; no external entity, DTD, schema or XInclude is read.
 */
public final class AgentMetadataXml {
    /** The largest meta-data accepted: 256 KiB (the largest agent in resource-agents 4.12 prints under 40 KiB). */
    public static final int MAX_BYTES = 256 * 1024;

    private AgentMetadataXml() {
    }

    /**
     * The document's {@code <resource-agent>} root element.
     *
     * @param xml the agent's output
     * @return the root element
     * @throws IllegalArgumentException naming the problem when the text is larger than {@link #MAX_BYTES},
     *                                  declares entities, is not well-formed XML, or has another root
     */
    public static Element resourceAgent(String xml) {
        byte[] bytes = xml.strip().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("meta-data is " + bytes.length + " bytes, more than the " + MAX_BYTES
                    + " accepted");
        }
        if (xml.contains("<!ENTITY")) {
            throw new IllegalArgumentException("meta-data declares XML entities (<!ENTITY): refused");
        }
        Element root;
        try {
            DocumentBuilder builder = factory().newDocumentBuilder();
            builder.setErrorHandler(null);
            builder.setEntityResolver((publicId, systemId) -> new InputSource(new StringReader("")));
            root = builder.parse(new ByteArrayInputStream(bytes)).getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException("meta-data is not well-formed XML: " + e.getMessage());
        }
        if (!root.getTagName().equals("resource-agent")) {
            throw new IllegalArgumentException("meta-data root is <" + root.getTagName() + ">, not <resource-agent>");
        }
        return root;
    }

    private static DocumentBuilderFactory factory() throws ParserConfigurationException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setValidating(false);
        f.setNamespaceAware(false);
        return f;
    }
}
