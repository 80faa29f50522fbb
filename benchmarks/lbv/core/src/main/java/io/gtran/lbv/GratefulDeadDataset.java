package io.gtran.lbv;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * TinkerPop's grateful-dead graph (808 vertices: songs and artists; 8049 edges: followedBy with
 * {@code weight}, sungBy, writtenBy), read with StAX from the GraphML file the build unpacks from
 * the {@code gremlin-test} jar into {@code target/classes} (no TinkerPop class is on the
 * classpath). Dataset ids follow file order; each vertex gets {@code ori_id} = its GraphML node id.
 * Fixed size: the target edge count and the seed do not change it.
 */
final class GratefulDeadDataset implements Dataset {
    static final String NAME = "grateful-dead";
    static final String RESOURCE = "org/apache/tinkerpop/gremlin/structure/io/graphml/grateful-dead.xml";
    private static final String LABEL_VERTEX = "labelV";
    private static final String LABEL_EDGE = "labelE";

    private static volatile GratefulDeadDataset loaded;

    private final List<Element> vertices;
    private final List<Element> edges;
    private final DatasetInfo info;

    private record Element(long out, long in, String label, Map<String, Object> properties) {
    }

    private GratefulDeadDataset(List<Element> vertices, List<Element> edges, List<String> vertexKeys,
                                List<String> edgeKeys) {
        this.vertices = vertices;
        this.edges = edges;
        this.info = new DatasetInfo(NAME, vertices.size(), edges.size(), labels(vertices), labels(edges),
                List.of("ori_id", "name"), List.of("weight"), vertexKeys, edgeKeys, "ori_id");
    }

    /** The parsed graph, read once per JVM. */
    static GratefulDeadDataset load() {
        GratefulDeadDataset d = loaded;
        if (d == null) {
            synchronized (GratefulDeadDataset.class) {
                d = loaded;
                if (d == null) {
                    d = parse();
                    loaded = d;
                }
            }
        }
        return d;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public DatasetInfo info() {
        return info;
    }

    @Override
    public void generate(GraphSink sink) {
        for (int v = 0; v < vertices.size(); v++) {
            Element e = vertices.get(v);
            sink.vertex(v, e.label(), new LinkedHashMap<>(e.properties()));
        }
        for (int i = 0; i < edges.size(); i++) {
            Element e = edges.get(i);
            sink.edge(i, e.out(), e.in(), e.label(), new LinkedHashMap<>(e.properties()));
        }
    }

    private static List<String> labels(List<Element> elements) {
        return elements.stream().map(Element::label).distinct().sorted().toList();
    }

    private static GratefulDeadDataset parse() {
        ClassLoader loader = GratefulDeadDataset.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource=" + RESOURCE + " is not on the classpath; lbv-core's build"
                        + " unpacks it from org.apache.tinkerpop:gremlin-test"
                        + " (mvn -pl benchmarks/lbv/core generate-resources)");
            }
            XMLInputFactory factory = XMLInputFactory.newFactory();
            factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
            factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
            XMLStreamReader xml = factory.createXMLStreamReader(in, "UTF-8");
            try {
                return new GraphMl().read(xml);
            } finally {
                xml.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("resource=" + RESOURCE, e);
        } catch (XMLStreamException e) {
            throw new IllegalStateException("resource=" + RESOURCE + " is not readable GraphML: " + e.getMessage(), e);
        }
    }

    /** The few GraphML elements the file uses: key, node, edge, data. */
    private static final class GraphMl {
        private final Map<String, String> keyNames = new HashMap<>();
        private final Map<String, String> keyTypes = new HashMap<>();
        private final List<String> vertexKeys = new ArrayList<>(List.of("ori_id"));
        private final List<String> edgeKeys = new ArrayList<>();
        private final Map<String, Long> nodeIds = new HashMap<>();
        private final List<Element> vertices = new ArrayList<>();
        private final List<Element> edges = new ArrayList<>();

        GratefulDeadDataset read(XMLStreamReader xml) throws XMLStreamException {
            String nodeId = null;
            long out = -1;
            long in = -1;
            String label = null;
            Map<String, Object> properties = null;
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    switch (xml.getLocalName()) {
                        case "key" -> key(xml);
                        case "node" -> {
                            nodeId = xml.getAttributeValue(null, "id");
                            properties = new LinkedHashMap<>();
                            properties.put("ori_id", Long.parseLong(nodeId));
                            label = "vertex";
                        }
                        case "edge" -> {
                            out = node(xml.getAttributeValue(null, "source"));
                            in = node(xml.getAttributeValue(null, "target"));
                            properties = new LinkedHashMap<>();
                            label = "edge";
                        }
                        case "data" -> {
                            String key = xml.getAttributeValue(null, "key");
                            String text = xml.getElementText();
                            if (key.equals(LABEL_VERTEX) || key.equals(LABEL_EDGE)) {
                                label = text;
                            } else {
                                properties.put(keyNames.getOrDefault(key, key), value(keyTypes.get(key), text));
                            }
                        }
                        default -> { }
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    if (xml.getLocalName().equals("node")) {
                        nodeIds.put(nodeId, (long) vertices.size());
                        vertices.add(new Element(-1, -1, label, properties));
                    } else if (xml.getLocalName().equals("edge")) {
                        edges.add(new Element(out, in, label, properties));
                    }
                }
            }
            return new GratefulDeadDataset(List.copyOf(vertices), List.copyOf(edges), vertexKeys, edgeKeys);
        }

        private void key(XMLStreamReader xml) {
            String id = xml.getAttributeValue(null, "id");
            String name = xml.getAttributeValue(null, "attr.name");
            keyNames.put(id, name);
            keyTypes.put(id, xml.getAttributeValue(null, "attr.type"));
            if (name.equals(LABEL_VERTEX) || name.equals(LABEL_EDGE)) {
                return;
            }
            ("edge".equals(xml.getAttributeValue(null, "for")) ? edgeKeys : vertexKeys).add(name);
        }

        private long node(String id) {
            Long v = nodeIds.get(id);
            if (v == null) {
                throw new IllegalStateException("edge end node=" + id + " comes before its node element");
            }
            return v;
        }

        private static Object value(String type, String text) {
            return switch (type == null ? "string" : type) {
                case "int" -> Integer.parseInt(text.trim());
                case "long" -> Long.parseLong(text.trim());
                case "float", "double" -> Double.parseDouble(text.trim());
                default -> text;
            };
        }
    }
}
