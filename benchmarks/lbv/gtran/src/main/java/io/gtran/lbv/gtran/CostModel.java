package io.gtran.lbv.gtran;

import io.gtran.lbv.LbvQuery;
import io.gtran.lbv.QueryMix;
import io.gtran.lbv.Workload;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A cost model that projects LBV throughput from a few measured inputs to a cluster of N machines
 * (docs/cost-model.md). Pure arithmetic: {@link CostInputs} measures the inputs on this machine,
 * {@link CostModelMain} prints the projection.
 *
 * <p>For query type q, measured on {@code measuredNodes} nodes (3), the model takes its CPU time on
 * one node {@code cpu[q]}, its messages {@code m[q]}, bytes {@code b[q]} and sequential round trips
 * on its critical path {@code rt[q]}, and for N nodes:
 * <ol>
 *   <li>scales messages, bytes and round trips by {@link #messageScale} and {@link #roundTripScale}:
 *       a query that fans out to every member (Q11, Q12 index look-ups, Q13 label scan) sends
 *       {@code (N-1)/(n-1)} times the messages, over the same round trips (in parallel); any other
 *       query touches few elements, each remote with probability {@code (N-1)/N}, so its messages
 *       and round trips scale by {@code ((N-1)/N) / ((n-1)/n)};
 *   <li>weights the query types by the workload (reads equally likely among the read queries,
 *       writes among the write queries, as {@link QueryMix} draws them):
 *       {@code D = Σ w[q] (cpu[q] + m_N[q] c)}, CPU µs per query over the whole cluster, with
 *       {@code c} the link's CPU µs per message (both ends);
 *       {@code R = Σ w[q] (cpu[q] + m_N[q] c + rt_N[q] RTT)}, µs per query for one client;
 *   <li>bounds attempts per second three ways (asymptotic bounds of a closed system):
 *       CPU {@code N cores U / D}; latency {@code N clients / R}; bandwidth {@code N B / bytes_N};
 *       attempts = the least, committed = attempts (1 - abort rate).
 * </ol>
 */
final class CostModel {
    /** Queries that visit every member: the index look-ups and the label scan. */
    static final List<LbvQuery> FAN_OUT = List.of(LbvQuery.Q11, LbvQuery.Q12, LbvQuery.Q13);

    private CostModel() {
    }

    /**
     * One query type measured.
     *
     * @param cpuUs      CPU µs of one run on one node (no messages)
     * @param messages   messages between nodes per run, on the measured cluster
     * @param bytes      their payload bytes per run
     * @param roundTrips sequential round trips on the run's critical path, on the measured cluster
     */
    record QueryCost(LbvQuery query, double cpuUs, double messages, double bytes, double roundTrips) {
        QueryCost {
            Objects.requireNonNull(query, "query");
            if (cpuUs < 0 || messages < 0 || bytes < 0 || roundTrips < 0) {
                throw new IllegalArgumentException("costs are not negative: query=" + query + " cpuUs=" + cpuUs
                        + " messages=" + messages + " bytes=" + bytes + " roundTrips=" + roundTrips);
            }
        }
    }

    /**
     * A link between machines.
     *
     * @param rttUs          one request/response round trip, µs
     * @param cpuPerMessageUs CPU µs one message costs, sender and receiver together
     */
    record Link(String name, double rttUs, double cpuPerMessageUs) {
        Link {
            Objects.requireNonNull(name, "name");
            if (!(rttUs >= 0) || !(cpuPerMessageUs >= 0)) {
                throw new IllegalArgumentException("link costs are not negative: link=" + name + " rttUs=" + rttUs
                        + " cpuPerMessageUs=" + cpuPerMessageUs);
            }
        }
    }

    /**
     * The projected cluster.
     *
     * @param utilisation    share of each core the queries may use, (0, 1]
     * @param clientsPerNode closed-loop clients (transactions in flight) per machine
     * @param bandwidthGbps  each machine's link bandwidth, Gbit/s
     */
    record Cluster(int nodes, int cores, double utilisation, int clientsPerNode, double bandwidthGbps) {
        Cluster {
            if (nodes < 1 || cores < 1 || clientsPerNode < 1 || !(utilisation > 0 && utilisation <= 1) || !(bandwidthGbps > 0)) {
                throw new IllegalArgumentException("nodes, cores, clientsPerNode >= 1, utilisation in (0, 1], bandwidth > 0: nodes="
                        + nodes + " cores=" + cores + " clientsPerNode=" + clientsPerNode + " utilisation=" + utilisation
                        + " bandwidthGbps=" + bandwidthGbps);
            }
        }
    }

    /** Which bound set the throughput. */
    enum Bound { CPU, LATENCY, BANDWIDTH }

    /**
     * One projection.
     *
     * @param cpuUs      D: cluster CPU µs per query attempt, messages included
     * @param messages   messages per query at N nodes
     * @param bytes      bytes per query at N nodes
     * @param roundTrips round trips per query at N nodes
     * @param responseUs R: one client's µs per query
     */
    record Projection(int nodes, String link, Workload workload, String isolation, double cpuUs, double messages,
                      double bytes, double roundTrips, double responseUs, double cpuBound, double latencyBound,
                      double bandwidthBound, double attempts, double committed, Bound bound) {
    }

    /** Share of a query's elements on another node than the coordinator, elements placed uniformly over n nodes. */
    static double remoteFraction(int nodes) {
        return (nodes - 1) / (double) nodes;
    }

    /** Factor from messages on {@code measured} nodes to messages on {@code nodes}. */
    static double messageScale(LbvQuery query, int measured, int nodes) {
        checkMeasured(measured);
        if (FAN_OUT.contains(query)) {
            return (nodes - 1) / (double) (measured - 1); // one exchange with every other member
        }
        return remoteFraction(nodes) / remoteFraction(measured); // each element remote with probability (N-1)/N
    }

    /** Factor from round trips on {@code measured} nodes to round trips on {@code nodes}. */
    static double roundTripScale(LbvQuery query, int measured, int nodes) {
        checkMeasured(measured);
        if (FAN_OUT.contains(query)) {
            return nodes == 1 ? 0 : 1; // the members are asked in parallel: as many waits on any count of members
        }
        return remoteFraction(nodes) / remoteFraction(measured);
    }

    private static void checkMeasured(int measured) {
        if (measured < 2) {
            throw new IllegalArgumentException("messages are measured on at least 2 nodes: measured=" + measured);
        }
    }

    /** Each query type's share of a workload: readShare over the reads, the rest over the writes. */
    static Map<LbvQuery, Double> weights(Workload workload) {
        Map<LbvQuery, Double> weights = new EnumMap<>(LbvQuery.class);
        QueryMix.READS.forEach(q -> weights.put(q, workload.readShare() / QueryMix.READS.size()));
        QueryMix.WRITES.forEach(q -> weights.put(q, (1 - workload.readShare()) / QueryMix.WRITES.size()));
        return weights;
    }

    /**
     * Projects one workload on one cluster and link.
     *
     * @param costs     a cost for every query type of the workload with a weight above 0
     * @param measured  the node count the messages and round trips were measured on
     * @param abortRate share of attempts that abort, [0, 1)
     */
    static Projection project(Map<LbvQuery, QueryCost> costs, int measured, Cluster cluster, Link link, Workload workload,
                              String isolation, double abortRate) {
        if (!(abortRate >= 0 && abortRate < 1)) {
            throw new IllegalArgumentException("abort rate in [0, 1): abortRate=" + abortRate);
        }
        int n = cluster.nodes();
        double cpu = 0;
        double messages = 0;
        double bytes = 0;
        double roundTrips = 0;
        for (Map.Entry<LbvQuery, Double> weight : weights(workload).entrySet()) {
            double w = weight.getValue();
            if (w == 0) {
                continue;
            }
            QueryCost cost = costs.get(weight.getKey());
            if (cost == null) {
                throw new IllegalArgumentException("no cost for query=" + weight.getKey() + " of workload=" + workload);
            }
            double scale = messageScale(cost.query(), measured, n);
            cpu += w * cost.cpuUs();
            messages += w * cost.messages() * scale;
            bytes += w * cost.bytes() * scale;
            roundTrips += w * cost.roundTrips() * roundTripScale(cost.query(), measured, n);
        }
        double demandUs = cpu + messages * link.cpuPerMessageUs();
        double responseUs = demandUs + roundTrips * link.rttUs();
        double cpuBound = n * cluster.cores() * cluster.utilisation() * 1e6 / demandUs;
        double latencyBound = n * (double) cluster.clientsPerNode() * 1e6 / responseUs;
        double bandwidthBound = bytes == 0 ? Double.POSITIVE_INFINITY : n * cluster.bandwidthGbps() * 1e9 / 8 / bytes;
        Bound bound = Bound.CPU;
        double attempts = cpuBound;
        if (latencyBound < attempts) {
            bound = Bound.LATENCY;
            attempts = latencyBound;
        }
        if (bandwidthBound < attempts) {
            bound = Bound.BANDWIDTH;
            attempts = bandwidthBound;
        }
        return new Projection(n, link.name(), workload, isolation, demandUs, messages, bytes, roundTrips, responseUs, cpuBound,
                latencyBound, bandwidthBound, attempts, attempts * (1 - abortRate), bound);
    }
}
