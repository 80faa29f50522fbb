// Loads TinkerPop's test graphs from gremlin-test's Gryo files and binds a traversal source per graph.
// Gremlin Server runs this script again for every session's script engine: load only once. On a
// cluster of separate processes (ClusterProcesses) node 0 loads each graph once every member is in
// contact (its vertices spread over the members), and the other nodes serve what it loaded.
import org.apache.tinkerpop.gremlin.structure.io.gryo.GryoResourceAccess

def load(target, file) {
    if (target.node().id() != 0) {
        return
    }
    target.node().awaitMembers(60000) // at once on a single node
    def empty = true
    def attempt = 0
    while (true) {
        attempt++
        try {
            empty = !target.traversal().V().hasNext()
            target.tx().rollback()
            break
        } catch (io.gtran.core.TransactionAbortedException e) {
            target.tx().rollback()
            if (attempt == 5) {
                throw e
            }
        }
    }
    if (!empty) {
        return
    }
    def tmp = java.io.File.createTempFile("gtran-test-data", ".kryo")
    tmp.deleteOnExit()
    GryoResourceAccess.class.getResourceAsStream(file).withStream { input -> tmp.withOutputStream { out -> out << input } }
    // A loaded 2-core machine starting three nodes (and their membership groups' Raft servers) has
    // paused a JVM for seconds: a load that aborts as retryable is rolled back and run again.
    attempt = 0
    while (true) {
        attempt++
        try {
            target.traversal().io(tmp.absolutePath).read().iterate()
            target.tx().commit()
            return
        } catch (io.gtran.core.TransactionAbortedException e) {
            target.tx().rollback()
            if (attempt == 5 || target.traversal().V().hasNext()) {
                throw e
            }
            target.tx().rollback()
        }
    }
}

load(modern, "tinkerpop-modern-v3.kryo")
load(classic, "tinkerpop-classic-v3.kryo")
load(crew, "tinkerpop-crew-v3.kryo")
load(sink, "tinkerpop-sink-v3.kryo")
load(grateful, "grateful-dead-v3.kryo")

def globals = [:]
globals << [g : traversal().withEmbedded(graph)]
globals << [ggraph : traversal().withEmbedded(graph)]
globals << [gmodern : traversal().withEmbedded(modern)]
globals << [gclassic : traversal().withEmbedded(classic)]
globals << [gcrew : traversal().withEmbedded(crew)]
globals << [gsink : traversal().withEmbedded(sink)]
globals << [ggrateful : traversal().withEmbedded(grateful)]
