"""gtran end to end through gremlinpython: add, read, commit, roll back, a conflict (status 596)
after which the session refuses every request until rolled back, docs/server.md's retry loop, a
client that vanishes mid-transaction, elements read back by the ids the server gave them, and bulk
writes through call()."""
import sys
import time

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Cardinality, Direction, T
from gremlin_python.statics import long

url = sys.argv[1]
conn = DriverRemoteConnection(url, "g")
g = traversal().with_remote(conn)
label = "python"


def check(cond, what):
    if not cond:
        print("E2E client=python FAILED: " + what)
        sys.exit(1)


g.V().has_label(label).drop().iterate()
g.add_v(label).property("name", "a").property("n", 1).iterate()
check(g.V().has_label(label).values("name").to_list() == ["a"], "sessionless add then read")

tx = g.tx()
gtx = tx.begin()
gtx.add_v(label).property("name", "b").iterate()
check(g.V().has_label(label).count().next() == 1, "uncommitted write invisible to others")
tx.commit()
check(g.V().has_label(label).count().next() == 2, "commit makes it visible")

tx = g.tx()
gtx = tx.begin()
gtx.add_v(label).property("name", "c").iterate()
tx.rollback()
check(g.V().has_label(label).count().next() == 2, "rollback discards")

first, second = g.tx(), g.tx()
one, two = first.begin(), second.begin()
one.V().has(label, "name", "a").property("n", 2).iterate()
two.add_v(label).property("name", "first half").iterate()
status = None
try:
    two.V().has(label, "name", "a").property("n", 3).iterate()
except GremlinServerError as e:
    status = e.status_code
    check("conflict" in str(e), "the error names the conflict: " + str(e))
check(status == 596, "second writer gets a retryable 596, got %s" % status)
# the aborted transaction refuses every later request of its session until rolled back (issue 18)
for what, request in (("a write", lambda: two.add_v(label).property("name", "second half").iterate()),
                      ("a read", lambda: two.V().count().next()),
                      ("the commit", lambda: second.commit().all().result())):
    try:
        request()
        check(False, what + " after the conflict must fail")
    except GremlinServerError as e:
        check(e.status_code == 596 and "roll back before using it again" in str(e), what + " after the conflict: " + str(e))
first.commit().all().result()
check(g.V().has(label, "name", "a").values("n").next() == 2, "exactly one write took effect")
check(g.V().has(label, "name", "first half").count().next() == 0, "nothing of the aborted unit of work landed")


def in_transaction(g, work, attempts=5):
    """docs/server.md's retry loop: re-runs the whole unit of work on a 596."""
    for attempt in range(1, attempts + 1):
        tx = g.tx()
        try:
            result = work(tx.begin())
            tx.commit().all().result()  # raises GremlinServerError 596 on a conflict at commit
            return result
        except GremlinServerError as e:
            if tx.is_open():
                tx.rollback().all().result()  # ends the aborted transaction, and the session
            if e.status_code != 596 or attempt == attempts:
                raise


holder = g.tx()
holder.begin().V().has(label, "name", "a").property("n", 5).iterate()
attempts = []


def work(gtx):
    attempts.append(len(attempts) + 1)
    if len(attempts) == 2:
        holder.rollback().all().result()  # the other client lets go before the retry
    gtx.add_v(label).property("name", "retry").property("attempt", len(attempts)).iterate()
    gtx.V().has(label, "name", "a").property("n", 3).iterate()  # the first attempt meets the lock


in_transaction(g, work)
check(attempts == [1, 2], "the loop retried once: %s" % attempts)
check(g.V().has(label, "name", "retry").values("attempt").to_list() == [2], "only the retry's writes landed")
check(g.V().has(label, "name", "a").values("n").next() == 3, "the retry's write landed")

# a client that closes its connection mid-transaction, without commit or rollback, leaves nothing
# behind: within 2 s (docs/server.md) others write what it held, and none of its writes survive
vanishing = DriverRemoteConnection(url, "g")
vtx = traversal().with_remote(vanishing).tx()
vgtx = vtx.begin()
vgtx.V().has(label, "name", "a").property("n", 99).iterate()
vgtx.add_v(label).property("name", "vanished").iterate()
vanishing.close()
deadline = time.monotonic() + 2
while True:
    try:
        g.V().has(label, "name", "a").property("n", 4).iterate()
        break
    except GremlinServerError as e:
        check(e.status_code == 596 and time.monotonic() < deadline, "a vanished client's lock goes within 2 s: " + str(e))
        time.sleep(0.01)
check(g.V().has(label, "name", "a").values("n").next() == 4, "the vanished client's write did not survive")
check(g.V().has(label, "name", "vanished").count().next() == 0, "the vanished client's vertex did not survive")

