package io.gtran.lbv.testkit;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.GraphSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A hand-made LDBC-like graph small enough to count every query's answer by hand: 8 vertices
 * (persons 0–2, place 3, posts 4–5, comments 6–7), 12 edges. The lookup key {@code ori_id} of
 * vertex {@code i} is {@code 100 + i}. Shared by the system modules' tests (added as a test source).
 *
 * <pre>
 *  e0  0 -knows-> 1 {creationDate:1}      e6  5 -hasCreator-> 1
 *  e1  0 -knows-> 2 {creationDate:2}      e7  6 -hasCreator-> 0
 *  e2  1 -knows-> 2 {creationDate:3}      e8  7 -hasCreator-> 2
 *  e3  0 -isLocatedIn-> 3                 e9  6 -replyOf-> 5
 *  e4  1 -isLocatedIn-> 3                 e10 7 -replyOf-> 6
 *  e5  4 -hasCreator-> 0                  e11 1 -likes-> 4 {creationDate:50}
 * </pre>
 */
public final class TinySocial implements Dataset {
    public static final String LOOKUP = "ori_id";

    /** One edge as emitted. */
    public record Edge(long id, long out, long in, String label, Map<String, Object> properties) {
    }

    private static final List<String> VERTEX_LABELS = List.of("person", "place", "post", "comment");
    private static final List<String> EDGE_LABELS = List.of("knows", "isLocatedIn", "hasCreator", "replyOf", "likes");

    @Override
    public String name() {
        return "tiny-social";
    }

    @Override
    public DatasetInfo info() {
        return new DatasetInfo("tiny-social", 8, 12, VERTEX_LABELS, EDGE_LABELS, List.of("firstName"),
                List.of("creationDate"),
                List.of(LOOKUP, "firstName", "lastName", "birthday", "locationIP", "browserUsed", "name",
                        "imageFile", "content", "creationDate"),
                List.of("creationDate"), LOOKUP);
    }

    @Override
    public void generate(GraphSink sink) {
        sink.vertex(0, "person", person(0, "Ann", "Ash", 19900101L));
        sink.vertex(1, "person", person(1, "Bob", "Birch", 19910202L));
        sink.vertex(2, "person", person(2, "Cid", "Cedar", 19920303L));
        sink.vertex(3, "place", Map.of(LOOKUP, 103L, "name", "Paris"));
        sink.vertex(4, "post", Map.of(LOOKUP, 104L, "imageFile", "p4.jpg", "creationDate", 10L));
        sink.vertex(5, "post", Map.of(LOOKUP, 105L, "content", "hello", "creationDate", 20L));
        sink.vertex(6, "comment", Map.of(LOOKUP, 106L, "content", "c6", "creationDate", 30L));
        sink.vertex(7, "comment", Map.of(LOOKUP, 107L, "content", "c7", "creationDate", 40L));
        for (Edge e : edges()) {
            sink.edge(e.id(), e.out(), e.in(), e.label(), e.properties());
        }
    }

    /** The edges, in emission order (edge i has id i). */
    public static List<Edge> edges() {
        List<Edge> edges = new ArrayList<>();
        edges.add(new Edge(0, 0, 1, "knows", Map.of("creationDate", 1L)));
        edges.add(new Edge(1, 0, 2, "knows", Map.of("creationDate", 2L)));
        edges.add(new Edge(2, 1, 2, "knows", Map.of("creationDate", 3L)));
        edges.add(new Edge(3, 0, 3, "isLocatedIn", Map.of()));
        edges.add(new Edge(4, 1, 3, "isLocatedIn", Map.of()));
        edges.add(new Edge(5, 4, 0, "hasCreator", Map.of()));
        edges.add(new Edge(6, 5, 1, "hasCreator", Map.of()));
        edges.add(new Edge(7, 6, 0, "hasCreator", Map.of()));
        edges.add(new Edge(8, 7, 2, "hasCreator", Map.of()));
        edges.add(new Edge(9, 6, 5, "replyOf", Map.of()));
        edges.add(new Edge(10, 7, 6, "replyOf", Map.of()));
        edges.add(new Edge(11, 1, 4, "likes", Map.of("creationDate", 50L)));
        return edges;
    }

    /** Gremlin's {@code V(vertex).both()^k} counted (paths, no dedup), over the edges as loaded. */
    public static long khop(long vertex, int k) {
        if (k == 0) {
            return 1;
        }
        long paths = 0;
        for (Edge e : edges()) {
            if (e.out() == vertex) {
                paths += khop(e.in(), k - 1);
            }
            if (e.in() == vertex) {
                paths += khop(e.out(), k - 1);
            }
        }
        return paths;
    }

    private static Map<String, Object> person(long id, String first, String last, long birthday) {
        return Map.of(LOOKUP, 100L + id, "firstName", first, "lastName", last, "birthday", birthday,
                "locationIP", "10.0.0." + id, "browserUsed", "Firefox");
    }
}
