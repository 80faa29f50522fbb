package io.gtran.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettingsTest {
    private static final Set<String> KNOWN = Set.of("gtran.x.size", "gtran.x.flag");

    @Test
    void valuesMayBeTypedOrStringsAndEveryOneReadIsKept() {
        Settings settings = Settings.of(Map.of("gtran.x.size", "1_000", "gtran.x.flag", "TRUE", "other.key", "whatever"),
                "gtran.x.", KNOWN);
        assertEquals(1000, settings.integer("gtran.x.size", 5, 1, 2000));
        assertTrue(settings.bool("gtran.x.flag", false));
        assertEquals(7L, Settings.of(Map.of("gtran.x.size", 7L), "gtran.x.", KNOWN).longValue("gtran.x.size", 1, 0, 9));
        assertEquals(Map.of("gtran.x.size", 1000, "gtran.x.flag", true), settings.effective());
        assertEquals(3, Settings.of(Map.of(), "gtran.x.", KNOWN).integer("gtran.x.size", 3, 1, 9), "the default when absent");
    }

    @Test
    void anUnknownKeyIsNamedWithTheNearestKnownOne() {
        IllegalArgumentException typo = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("gtran.x.sise", 4), "gtran.x.", KNOWN));
        assertTrue(typo.getMessage().startsWith("unknown configuration key: gtran.x.sise=4; did you mean gtran.x.size?"),
                typo.getMessage());
        IllegalArgumentException far = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("gtran.x.nothing-like-it", 4), "gtran.x.", KNOWN));
        assertFalse(far.getMessage().contains("did you mean"), far.getMessage());
        assertTrue(far.getMessage().contains("known keys: [gtran.x.flag, gtran.x.size]"), far.getMessage());
    }

    @Test
    void badValuesAreRefusedNamingKeyAndValue() {
        assertMessage("configuration gtran.x.size must be an integer: gtran.x.size=1.5", Map.of("gtran.x.size", "1.5"));
        assertMessage("must be an integer: gtran.x.size=1.5 (Double)", Map.of("gtran.x.size", 1.5));
        assertMessage("must be an integer: gtran.x.size=2.5 (BigDecimal)", Map.of("gtran.x.size", new BigDecimal("2.5")));
        assertMessage("out of range [1, 10]: gtran.x.size=11", Map.of("gtran.x.size", 11));
        assertMessage("out of range", Map.of("gtran.x.size", BigInteger.TWO.pow(70)));
        IllegalArgumentException flag = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(Map.of("gtran.x.flag", "yes"), "gtran.x.", KNOWN).bool("gtran.x.flag", false));
        assertEquals("configuration gtran.x.flag must be true or false: gtran.x.flag=yes", flag.getMessage());
    }

    private static void assertMessage(String part, Map<String, ?> raw) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Settings.of(raw, "gtran.x.", KNOWN).integer("gtran.x.size", 1, 1, 10));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
