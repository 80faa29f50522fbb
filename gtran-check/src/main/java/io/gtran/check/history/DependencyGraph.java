package io.gtran.check.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of a history's committed transactions (nodes {@code 0..n-1}): typed edges
 * ({@link #WW}, {@link #WR}, {@link #RW}, and real-time order {@link #RT}), strongly connected components by Tarjan's algorithm,
 * and shortest cycles of a given shape by breadth-first search inside a component.
 */
final class DependencyGraph {
    static final int WW = 1;
    static final int WR = 2;
    static final int RW = 4;
    static final int ALL = WW | WR | RW;
    /** Real-time order: the edge's source was acknowledged before its target was invoked. */
    static final int RT = 8;

    /** The edge between two nodes, with every type it has and, per type, the first evidence for it. */
    static final class Edge {
        final int from;
        final int to;
        int mask;
        /** Per type (index {@link #slot}): the key and the two elements that show the dependency. */
        final int[] key = new int[4];
        final int[] first = new int[4];
        final int[] second = new int[4];

        Edge(int from, int to) {
            this.from = from;
            this.to = to;
        }

        static int slot(int type) {
            return Integer.numberOfTrailingZeros(type);
        }
    }

    /** One edge of a cycle, with the type the cycle uses it as. */
    record Step(Edge edge, int type) {
    }

    private final int size;
    private final List<List<Edge>> out = new ArrayList<>();
    private final Map<Long, Edge> byPair = new HashMap<>();
    /** BFS scratch, reused across searches: visit stamps and parents per (node, layer) state. */
    private final int[] visited;
    private final int[] parentState;
    private final Edge[] parentEdge;
    private final int[] parentType;
    private int stamp;

    DependencyGraph(int size) {
        this.size = size;
        for (int i = 0; i < size; i++) {
            out.add(new ArrayList<>());
        }
        visited = new int[2 * size];
        parentState = new int[2 * size];
        parentEdge = new Edge[2 * size];
        parentType = new int[2 * size];
    }

    int size() {
        return size;
    }

    /**
     * Adds a dependency {@code from -> to} of {@code type}; {@code first}/{@code second} are the
     * elements of {@code key} that show it (-1 for none). Self-dependencies are ignored.
     */
    void add(int from, int to, int type, int key, int first, int second) {
        if (from == to) {
            return;
        }
        Edge e = byPair.computeIfAbsent(((long) from << 32) | to, k -> {
            Edge fresh = new Edge(from, to);
            out.get(from).add(fresh);
            return fresh;
        });
        if ((e.mask & type) == 0) {
            int s = Edge.slot(type);
            e.mask |= type;
            e.key[s] = key;
            e.first[s] = first;
            e.second[s] = second;
        }
    }

    List<Edge> out(int node) {
        return out.get(node);
    }

    int edgeCount() {
        return byPair.size();
    }

    /**
     * Tarjan's strongly connected components over the edges having a type in {@code mask}
     * (iterative, so long chains cannot overflow the stack). Returns each node's component id.
     */
    int[] components(int mask) {
        int[] index = new int[size];
        int[] low = new int[size];
        int[] component = new int[size];
        boolean[] onStack = new boolean[size];
        int[] stack = new int[size];
        int[] frames = new int[size];
        int[] edgePos = new int[size];
        Arrays.fill(index, -1);
        int counter = 0;
        int top = 0;
        int components = 0;
        for (int root = 0; root < size; root++) {
            if (index[root] != -1) {
                continue;
            }
            int depth = 0;
            frames[depth++] = root;
            index[root] = low[root] = counter++;
            stack[top++] = root;
            onStack[root] = true;
            while (depth > 0) {
                int v = frames[depth - 1];
                List<Edge> edges = out.get(v);
                boolean descended = false;
                while (edgePos[v] < edges.size()) {
                    Edge e = edges.get(edgePos[v]++);
                    if ((e.mask & mask) == 0) {
                        continue;
                    }
                    int w = e.to;
                    if (index[w] == -1) {
                        index[w] = low[w] = counter++;
                        stack[top++] = w;
                        onStack[w] = true;
                        frames[depth++] = w;
                        descended = true;
                        break;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                }
                if (descended) {
                    continue;
                }
                if (low[v] == index[v]) {
                    int w;
                    do {
                        w = stack[--top];
                        onStack[w] = false;
                        component[w] = components;
                    } while (w != v);
                    components++;
                }
                depth--;
                if (depth > 0) {
                    int parent = frames[depth - 1];
                    low[parent] = Math.min(low[parent], low[v]);
                }
            }
        }
        return component;
    }

    /** Nodes grouped by component, only components of two or more nodes. */
    static List<int[]> nonTrivial(int[] component) {
        Map<Integer, List<Integer>> groups = new HashMap<>();
        for (int node = 0; node < component.length; node++) {
            groups.computeIfAbsent(component[node], k -> new ArrayList<>()).add(node);
        }
        List<int[]> result = new ArrayList<>();
        groups.values().stream().filter(g -> g.size() > 1).sorted((x, y) -> Integer.compare(x.get(0), y.get(0)))
                .forEach(g -> result.add(g.stream().mapToInt(Integer::intValue).toArray()));
        return result;
    }

    /**
     * The shortest simple cycle that starts with {@code first} used as {@code firstType} and returns
     * from its head to its tail over edges of {@code pathMask} between nodes of component {@code
     * componentId} (in {@code component}); the return path must hold at least {@code pathRw} (0 or
     * 1) read-write edges. Returns null if there is none, or if the shortest such walk repeats a node.
     */
    List<Step> cycle(Edge first, int firstType, int[] component, int componentId, int pathMask, int pathRw) {
        if (++stamp == Integer.MAX_VALUE) {
            Arrays.fill(visited, 0);
            stamp = 1;
        }
        int start = first.to * 2;
        int goal = first.from * 2 + pathRw;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        visited[start] = stamp;
        queue.add(start);
        while (!queue.isEmpty() && visited[goal] != stamp) {
            int state = queue.poll();
            int node = state >> 1;
            int layer = state & 1;
            for (Edge e : out.get(node)) {
                if (component[e.to] != componentId) {
                    continue;
                }
                int types = e.mask & pathMask;
                int plain = types & (WW | WR | RT);
                if (plain != 0) {
                    visit(state, e.to * 2 + layer, e, (plain & WW) != 0 ? WW : (plain & WR) != 0 ? WR : RT, queue);
                }
                if ((types & RW) != 0) {
                    visit(state, e.to * 2 + 1, e, RW, queue);
                }
            }
        }
        if (visited[goal] != stamp) {
            return null;
        }
        List<Step> path = new ArrayList<>();
        for (int state = goal; state != start; state = parentState[state]) {
            path.add(new Step(parentEdge[state], parentType[state]));
        }
        path.add(new Step(first, firstType));
        java.util.Collections.reverse(path);
        boolean[] seen = new boolean[size];
        for (Step step : path) {
            if (seen[step.edge().from]) {
                return null; // the walk passes a node twice: not a simple cycle
            }
            seen[step.edge().from] = true;
        }
        return path;
    }

    private void visit(int from, int to, Edge e, int type, ArrayDeque<Integer> queue) {
        if (visited[to] == stamp) {
            return;
        }
        visited[to] = stamp;
        parentState[to] = from;
        parentEdge[to] = e;
        parentType[to] = type;
        queue.add(to);
    }
}
