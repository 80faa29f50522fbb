// Runs once when the node starts: binds the traversal source "g" to the graph "graph".
def globals = [:]

globals << [hook : [
  onStartUp: { ctx ->
    ctx.logger.info("gtran node ready: " + graph)
  },
  onShutDown: { ctx ->
    ctx.logger.info("gtran node stopping")
  }
] as LifeCycleHook]

globals << [g : traversal().withEmbedded(graph)]
