package io.gtran.lbv.gremlin;

import io.gtran.lbv.Dataset;
import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.GraphSink;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A hand-made, social-shaped graph of 16 vertices and 28 edges with the labels and keys of the
 * {@code social} dataset (places, persons, posts, comments; isLocatedIn, knows, hasCreator,
 * replyOf, likes), small enough to know every answer. The expected answers are computed here
 * from the same arrays, by plain Java, so the tests never restate a number by hand.
 *
 * <pre>
 * vertices  0-1 place, 2-7 person (7 has no birthday), 8-11 post (8, 10 have an imageFile),
 *           12-15 comment; every vertex has ori_id = 1000 + id
 * edges     0-5 isLocatedIn, 6-11 knows, 12-19 hasCreator, 20-23 replyOf (22: comment to comment),
 *           24-27 likes; knows and likes carry creationDate = 5000 + id
 * </pre>
 */
public final class TinySocialDataset implements Dataset {
    public static final String LOOKUP_KEY = "ori_id";
    public static final int VERTICES = 16;

    /** One edge: id, out, in, label. */
    public record E(long id, long out, long in, String label) {
    }

    public static final List<E> EDGES = List.of(
            new E(0, 2, 0, "isLocatedIn"), new E(1, 3, 1, "isLocatedIn"), new E(2, 4, 0, "isLocatedIn"),
            new E(3, 5, 1, "isLocatedIn"), new E(4, 6, 0, "isLocatedIn"), new E(5, 7, 1, "isLocatedIn"),
            new E(6, 2, 3, "knows"), new E(7, 2, 4, "knows"), new E(8, 3, 5, "knows"),
            new E(9, 4, 5, "knows"), new E(10, 6, 2, "knows"), new E(11, 7, 2, "knows"),
            new E(12, 8, 2, "hasCreator"), new E(13, 9, 2, "hasCreator"), new E(14, 10, 3, "hasCreator"),
            new E(15, 11, 4, "hasCreator"), new E(16, 12, 3, "hasCreator"), new E(17, 13, 2, "hasCreator"),
            new E(18, 14, 5, "hasCreator"), new E(19, 15, 2, "hasCreator"),
            new E(20, 12, 8, "replyOf"), new E(21, 13, 9, "replyOf"), new E(22, 14, 12, "replyOf"),
            new E(23, 15, 10, "replyOf"),
            new E(24, 3, 8, "likes"), new E(25, 4, 8, "likes"), new E(26, 5, 9, "likes"), new E(27, 2, 10, "likes"));

    @Override
    public String name() {
        return "tiny-social";
    }

    @Override
    public DatasetInfo info() {
        return new DatasetInfo("tiny-social", VERTICES, EDGES.size(),
                List.of("place", "person", "post", "comment"),
                List.of("isLocatedIn", "knows", "hasCreator", "replyOf", "likes"),
                List.of("firstName", "name"), List.of("creationDate"),
                List.of("ori_id", "name", "firstName", "lastName", "birthday", "locationIP", "browserUsed", "content",
                        "imageFile", "creationDate"),
                List.of("creationDate"), LOOKUP_KEY);
    }

    @Override
    public void generate(GraphSink sink) {
        for (long v = 0; v < VERTICES; v++) {
            sink.vertex(v, label(v), properties(v));
        }
        for (E e : EDGES) {
            sink.edge(e.id, e.out, e.in, e.label, edgeProperties(e));
        }
    }

    public static String label(long v) {
        return v < 2 ? "place" : v < 8 ? "person" : v < 12 ? "post" : "comment";
    }

