package io.gtran.txn;

import io.gtran.rdma.Fabric;
import io.gtran.txn.agent.TimeSource;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Faults and wall-clock steering injected into one node from outside, for fault testing a deployed
 * cluster: the seam through which {@link GtranNode#open(Map)} reaches the test harness. Production
 * code never names an implementation; one is found with {@link ServiceLoader} (a {@link Provider}
 * registered in {@code META-INF/services}), and only when {@value #CONTROL} is set. The
 * implementation is the {@code gtran-check} module's ({@code io.gtran.check.faults.FaultControl}: a
 * control file the node polls); without that module on the class path the setting fails the open.
 *
 * <p>Life cycle: {@link Provider#open} reads the control once; the node wraps its fabric
 * ({@link #wrap}), reads time through {@link #time}, {@link #start}s the faults once it is wired
 * and {@link #close}s them first when it closes (or when its open fails).
 */
public interface NodeFaults extends AutoCloseable {
    /** The fault control's path; only on a node of a networked fabric ({@code gtran.fabric.*}), one node per process. */
    String CONTROL = "gtran.faults.control";
    /** Every fault setting starts with this; {@link #CONTROL} is the only one. */
    String PREFIX = "gtran.faults.";
    /** Where the implementation lives, for the error when it is missing. */
    String MODULE = "gtran-check";

    /** {@code fabric} wrapped so that the faults in force apply to what the node sends and reads remotely. */
    Fabric wrap(Fabric fabric);

    /** The node's time: the wall clock as the faults steer it. */
    TimeSource time();

    /** The wall clock offset injected now, in milliseconds. */
    long clockOffsetMillis();

    /** Starts following the control (the node is wired and running). */
    void start();

    /** Stops following the control and lifts every fault; never throws. */
    @Override
    void close();

    /** Makes a node's {@link NodeFaults}; registered for {@link ServiceLoader} by the harness module. */
    interface Provider {
        /**
         * The faults of node {@code node}, steered by {@code control}, over the wall clock {@code wall};
         * a cut lasting {@code lostAfterMs} (the fabric's peer-loss bound) is reported as a loss.
         */
        NodeFaults open(Path control, int node, TimeSource wall, long lostAfterMs);
    }

    /**
     * The control's path from {@code settings}, or null without {@link #CONTROL}.
     *
     * @throws IllegalArgumentException naming the key for an unknown {@code gtran.faults.*} key or an empty path
     */
    static Path path(Map<String, ?> settings) {
        for (Map.Entry<String, ?> e : settings.entrySet()) {
            if (e.getKey().startsWith(PREFIX) && !e.getKey().equals(CONTROL)) {
                throw new IllegalArgumentException("unknown configuration key: " + e.getKey() + "=" + e.getValue()
                        + "; known keys: [" + CONTROL + "]");
            }
        }
        Object raw = settings.get(CONTROL);
        if (raw == null) {
            return null;
        }
        String text = String.valueOf(raw).trim();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("configuration " + CONTROL + " is empty: " + CONTROL + "=" + raw);
        }
        return Path.of(text);
    }

    /** Refuses {@link #CONTROL} on a node that is not on a networked fabric of its own. */
    static void refuse(Map<String, ?> settings, String fabric) {
        if (path(settings) != null) {
            throw new IllegalArgumentException("a fault control file for a node on " + fabric + ": " + CONTROL + "="
                    + settings.get(CONTROL) + "; " + CONTROL + " is for a node on a networked fabric (gtran.fabric.*),"
                    + " one node per process; in one JVM use a FaultPlan");
        }
    }

    /**
     * The provider on the class path, for a node whose settings give {@code control}.
     *
     * @throws IllegalArgumentException naming {@link #CONTROL} if no provider is on the class path
     */
    static Provider provider(Path control) {
        Iterator<Provider> found = ServiceLoader.load(Provider.class, NodeFaults.class.getClassLoader()).iterator();
        if (!found.hasNext()) {
            throw new IllegalArgumentException("configuration " + CONTROL + "=" + control + " needs fault injection, which"
                    + " is in the " + MODULE + " module: none is on the class path (no " + Provider.class.getName()
                    + " service); put " + MODULE + " on the node's class path or remove " + CONTROL);
        }
        return found.next();
    }
}
