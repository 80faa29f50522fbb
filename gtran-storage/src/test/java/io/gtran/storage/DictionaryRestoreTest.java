package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** A dictionary given back its ids after a restart ({@link Dictionary#restore}), and told of new ones ({@link Dictionary#onNewId}). */
class DictionaryRestoreTest {
    private final Dictionary labels = new Dictionary("label", "gtran.test.labels-max", 100);
    /** What the listener heard, as "id=name". */
    private final List<String> heard = new ArrayList<>();

    private static void assertRefused(Class<? extends RuntimeException> type, Executable call, String... parts) {
        RuntimeException e = assertThrows(type, call);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }

    @Test
    void restoredIdsHoldInAnyOrderAndNewNamesTakeTheIdAfterTheHighest() {
        labels.restore(7, "seven");
        labels.restore(2, "two");
        labels.restore(0, "zero");
        assertEquals(7, labels.intern("seven"));
        assertEquals(2, labels.find("two"));
        assertEquals("zero", labels.name(0));
        assertEquals(8, labels.intern("new"));
        assertEquals(List.of("zero", "two", "seven", "new"), labels.names());
        assertEquals(4, labels.size());
    }

    @Test
    void idsNeverRestoredStayUnknown() {
        labels.restore(5, "five");
        assertFalse(labels.knows(3));
        assertThrows(IllegalArgumentException.class, () -> labels.name(3));
        labels.restore(3, "three"); // a gap may be filled later
        assertEquals("three", labels.name(3));
        assertEquals(6, labels.intern("six"), "still after the highest");
    }

    @Test
    void restoringANameWithTheIdItHasChangesNothing() {
        labels.restore(1, "one");
        labels.restore(1, "one");
        assertEquals(1, labels.size());
        assertEquals(2, labels.intern("two"));
    }

    @Test
    void conflictingRestoresAreRefusedNamingTheConflict() {
        labels.restore(1, "one");
        assertRefused(IllegalArgumentException.class, () -> labels.restore(2, "one"), "'one'", "id 2", "has id 1");
        assertRefused(IllegalArgumentException.class, () -> labels.restore(1, "uno"), "'uno'", "id 1", "'one'");
        assertRefused(IllegalArgumentException.class, () -> labels.restore(-1, "minus"), "id -1");
        assertRefused(IllegalArgumentException.class, () -> labels.restore(100, "hundred"), "id 100", "gtran.test.labels-max=100");
        labels.restore(99, "last");
        assertEquals(List.of("one", "last"), labels.names(), "a refused restore records nothing");
        assertThrows(StoreCapacityException.class, () -> labels.intern("more"));
    }

    @Test
    void aDictionaryWithAnAuthorityRestoresTheIdsTheAuthorityGaveWithoutAskingIt() {
        Dictionary truth = new Dictionary("label", "k", 100);
        truth.intern("x");
        truth.intern("y");
        List<String> asked = new ArrayList<>();
        labels.useAuthority((name, create) -> {
            asked.add(name);
            return truth.answer(name, create);
        });
        labels.restore(1, "y");
        assertEquals(1, labels.intern("y"));
        assertEquals(0, labels.intern("x"));
        assertEquals(List.of("x"), asked, "a restored name is known here; another is asked for");
        assertRefused(IllegalArgumentException.class, () -> labels.restore(1, "z"), "'y'");
    }

    @Test
    void theListenerHearsEachNewIdInOrderButNeitherRestoresNorKnownNames() {
        labels.restore(3, "three");
        labels.onNewId((id, name) -> heard.add(id + "=" + name));
        labels.intern("a");
        labels.intern("three");
        labels.answer("b", true);
        labels.intern("a");
        labels.restore(10, "ten");
        labels.find("c");
        labels.intern("c");
        assertEquals(List.of("4=a", "5=b", "11=c"), heard);
    }

    @Test
    void theListenerHearsTheIdTheAuthorityGave() {
        Dictionary truth = new Dictionary("label", "k", 100);
        truth.intern("x");
        truth.intern("y");
        labels.useAuthority(truth::answer);
        labels.onNewId((id, name) -> heard.add(id + "=" + name));
        labels.intern("y");
        labels.find("x");
        labels.intern("z");
        assertEquals(List.of("1=y", "0=x", "2=z"), heard);
    }

    @Test
    void aNameWhoseListenerCallFailsGetsNoId() {
        labels.onNewId((id, name) -> {
            if (name.equals("bad")) {
                throw new IllegalStateException("log unavailable");
            }
            heard.add(id + "=" + name);
        });
        assertThrows(IllegalStateException.class, () -> labels.intern("bad"));
        assertEquals(Dictionary.ABSENT, labels.find("bad"));
        assertEquals(0, labels.intern("good"), "the id was not used up");
        assertEquals(List.of("0=good"), heard);
    }

    @Test
    void theListenerIsSetOnce() {
        labels.onNewId((id, name) -> { });
        assertRefused(IllegalStateException.class, () -> labels.onNewId((id, name) -> { }), "label dictionary");
        assertThrows(IllegalArgumentException.class, () -> new Dictionary("label", "k", 1).onNewId(null));
    }
}
