package io.gtran.lbv.neo4j;

import io.gtran.lbv.DatasetInfo;
import io.gtran.lbv.LatencyQuery;
import io.gtran.lbv.LbvQuery;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The Cypher text of every LBV and latency query, the equivalent of the Gremlin templates of the
 * G-Tran paper's Tables 4 and 5. Values always travel as parameters; labels, relationship types
 * and property keys cannot be parameters in Cypher 5, so a text is built per label or key (quoted
 * with back-ticks) and cached: each distinct text is planned once.
 *
 * <p>An element with a dataset id is addressed by its internal id ({@code id(n) = $n}, an id seek)
 * <em>and</em> its {@code lbv_id} property: Neo4j reuses the ids of deleted records, and an element
 * created during the run never has {@code lbv_id}, so a reused id is never mistaken for the deleted
 * dataset element.
 *
 * <p>{@code g.V().has(key, value)} has no label while Neo4j's range indexes are per label: it is a
 * {@code UNION ALL} of one index seek per vertex label of the dataset (every label gets an index on
 * every indexed key, see {@link Neo4jLbvSystem#load}); likewise per relationship type for edges.
 *
 * <p>Rows are what the Gremlin traversal would return as traversers (no dedup unless the template
 * has one); texts ending in {@code AS n} return one count instead.
 */
final class CypherQueries {
    /** The property that keeps a loaded element's dataset id. */
    static final String ID_KEY = "lbv_id";
    /** The LDBC-like social dataset's labels, types and keys the latency queries use (paper Table 5). */
    static final String POST = "post";
    static final String COMMENT = "comment";
    static final String KNOWS = "knows";
    static final String HAS_CREATOR = "hasCreator";
    static final String REPLY_OF = "replyOf";
    static final String IS_LOCATED_IN = "isLocatedIn";

    private static final String NODE = "MATCH (n) WHERE id(n) = $n AND n." + ID_KEY + " = $nd ";
    private static final String REL = "MATCH ()-[r]->() WHERE id(r) = $r AND r." + ID_KEY + " = $rd ";
    private static final String SECOND_NODE = "MATCH (m) WHERE id(m) = $m AND m." + ID_KEY + " = $md ";

    private final DatasetInfo info;
    private final Map<String, String> cache = new ConcurrentHashMap<>();

    CypherQueries(DatasetInfo info) {
        this.info = info;
    }

    /** Back-tick quoting of a label, type or key (a back-tick inside is doubled). */
    static String quote(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("empty Cypher name: name=" + name);
        }
        return '`' + name.replace("`", "``") + '`';
    }

    private String cached(String kind, String name, Function<String, String> build) {
        return cache.computeIfAbsent(kind + '\u0000' + name, k -> build.apply(name));
    }

    /** The text of an LBV query; {@code name} is its label, type or key where the text depends on one. */
    String lbv(LbvQuery query, String name) {
        return switch (query) {
            case Q2 -> cached("Q2", name, l -> "CREATE (v:" + quote(l) + ") SET v = $props RETURN v");
            case Q3 -> cached("Q3", name, t -> NODE + SECOND_NODE + "CREATE (n)-[e:" + quote(t) + "]->(m) RETURN e");
            case Q4 -> cached("Q4", name,
                    t -> NODE + SECOND_NODE + "CREATE (n)-[e:" + quote(t) + "]->(m) SET e = $props RETURN e");
            // name = "<vertex label>\u0000<edge label>"
            case Q7 -> cache.computeIfAbsent("Q7\u0000" + name, k -> {
                String[] labels = name.split("\u0000", 2);
                return "CREATE (v:" + quote(labels[0]) + ") SET v = $props WITH v"
                        + " CALL { WITH v UNWIND $targets AS t MATCH (m) WHERE id(m) = t.m AND m." + ID_KEY + " = t.md"
                        + " CREATE (v)-[e:" + quote(labels[1]) + "]->(m) RETURN count(e) AS c }"
                        + " RETURN 1 + c AS n";
            });
            // Q5 sets a new key; Q16 updates, Q20 removes ($set = {key: null}) only a key the element has.
            case Q5 -> NODE + "SET n += $set RETURN n";
            case Q16, Q20 -> NODE + "AND n[$key] IS NOT NULL SET n += $set RETURN n";
            case Q6 -> REL + "SET r += $set RETURN r";
            case Q17, Q21 -> REL + "AND r[$key] IS NOT NULL SET r += $set RETURN r";
            case Q11 -> cached("Q11", name, k -> "CALL { " + unionOverLabels(info.vertexLabels(),
                    l -> "MATCH (v:" + quote(l) + ") WHERE v." + quote(k) + " = $value RETURN v") + " } RETURN v");
            case Q12 -> cached("Q12", name, k -> "CALL { " + unionOverLabels(info.edgeLabels(),
                    t -> "MATCH ()-[e:" + quote(t) + "]->() WHERE e." + quote(k) + " = $value RETURN e") + " } RETURN e");
            // "Count relationships of a type": Neo4j answers this from its counts store.
            case Q13 -> cached("Q13", name, t -> "MATCH ()-[e:" + quote(t) + "]->() RETURN count(e) AS n");
            case Q14 -> NODE + "RETURN properties(n) AS p";
            case Q15 -> REL + "RETURN properties(r) AS p";
            case Q18 -> NODE + "DETACH DELETE n RETURN count(*) AS n";
            case Q19 -> REL + "DELETE r RETURN count(*) AS n";
            case Q22 -> NODE + "MATCH (n)<--(m) RETURN m";
            case Q23 -> NODE + "MATCH (n)-->(m) RETURN m";
            // Both directions separately, as Gremlin's both(l) (a self-loop counts twice).
            case Q24 -> cached("Q24", name, t -> NODE + "CALL { WITH n MATCH (n)-[:" + quote(t) + "]->(m) RETURN m"
                    + " UNION ALL WITH n MATCH (n)<-[:" + quote(t) + "]-(m) RETURN m } RETURN m");
            case Q25 -> NODE + "MATCH (n)<-[e]-() RETURN DISTINCT type(e) AS t";
            case Q26 -> NODE + "MATCH (n)-[e]->() RETURN DISTINCT type(e) AS t";
            case Q27 -> NODE + "MATCH (n)-[e]-() RETURN DISTINCT type(e) AS t";
        };
    }

    /** The text of a latency query; the lookup value is {@code $v}. */
    String latency(LatencyQuery query) {
        return cache.computeIfAbsent("L" + query.name(), k -> buildLatency(query));
    }

    private String buildLatency(LatencyQuery query) {
        String lookup = "CALL { " + unionOverLabels(info.vertexLabels(),
                l -> "MATCH (s:" + quote(l) + ") WHERE s." + quote(info.lookupKey()) + " = $v RETURN s") + " } ";
        return switch (query) {
            // union(properties(firstName, lastName, birthday, locationIP, browserUsed), out(isLocatedIn).properties(name))
            case IS1 -> lookup + "CALL { WITH s UNWIND [s.firstName, s.lastName, s.birthday, s.locationIP, s.browserUsed] AS x"
                    + " RETURN x UNION ALL WITH s MATCH (s)-[:" + quote(IS_LOCATED_IN) + "]->(c) RETURN c.name AS x }"
                    + " WITH x WHERE x IS NOT NULL RETURN x";
            // in(hasCreator).order(creationDate, decr).limit(10).as(msg).union(post: out(hasCreator).firstName,
            // comment: out(replyOf).out(hasCreator).firstName).as(author).select(msg, author)
            case IS2 -> lookup + "MATCH (s)<-[:" + quote(HAS_CREATOR) + "]-(msg) WHERE msg.creationDate IS NOT NULL"
                    + " WITH msg ORDER BY msg.creationDate DESC LIMIT 10"
                    + " CALL { WITH msg MATCH (msg:" + quote(POST) + ")-[:" + quote(HAS_CREATOR) + "]->(a) RETURN a"
                    + " UNION ALL WITH msg MATCH (msg:" + quote(COMMENT) + ")-[:" + quote(REPLY_OF) + "]->()-[:"
                    + quote(HAS_CREATOR) + "]->(a) RETURN a }"
                    + " WITH msg, a.firstName AS author WHERE author IS NOT NULL RETURN msg, author";
            // union(outE(knows) -> friend, creationDate; inE(knows) -> friend, creationDate)
            case IS3 -> lookup + "CALL { WITH s MATCH (s)-[k:" + quote(KNOWS) + "]->(f) RETURN f, k.creationDate AS d"
                    + " UNION ALL WITH s MATCH (s)<-[k:" + quote(KNOWS) + "]-(f) RETURN f, k.creationDate AS d }"
                    + " WITH f, d WHERE d IS NOT NULL RETURN f, d";
            // union(hasLabel(comment).properties(content, creationDate), hasLabel(post).properties(imageFile, creationDate))
            case IS4 -> lookup + "UNWIND CASE WHEN s:" + quote(COMMENT) + " THEN [s.content, s.creationDate]"
                    + " WHEN s:" + quote(POST) + " THEN [s.imageFile, s.creationDate] ELSE [] END AS x"
                    + " WITH x WHERE x IS NOT NULL RETURN x";
            case KHOP1 -> lookup + hops(1);
            case KHOP2 -> lookup + hops(2);
            case KHOP3 -> lookup + hops(3);
            case KHOP4 -> lookup + hops(4);
        };
    }

    /**
     * {@code both()^k} counted: one MATCH clause per hop, because relationship uniqueness holds only
     * within one pattern, and Gremlin may walk back along the edge it came by. (A self-loop is
     * matched once per hop here and twice by Gremlin's both().)
     */
    private static String hops(int k) {
        StringBuilder text = new StringBuilder();
        String from = "s";
        for (int i = 1; i <= k; i++) {
            String to = "x" + i;
            text.append("MATCH (").append(from).append(")--(").append(to).append(") ");
            from = to;
        }
        return text.append("RETURN count(*) AS n").toString();
    }

    private static String unionOverLabels(List<String> labels, Function<String, String> branch) {
        if (labels.isEmpty()) {
            throw new IllegalArgumentException("dataset has no labels to search: labels=" + labels);
        }
        StringBuilder text = new StringBuilder();
        for (String label : labels) {
            if (text.length() > 0) {
                text.append(" UNION ALL ");
            }
            text.append(branch.apply(label));
        }
        return text.toString();
    }
}
