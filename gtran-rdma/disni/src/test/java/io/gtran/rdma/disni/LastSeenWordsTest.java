package io.gtran.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The first guess of a long write's compare-and-swap loop; no device needed. */
class LastSeenWordsTest {
    @Test
    void theFirstGuessIsTheLastValueSeenAtTheWord() {
        LastSeenWords seen = new LastSeenWords();
        assertEquals(0, seen.guess(64), "nothing seen: 0, the value of a fresh region");
        seen.saw(64, 5);
        seen.saw(72, -1);
        assertEquals(5, seen.guess(64));
        assertEquals(-1, seen.guess(72));
        seen.saw(64, 6);
        assertEquals(6, seen.guess(64));
    }

    @Test
    void aWordThatSharesAnEntryWithAnotherIsNotGivenItsValue() {
        LastSeenWords seen = new LastSeenWords();
        long other = 64 + LastSeenWords.ENTRIES * 8L;
        seen.saw(64, 5);
        seen.saw(other, 7);
        assertEquals(7, seen.guess(other));
        assertEquals(0, seen.guess(64), "evicted: back to guessing 0");
    }
}
