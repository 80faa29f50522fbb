package io.gtran.rdma.disni;

import com.ibm.disni.verbs.RdmaProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Whether this JVM can run the RDMA transport ({@link DisniFabric}), and if not, exactly what is
 * missing and how to install it. Usable on any machine: it never needs a device, never lets an
 * {@link UnsatisfiedLinkError} escape and never crashes the JVM.
 *
 * <p>The checks, in the order their message lists them (each names the first real missing piece
 * of its layer, so a machine missing several things gets one line for each, foundation first):
 * <ol>
 *   <li>an RDMA device: {@code /sys/class/infiniband} exists and lists at least one device, and at
 *       least one of its ports is {@code ACTIVE} when the kernel reports port states;
 *   <li>the RDMA connection manager's character device {@code /dev/infiniband/rdma_cm} (module
 *       {@code rdma_ucm});
 *   <li>the native library {@code libdisni} loads, with the JNI version DiSNI 2.0 expects (loading it
 *       also needs {@code libibverbs} and {@code librdmacm});
 *   <li>the JVM exports {@code java.base/sun.nio.ch} to DiSNI, which reads direct-buffer addresses
 *       through {@code sun.nio.ch.DirectBuffer}.
 * </ol>
 * Every message points at {@code deploy/rdma.md}.
 */
final class RdmaSupport {
    /** Where the kernel lists RDMA devices. */
    public static final Path SYSFS_INFINIBAND = Path.of("/sys/class/infiniband");
    /** The RDMA connection manager's character device. */
    public static final Path DEV_RDMA_CM = Path.of("/dev/infiniband/rdma_cm");
    /** The document every message points at. */
    public static final String GUIDE = "deploy/rdma.md";

    private static final String DEVICE_FIX = "the kernel needs its InfiniBand/RDMA modules (ib_core, rdma_ucm and a"
            + " device driver such as mlx5_ib, or rdma_rxe for Soft-RoCE: `modprobe rdma_rxe; rdma link add rxe0 type rxe"
            + " netdev eth0`) and user space needs libibverbs and librdmacm (Debian/Ubuntu: rdma-core ibverbs-providers"
            + " libibverbs1 librdmacm1)";
    private static final String LIBRARY_FIX = "build libdisni from github.com/zrlio/disni (in libdisni/: ./autoprepare.sh;"
            + " ./configure --with-jdk=$JAVA_HOME; make install) and put its directory on java.library.path or"
            + " LD_LIBRARY_PATH";

    private static volatile String libraryProblem; // memoised: a JVM loads a native library once

    private RdmaSupport() {
    }

    /**
     * The outcome of {@link #check()}.
     *
     * @param available whether {@link DisniFabric#start} can work here
     * @param message what was found, or every missing piece with how to fix it
     * @param devices the RDMA devices the kernel lists (may be non-empty when something else is missing)
     */
    public record Status(boolean available, String message, List<String> devices) {
        public Status {
            devices = List.copyOf(devices);
        }
    }

    /** Checks this machine and JVM; see the class comment. */
    public static Status check() {
        return check(SYSFS_INFINIBAND, DEV_RDMA_CM, RdmaSupport::libraryProblem);
    }

    /**
     * Throws unless {@link #check()} finds everything in place.
     *
     * @throws IllegalStateException with {@link Status#message()}
     */
    public static void requireAvailable() {
        Status status = check();
        if (!status.available()) {
            throw new IllegalStateException(status.message());
        }
    }

