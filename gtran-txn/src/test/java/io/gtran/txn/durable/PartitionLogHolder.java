package io.gtran.txn.durable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A process holding a {@link PartitionLog} open, for {@code PartitionLogDirectoryTest}: opens the
 * log in {@code args[0]}, prints {@link #OPEN}, and closes it once its standard input ends.
 */
public final class PartitionLogHolder {
    static final String OPEN = "PARTITION-LOG-OPEN";

    private PartitionLogHolder() {
    }

    public static void main(String[] args) throws IOException {
        try (PartitionLog log = PartitionLog.open(Path.of(args[0]), PartitionLogTest.IDENTITY, record -> { })) {
            System.out.println(OPEN);
            System.out.flush();
            while (System.in.read() >= 0) {
                // held until the parent closes our input (or dies)
            }
        }
    }
}
