package io.gtran.check.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The fault control file's format: what each key takes, and the line each mistake is reported on. */
class FaultRulesTest {
    private static final int SELF = 0;

    @Test
    void everyKeyIsRead() {
        FaultRules rules = FaultRules.parse("""
                # a partition and a slow, lossy link
                cut=2            # one-sided: what node 0 sends
                delay-to=1,3
                delay-ms=20-80
                loss=0.05

                seed=7
                clock-offset-ms=-2000
                """, SELF);
        assertEquals(new TreeSet<>(Set.of(2)), rules.cut());
        assertEquals(new TreeSet<>(Set.of(1, 3)), rules.delayTo());
        assertEquals(20, rules.delayMinMs());
        assertEquals(80, rules.delayMaxMs());
        assertEquals(0.05, rules.loss());
        assertEquals(7, rules.seed());
        assertEquals(-2000, rules.clockOffsetMs());
        assertEquals("cut=[2] delay-to=[1, 3] delay-ms=20-80 loss=0.05 seed=7 clock-offset-ms=-2000", rules.describe());
    }

    @Test
    void anEmptyFileAndEmptyListsMeanNoFaults() {
        assertEquals(FaultRules.NONE, FaultRules.parse("", SELF));
        assertEquals(FaultRules.NONE, FaultRules.parse("# nothing\n\n   \n", SELF));
        assertEquals(FaultRules.NONE, FaultRules.parse("cut=\ndelay-to=\r\n", SELF));
        FaultRules fixed = FaultRules.parse("delay-to=1\ndelay-ms=30", SELF);
        assertEquals(List.of(30L, 30L), List.of(fixed.delayMinMs(), fixed.delayMaxMs()), "N means N-N");
    }

    @Test
    void eachMalformedLineIsNamedWithWhatIsWrong() {
        assertMalformed("cut=1\nnonsense\n", 2, "not key=value");
        assertMalformed("cut=1\n\n# c\ncutt=2\n", 4, "unknown key: cutt=2");
        assertMalformed("cut=1\ncut=2\n", 2, "key given twice");
        assertMalformed("cut=1,x\n", 1, "cut=x");
        assertMalformed("cut=1,5000\n", 1, "cut=5000");
        assertMalformed("cut=0,1\n", 1, "names this node (0)");
        assertMalformed("delay-to=1\ndelay-ms=80-20\n", 2, "range is empty");
        assertMalformed("delay-to=1\ndelay-ms=-5\n", 2, "delay-ms=-5");
        assertMalformed("delay-to=1\ndelay-ms=ten\n", 2, "delay-ms=ten");
        assertMalformed("delay-to=1\ndelay-ms=99999999\n", 2, "delay-ms=99999999");
        assertMalformed("delay-to=1\nloss=1.5\n", 2, "not a probability");
        assertMalformed("delay-to=1\nloss=\n", 2, "not a probability");
        assertMalformed("seed=seven\n", 1, "seed=seven");
        assertMalformed("clock-offset-ms=1.5\n", 1, "clock-offset-ms=1.5");
        assertMalformed("cut=1\nloss=0.1\n", 2, "need delay-to");
        assertMalformed("delay-ms=5\n", 1, "need delay-to");
    }

    private static void assertMalformed(String text, int line, String problem) {
        FaultRules.Malformed e = assertThrows(FaultRules.Malformed.class, () -> FaultRules.parse(text, SELF), text);
        assertEquals(line, e.line, e.getMessage());
        assertTrue(e.getMessage().startsWith("line " + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage() + " should say " + problem);
    }
}
