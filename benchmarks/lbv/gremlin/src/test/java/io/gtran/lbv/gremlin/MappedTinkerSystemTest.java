package io.gtran.lbv.gremlin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.LbvSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract over TinkerTransactionGraph with graph-assigned ids (batches of 5, so loading commits many times). */
class MappedTinkerSystemTest extends GremlinSystemContract {
    @Override
    protected LbvSystem open() {
        return new MappedTinkerSystem(Map.of(GremlinSystem.BATCH, "5"));
    }

    @Test
    void loadingCommitsABatchAtATimeAndAllVerticesBeforeEdges() {
        List<long[]> progress = new ArrayList<>();
        try (LbvSystem system = open()) {
            system.load(new TinySocialDataset(), (v, e) -> progress.add(new long[] {v, e}));
            assertEquals(List.of("5/0", "10/0", "15/0", "16/0", "16/5", "16/10", "16/15", "16/20", "16/25", "16/28"),
                    progress.stream().map(p -> p[0] + "/" + p[1]).toList());
            assertThrows(IllegalStateException.class, () -> system.load(new TinySocialDataset(), (v, e) -> { }),
                    "one dataset per system");
            assertEquals(1, system.execute(LbvQuery.Q14, vertex(15)), "ids recorded for the last, partial batch");
            assertEquals(1, system.execute(LbvQuery.Q15, edge(27)));
        }
    }

    @Test
    void badOptionsAreRefusedByName() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> new MappedTinkerSystem(Map.of("isolaton", "SR")));
        assertTrue(unknown.getMessage().contains("isolaton=SR"), unknown.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> new MappedTinkerSystem(Map.of(GremlinSystem.BATCH, "0")));
        assertTrue(bad.getMessage().contains("batch=0"), bad.getMessage());
    }
}