    public static Map<String, Object> properties(long v) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("ori_id", 1000L + v);
        switch (label(v)) {
            case "place":
                p.put("name", v == 0 ? "Paris" : "Rome");
                break;
            case "person":
                p.put("firstName", "F" + v);
                p.put("lastName", "L" + v);
                if (v != 7) {
                    p.put("birthday", 19900100L + v);
                }
                p.put("locationIP", "10.0.0." + v);
                p.put("browserUsed", v % 2 == 0 ? "Firefox" : "Chrome");
                break;
            case "post":
                p.put("content", "post" + v);
                p.put("creationDate", 3000L + v);
                if (v % 2 == 0) {
                    p.put("imageFile", "img" + v + ".jpg");
                }
                break;
            default:
                p.put("content", "comment" + v);
                p.put("creationDate", 4000L + v);
                break;
        }
        return p;
    }

    public static Map<String, Object> edgeProperties(E e) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (e.label.equals("knows") || e.label.equals("likes")) {
            p.put("creationDate", 5000L + e.id);
        }
        return p;
    }

    // ------------------------------------------------------------------ expected answers

    public static long vertexCount(String key, Object value) {
        long n = 0;
        for (long v = 0; v < VERTICES; v++) {
            if (value.equals(properties(v).get(key))) {
                n++;
            }
        }
        return n;
    }

    public static long edgeCount(String key, Object value) {
        return EDGES.stream().filter(e -> value.equals(edgeProperties(e).get(key))).count();
    }

    public static long labelled(String label) {
        return EDGES.stream().filter(e -> e.label.equals(label)).count();
    }

    public static long in(long v) {
        return EDGES.stream().filter(e -> e.in == v).count();
    }

    public static long out(long v) {
        return EDGES.stream().filter(e -> e.out == v).count();
    }

    public static long both(long v, String label) {
        return EDGES.stream().filter(e -> e.label.equals(label)).mapToLong(e -> (e.out == v ? 1 : 0) + (e.in == v ? 1 : 0)).sum();
    }

    public static long inLabels(long v) {
        return EDGES.stream().filter(e -> e.in == v).map(E::label).distinct().count();
    }

    public static long outLabels(long v) {
        return EDGES.stream().filter(e -> e.out == v).map(E::label).distinct().count();
    }

    public static long bothLabels(long v) {
        return EDGES.stream().filter(e -> e.in == v || e.out == v).map(E::label).distinct().count();
    }

    private static List<Long> outNeighbours(long v, String label) {
        List<Long> result = new ArrayList<>();
        EDGES.stream().filter(e -> e.out == v && e.label.equals(label)).forEach(e -> result.add(e.in));
        return result;
    }

    public static long is1(long person) {
        long n = 0;
        for (String key : GremlinQueries.PERSON_PROFILE) {
            n += properties(person).containsKey(key) ? 1 : 0;
        }
        for (long place : outNeighbours(person, "isLocatedIn")) {
            n += properties(place).containsKey("name") ? 1 : 0;
        }
        return n;
    }

    public static long is2(long person) {
        List<Long> messages = new ArrayList<>();
        EDGES.stream().filter(e -> e.in == person && e.label.equals("hasCreator")).forEach(e -> messages.add(e.out));
        messages.sort(Comparator.comparing((Long m) -> (Long) properties(m).get("creationDate")).reversed());
        long n = 0;
        for (long m : messages.subList(0, Math.min(10, messages.size()))) {
            List<Long> originals = label(m).equals("post") ? List.of(m) : outNeighbours(m, "replyOf");
            for (long original : originals) {
                for (long author : outNeighbours(original, "hasCreator")) {
                    n += properties(author).containsKey("firstName") ? 1 : 0;
                }
            }
        }
        return n;
    }

    public static long is3(long person) {
        return EDGES.stream().filter(e -> e.label.equals("knows") && (e.out == person || e.in == person))
                .filter(e -> edgeProperties(e).containsKey("creationDate")).count();
    }

    public static long is4(long message) {
        Set<String> keys = label(message).equals("comment") ? Set.of("content", "creationDate")
                : label(message).equals("post") ? Set.of("imageFile", "creationDate") : Set.of();
        return keys.stream().filter(properties(message)::containsKey).count();
    }

    /** Walks of {@code hops} edges from {@code start}, in either direction. */
    public static long khop(long start, int hops) {
        long[] walks = new long[VERTICES];
        walks[(int) start] = 1;
        for (int h = 0; h < hops; h++) {
            long[] next = new long[VERTICES];
            for (E e : EDGES) {
                next[(int) e.in] += walks[(int) e.out];
                next[(int) e.out] += walks[(int) e.in];
            }
            walks = next;
        }
        long n = 0;
        for (long w : walks) {
            n += w;
        }
        return n;
    }

    /** Every key a vertex of this dataset has, for tests that need "a key it lacks". */
    public static Set<String> keys(long v) {
        return new LinkedHashSet<>(properties(v).keySet());
    }
}
