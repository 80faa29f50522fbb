"""gtran end to end through gremlinpython: add, read, commit, roll back, a conflict (status 596)
after which the session refuses every request until rolled back, docs/server.md's retry loop, and
a client that vanishes mid-transaction."""
import sys
import time

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal

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
conn.close()
print("E2E client=python ok")