# Ids (docs/server.md, "Element ids") arrive as int. gremlinpython sends a plain int as a 32-bit Int
# (TINKERPOP-2363): that works below 2**31 and fails (struct.error) above; long(id) works for any id.
# The vertices here may take slots that removed or rolled-back vertices used, whose ids are large.
def sent_forms(i):
    return (long(i), i) if i < 2 ** 31 else (long(i),)


a = g.add_v(label).property("name", "id-a").id_().next()
b = g.add_v(label).property("name", "id-b").id_().next()
e = g.add_e("knows").from_(__.V(long(a))).to(__.V(long(b))).property("name", "id-e").id_().next()
check(all(type(i) is int for i in (a, b, e)), "ids are ints: %r" % [a, b, e])
check(any(i < 2 ** 31 for i in (a, b, e)), "an id to send as a plain int: %r" % [a, b, e])  # the node's first edge
for i, name in ((a, "id-a"), (b, "id-b")):
    for sent in sent_forms(i):
        check(g.V(sent).values("name").to_list() == [name], "g.V(%r)" % sent)
        check(g.V().has_id(sent).values("name").to_list() == [name], "has_id(%r)" % sent)
for sent in sent_forms(e):
    check(g.E(sent).values("name").to_list() == ["id-e"], "g.E(%r)" % sent)
check(g.E().has_id(long(e)).in_v().id_().to_list() == [b], "g.E().has_id(id) and its in-vertex")
va = g.V(long(a)).next()
check(g.V(long(va.id)).values("name").to_list() == ["id-a"], "g.V(long(vertex.id))")
if a < 2 ** 31:
    check(g.V(va).values("name").to_list() == ["id-a"], "g.V(vertex)")
check(sorted(g.V(long(a), long(b)).values("name").to_list()) == ["id-a", "id-b"], "g.V(id, id)")

p = g.V(long(a)).properties("name").id_().next()
check(g.V(long(a)).properties("name").has_id(long(p)).value().to_list() == ["id-a"], "vertex property by id")
g.V(long(a)).property(Cardinality.list_, "tag", "x").property(Cardinality.list_, "tag", "y").iterate()
tags = g.V(long(a)).properties("tag").id_().to_list()
check(len(set(tags)) == 2, "two list properties, two ids: %r" % tags)
check(g.V(long(a)).properties("tag").has_id(long(tags[1])).value().to_list() == ["y"], "list property by id")

merged = g.merge_e({T.label: "knows", Direction.OUT: long(a), Direction.IN: long(b)}).id_().next()
check(merged == e, "merge_e with ids finds the edge: %r != %r" % (merged, e))
created = g.merge_e({T.label: "likes", Direction.OUT: long(b), Direction.IN: long(a)}).id_().next()
check(g.E(long(created)).out_v().values("name").to_list() == ["id-b"], "merge_e with ids creates the edge")

# ids that name nothing find nothing, not another element: a dropped vertex's, a rolled-back
# vertex's (whose slot the next vertex may take), an edge's as a vertex's, another property's
gone = g.add_v(label).property("name", "gone").id_().next()
g.V(long(gone)).drop().iterate()
check(g.V(long(gone)).to_list() == [], "a dropped vertex's id")
tx = g.tx()
rolled_back = tx.begin().add_v(label).property("name", "rolled back").id_().next()
tx.rollback().all().result()
again = g.add_v(label).property("name", "again").id_().next()
check(g.V(long(rolled_back)).to_list() == [], "a rolled-back vertex's id")
check(g.V(long(again)).values("name").to_list() == ["again"], "the next vertex by its id")
check(g.V(long(e)).to_list() == [] and g.E(long(a)).to_list() == [], "an edge's id names no vertex, a vertex's no edge")
check(g.V(long(a)).properties("name").has_id(long(tags[0])).to_list() == [], "another property's id")
# bulk writes through call(), as a loader in Python sends them: one request per batch, no script
rows = [{"id": "py-bulk-%d" % i, "label": label, "properties": {"name": "bulk %d" % i}} for i in range(3)]
check(g.call("gtran.bulk.vertices", {"rows": rows}).next() == {"vertices": 3}, "gtran.bulk.vertices")
edges = [{"id": "py-bulk-e", "out": "py-bulk-0", "in": "py-bulk-1", "label": "knows", "properties": {"w": 1.5}}]
check(g.call("gtran.bulk.edges", {"rows": edges}).next() == {"edges": 1}, "gtran.bulk.edges")
check(g.V("py-bulk-0").out("knows").values("name").to_list() == ["bulk 1"], "the bulk edge joins the bulk vertices")
try:
    g.call("gtran.bulk.edges", {"rows": [{"out": "py-bulk-0", "in": "nobody", "label": "knows"}]}).next()
    check(False, "a bulk edge to a missing vertex must fail")
except GremlinServerError as e:
    check("nobody" in str(e), "the error names the missing vertex: " + str(e))
check(g.V("py-bulk-0").out_e().count().next() == 1, "the refused batch left nothing")
conn.close()
print("E2E client=python ok")