    /**
     * {@link #check()} against other places, for tests.
     *
     * @param sysfs stands for {@code /sys/class/infiniband}
     * @param rdmaCm stands for {@code /dev/infiniband/rdma_cm}
     * @param library null if the native library loads, otherwise what went wrong
     */
    static Status check(Path sysfs, Path rdmaCm, Supplier<String> library) {
        List<String> missing = new ArrayList<>();
        List<String> devices = devices(sysfs);
        if (devices.isEmpty()) {
            missing.add("no RDMA device: " + sysfs + (Files.isDirectory(sysfs) ? " lists no device" : " is missing")
                    + "; " + DEVICE_FIX);
        } else {
            List<String> ports = portStates(sysfs, devices);
            if (!ports.isEmpty() && ports.stream().noneMatch(state -> state.endsWith("ACTIVE"))) {
                missing.add("no ACTIVE port on the RDMA devices " + devices + " (" + String.join(", ", ports)
                        + "); bring the link up (cable, switch, `ip link set <netdev> up`) and check with `ibv_devinfo`"
                        + " and `rdma link`");
            }
        }
        if (!Files.exists(rdmaCm)) {
            missing.add("no RDMA connection manager device: " + rdmaCm + " is missing; load the rdma_ucm module"
                    + " (`modprobe rdma_ucm`)");
        } else if (!Files.isReadable(rdmaCm) || !Files.isWritable(rdmaCm)) {
            missing.add("no access to " + rdmaCm + " for this user; grant read/write access (udev rule or group"
                    + " `rdma`)");
        }
        String libraryFailure = library.get();
        if (libraryFailure != null) {
            missing.add("native library libdisni cannot be loaded (" + libraryFailure + "); " + LIBRARY_FIX);
        }
        if (!Object.class.getModule().isExported("sun.nio.ch", RdmaSupport.class.getModule())) {
            missing.add("the JVM does not export java.base/sun.nio.ch to DiSNI; start it with"
                    + " --add-exports=java.base/sun.nio.ch=ALL-UNNAMED (bin/gtran jvm-flags prints it)");
        }
        if (missing.isEmpty()) {
            return new Status(true, "RDMA transport available: devices=" + devices, devices);
        }
        StringBuilder message = new StringBuilder("RDMA transport (DiSNI) unavailable, see " + GUIDE + ":");
        for (int i = 0; i < missing.size(); i++) {
            message.append("\n  ").append(i + 1).append(". ").append(missing.get(i));
        }
        return new Status(false, message.toString(), devices);
    }

    /** The device names under {@code sysfs}, sorted; empty if it is missing or unreadable. */
    static List<String> devices(Path sysfs) {
        List<String> names = new ArrayList<>();
        if (!Files.isDirectory(sysfs)) {
            return names;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(sysfs)) {
            entries.forEach(entry -> names.add(entry.getFileName().toString()));
        } catch (IOException | SecurityException e) {
            return List.of();
        }
        names.sort(null);
        return names;
    }

    /** {@code "dev/port: STATE"} for every port whose state file is readable (sysfs holds e.g. {@code "4: ACTIVE"}). */
    private static List<String> portStates(Path sysfs, List<String> devices) {
        List<String> states = new ArrayList<>();
        for (String device : devices) {
            Path ports = sysfs.resolve(device).resolve("ports");
            if (!Files.isDirectory(ports)) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(ports)) {
                for (Path port : entries) {
                    Path state = port.resolve("state");
                    if (Files.isReadable(state)) {
                        String text = new String(Files.readAllBytes(state), StandardCharsets.US_ASCII).trim();
                        int colon = text.indexOf(':');
                        states.add(device + "/" + port.getFileName() + ": " + text.substring(colon + 1).trim());
                    }
                }
            } catch (IOException | SecurityException e) {
                // unreadable port states: the device check alone decides
            }
        }
        states.sort(null);
        return states;
    }

    /** Null if DiSNI's provider (and with it libdisni) loads, otherwise why not. */
    private static String libraryProblem() {
        String known = libraryProblem;
        if (known == null) {
            known = probeLibrary();
            libraryProblem = known;
        }
        return known.isEmpty() ? null : known;
    }

    /** Loads DiSNI's native provider the way DiSNI itself does; "" if it loaded. */
    private static String probeLibrary() {
        try {
            RdmaProvider.provider(); // NativeDispatcher's static block: System.loadLibrary("disni"), then a version check
            return "";
        } catch (UnsatisfiedLinkError e) {
            return "UnsatisfiedLinkError: " + e.getMessage(); // names java.library.path, or the missing libibverbs
        } catch (NoClassDefFoundError | ExceptionInInitializerError e) {
            // the native dispatcher failed to initialise in an earlier attempt in this JVM
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        } catch (IOException e) {
            return "libdisni loaded but does not match DiSNI 2.0 (" + e.getMessage() + "); rebuild libdisni from the 2.0"
                    + " sources";
        } catch (RuntimeException e) {
            return e.toString();
        }
    }
}
