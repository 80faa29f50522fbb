// binds the traversal source "g" to the graph "graph", as TinkerPop's sample scripts do
def globals = [:]
globals << [g : traversal().withEmbedded(graph)]
