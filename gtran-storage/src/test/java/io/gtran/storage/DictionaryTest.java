package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A dictionary with an {@link Dictionary.Authority}: it takes the authority's ids, so its own are
 * sparse; the authority here is another dictionary (as on the cluster's authority node), counted.
 */
class DictionaryTest {
    private final Dictionary truth = new Dictionary("label", "gtran.test.labels-max", 100);
    private final AtomicInteger asked = new AtomicInteger();
    private final Dictionary.Authority authority = (name, create) -> {
        asked.incrementAndGet();
        return truth.answer(name, create);
    };

    private Dictionary withAuthority(int max) {
        Dictionary d = new Dictionary("label", "gtran.test.labels-max", max);
        d.useAuthority(authority);
        return d;
    }

    @Test
    void takesTheAuthoritysIdsAndKnowsOnlyWhatItWasAskedAbout() {
        truth.intern("a");
        truth.intern("b");
        truth.intern("c");
        Dictionary d = withAuthority(100);
        assertEquals(2, d.intern("c"));
        assertEquals(1, d.size());
        assertEquals("c", d.name(2));
        assertThrows(IllegalArgumentException.class, () -> d.name(0), "id 0 is not known here");
        assertTrue(d.knows(2));
        assertFalse(d.knows(0), "a gap");
        assertFalse(d.knows(1000));
        assertEquals(3, d.intern("d"));
        assertEquals(3, truth.find("d"), "a name new to the cluster is interned at the authority");
        assertEquals(List.of("c", "d"), d.names());
    }

    @Test
    void namesAreInIdOrderNotInTheOrderLearnt() {
        for (int i = 0; i < 40; i++) {
            truth.intern("n" + i);
        }
        Dictionary d = withAuthority(100);
        d.intern("n37");
        d.intern("n3");
        d.intern("n20");
        assertEquals(List.of("n3", "n20", "n37"), d.names());
        assertEquals("n37", d.name(37), "the table grew to hold id 37");
    }

    @Test
    void asksOnlyOnAMissAndFindsWithoutCreating() {
        Dictionary d = withAuthority(100);
        int id = d.intern("x");
        d.intern("x");
        assertEquals(1, asked.get(), "a known name is not asked again");
        assertEquals(Dictionary.ABSENT, d.find("never"));
        assertEquals(Dictionary.ABSENT, d.find("never"));
        assertEquals(3, asked.get(), "an unknown name is asked each time");
        assertEquals(Dictionary.ABSENT, truth.find("never"), "find does not intern at the authority");
        assertEquals(1, d.size());

        truth.intern("y");
        Dictionary other = withAuthority(100);
        assertEquals(id, other.find("x"));
        assertEquals(truth.find("y"), other.find("y"));
        assertEquals(List.of("x", "y"), other.names(), "what find learnt is recorded here");
    }

    @Test
    void theCapacityAppliesToTheId() {
        for (int i = 0; i < 5; i++) {
            truth.intern("n" + i);
        }
        Dictionary d = withAuthority(3);
        assertEquals(2, d.intern("n2"));
        StoreCapacityException e = assertThrows(StoreCapacityException.class, () -> d.intern("n4"));
        assertTrue(e.getMessage().contains("capacity=3") && e.getMessage().contains("'n4'")
                && e.getMessage().contains("gtran.test.labels-max"), e.getMessage());
        assertEquals(List.of("n2"), d.names(), "a failed intern leaves nothing");
        assertEquals(1, d.size());
    }

    @Test
    void theAuthorityIsSetOnceBeforeFirstUse() {
        Dictionary d = withAuthority(100);
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> d.useAuthority(authority));
        assertTrue(twice.getMessage().contains("label dictionary"), twice.getMessage());

        Dictionary used = new Dictionary("property key", "k", 100);
        used.intern("p");
        IllegalStateException late = assertThrows(IllegalStateException.class, () -> used.useAuthority(authority));
        assertTrue(late.getMessage().contains("property key dictionary"), late.getMessage());
        assertEquals(0, used.intern("p"), "a refused authority changes nothing");
    }

    @Test
    void aFailingAuthorityLeavesNothingRecorded() {
        Dictionary d = new Dictionary("label", "k", 100);
        d.useAuthority((name, create) -> {
            throw new IllegalStateException("authority unreachable");
        });
        assertThrows(IllegalStateException.class, () -> d.intern("x"));
        assertEquals(0, d.size());
        assertEquals(List.of(), d.names());
    }
}
