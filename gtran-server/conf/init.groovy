// For a stock Gremlin Server with gtran's plugin (gtran-server/e2e/run.sh): binds the traversal
// source "g" to the graph "graph". gtran's own server (bin/gtran server) does not read it: it binds
// "g" itself, since Gremlin Server compiles an init script again for every session (docs/server.md).
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
