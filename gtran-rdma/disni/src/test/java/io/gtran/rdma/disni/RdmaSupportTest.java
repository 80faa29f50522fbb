package io.gtran.rdma.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gtran.rdma.ClusterConfig;
import io.gtran.rdma.Fabrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RdmaSupport} on this machine, and against fake sysfs trees and library probes. */
class RdmaSupportTest {
    private static final ClusterConfig ONE_NODE = ClusterConfig.builder(0).transport(DisniFabricProvider.NAME)
            .nodes(List.of(new InetSocketAddress("127.0.0.1", 17099))).build();

    @TempDir
    Path dir;

    @Test
    void theCheckOnThisMachineNamesEveryMissingPieceAndHowToInstallIt() {
        RdmaSupport.Status status = RdmaSupport.check();
        if (status.available()) {
            assertTrue(status.message().startsWith("RDMA transport available"), status.message());
            assertFalse(status.devices().isEmpty());
            return;
        }
        assertHas(status.message(), RdmaSupport.GUIDE);
        if (!Files.isDirectory(RdmaSupport.SYSFS_INFINIBAND)) { // this workplace: no InfiniBand in the kernel
            assertHas(status.message(), "no RDMA device", "/sys/class/infiniband is missing", "rdma_rxe", "libibverbs",
                    "librdmacm");
        }
        if (!libraryLoads()) { // this workplace: no libdisni.so
            assertHas(status.message(), "libdisni cannot be loaded", "UnsatisfiedLinkError", "github.com/zrlio/disni",
                    "--with-jdk", "LD_LIBRARY_PATH");
        }
    }

    @Test
    void startingWithoutRdmaThrowsTheCheckMessageNotAnUnsatisfiedLinkError() {
        RdmaSupport.Status status = RdmaSupport.check();
        Assumptions.assumeFalse(status.available(), "RDMA is available here");
        IllegalStateException direct = assertThrows(IllegalStateException.class, () -> DisniFabric.start(ONE_NODE));
        assertEquals(status.message(), direct.getMessage());
        IllegalStateException viaProvider = assertThrows(IllegalStateException.class, () -> Fabrics.start(ONE_NODE));
        assertEquals(status.message(), viaProvider.getMessage(), "transport 'rdma' is found through the service loader");
        assertEquals(status.message(), assertThrows(IllegalStateException.class, RdmaSupport::requireAvailable).getMessage());
        assertEquals(status, RdmaSupport.check(), "checking again (library already tried) says the same");
    }

    @Test
    void aMissingSysfsDirectoryMeansNoDevice() {
        RdmaSupport.Status status = RdmaSupport.check(dir.resolve("infiniband"), rdmaCm(), () -> null);
        assertFalse(status.available());
        assertHas(status.message(), "1. no RDMA device: " + dir.resolve("infiniband") + " is missing", "ib_core",
                "rdma_ucm", "rdma_rxe", "rdma-core", RdmaSupport.GUIDE);
        assertFalse(status.message().contains("2."), "only the device is missing: " + status.message());
        assertEquals(List.of(), status.devices());
    }

    @Test
    void anEmptySysfsDirectoryMeansNoDevice() throws IOException {
        Path sysfs = Files.createDirectory(dir.resolve("infiniband"));
        RdmaSupport.Status status = RdmaSupport.check(sysfs, rdmaCm(), () -> null);
        assertFalse(status.available());
        assertHas(status.message(), "no RDMA device: " + sysfs + " lists no device");
    }

    @Test
    void aDeviceWithAnActivePortTheCmDeviceAndTheLibraryAreEnough() throws IOException {
        Path sysfs = device("rxe0", "4: ACTIVE");
        device("mlx5_0", "1: DOWN");
        RdmaSupport.Status status = RdmaSupport.check(sysfs, rdmaCm(), () -> null);
        assertTrue(status.available(), status.message());
        assertEquals(List.of("mlx5_0", "rxe0"), status.devices());
        assertHas(status.message(), "available", "rxe0");
    }

    @Test
    void aDeviceWhosePortsAreAllDownIsNotEnough() throws IOException {
        Path sysfs = device("rxe0", "1: DOWN");
        RdmaSupport.Status status = RdmaSupport.check(sysfs, rdmaCm(), () -> null);
        assertFalse(status.available());
        assertHas(status.message(), "no ACTIVE port", "rxe0/1: DOWN", "ibv_devinfo", "rdma link");
        assertEquals(List.of("rxe0"), status.devices());
    }

    @Test
    void aMissingLibraryIsNamedWithTheLoaderErrorWhenTheDeviceIsThere() throws IOException {
        Path sysfs = device("rxe0", "4: ACTIVE");
        RdmaSupport.Status status = RdmaSupport.check(sysfs, rdmaCm(),
                () -> "UnsatisfiedLinkError: no disni in java.library.path: /usr/lib");
        assertFalse(status.available());
        assertHas(status.message(), "1. native library libdisni cannot be loaded (UnsatisfiedLinkError: no disni in"
                + " java.library.path: /usr/lib)", "autoprepare.sh", "make install", "java.library.path");
        assertFalse(status.message().contains("no RDMA device"), status.message());
    }

    @Test
    void everyMissingPieceIsListedFoundationFirst() {
        RdmaSupport.Status status = RdmaSupport.check(dir.resolve("none"), dir.resolve("rdma_cm"), () -> "not loadable");
        String message = status.message();
        int device = message.indexOf("1. no RDMA device");
        int cm = message.indexOf("2. no RDMA connection manager device");
        int library = message.indexOf("3. native library libdisni");
        assertTrue(device > 0 && cm > device && library > cm, message);
        assertHas(message, "modprobe rdma_ucm");
    }

    private Path device(String name, String portState) throws IOException {
        Path sysfs = dir.resolve("infiniband");
        Path port = Files.createDirectories(sysfs.resolve(name).resolve("ports").resolve("1"));
        Files.writeString(port.resolve("state"), portState + "\n");
        return sysfs;
    }

    private Path rdmaCm() {
        try {
            Path cm = dir.resolve("rdma_cm");
            return Files.exists(cm) ? cm : Files.createFile(cm);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean libraryLoads() {
        try {
            System.loadLibrary("disni");
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }

    private static void assertHas(String message, String... parts) {
        for (String part : parts) {
            if (!message.contains(part)) {
                fail("message lacks \"" + part + "\": " + message);
            }
        }
    }
}
