package io.gtran.lbv.gtran;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvQuery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The LBV message counts: every query in each mode, on a small dataset; and the command line's errors. */
class LbvMessagesTest {
    @Test
    @Timeout(120)
    void countsEveryLbvQueryAndKHopInEachMode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, Map<String, LbvMessages.Cost>> costs = LbvMessages.run(
                LbvMessages.Options.parse("--edges", "1000", "--runs", "2"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> queries = new ArrayList<>(List.of("lookup", "IS1", "IS2", "IS3", "IS4", "khop1", "khop2", "khop3"));
        for (LbvQuery query : LbvQuery.values()) {
            queries.add(query.name());
        }
        assertEquals(List.of("element", "batched", "pushed"), List.copyOf(costs.keySet()));
        for (String mode : costs.keySet()) {
            assertEquals(queries.stream().sorted().toList(), costs.get(mode).keySet().stream().sorted().toList());
            costs.get(mode).forEach((query, cost) -> assertEquals(0, cost.failed(), mode + " " + query));
            assertTrue(costs.get(mode).get("khop1").messages() > 0, "a k-hop from a looked-up vertex crosses nodes");
            assertEquals(costs.get("element").get("khop2").results(),
                    costs.get(mode).get("khop2").results(), "every mode gives the same answers");
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("MESSAGES mode=batched query=khop3 per_query="), out);
        assertTrue(out.contains("| query | element msgs | element bytes | batched msgs | batched bytes | pushed msgs | pushed bytes |"), out);
        assertTrue(out.contains("MESSAGES mode=pushed query=khop3 per_query="), out);
    }

    @Test
    void badArgumentsAreNamed() {
        assertMessage("option --nodes must be in [2, 16]: --nodes 1", "--nodes", "1");
        assertMessage("option --runs takes a number: --runs many", "--runs", "many");
        assertMessage("option --edges needs a value", "--edges");
        assertMessage("unknown dataset: --dataset twitter", "--dataset", "twitter");
        assertMessage("unknown option: --latency", "--latency", "20");
    }

    private static void assertMessage(String part, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LbvMessages.Options.parse(args));
        assertTrue(e.getMessage().contains(part), e.getMessage() + " lacks " + part);
    }
}
