package io.gtran.check.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One node of a hosts file: {@code id host gremlin_port fabric_port [user]}, whitespace separated,
 * one a line, {@code #} starting a comment. The id is the node's {@code gtran.storage.node-id}, the
 * owner field of its element ids.
 */
record Host(int id, String host, int gremlinPort, int fabricPort, String user) {
    /** The hosts of {@code file}, in file order; ids must be distinct and non-negative. */
    static List<Host> read(Path file) throws IOException {
        List<Host> hosts = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        int number = 0;
        for (String raw : Files.readAllLines(file)) {
            number++;
            int hash = raw.indexOf('#');
            String line = (hash < 0 ? raw : raw.substring(0, hash)).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length < 4 || f.length > 5) {
                throw new IllegalArgumentException("--hosts " + file + " line " + number
                        + ": expected 'id host gremlin_port fabric_port [user]': " + raw);
            }
            Host h = new Host(field(file, number, "id", f[0], 0, 1023), f[1], field(file, number, "gremlin_port", f[2], 1, 65535),
                    field(file, number, "fabric_port", f[3], 1, 65535), f.length == 5 ? f[4] : "");
            if (!ids.add(h.id())) {
                throw new IllegalArgumentException("--hosts " + file + " line " + number + ": node id " + h.id() + " twice");
            }
            hosts.add(h);
        }
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("--hosts " + file + " names no node");
        }
        return hosts;
    }

    private static int field(Path file, int line, String name, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--hosts " + file + " line " + line + ": " + name + " must be an integer in ["
                + min + ", " + max + "]: " + value);
    }

    @Override
    public String toString() {
        return "node" + id + "@" + host + ":" + gremlinPort;
    }
}
