"""The client side of deploy/test/server-kill.sh, through gremlinpython.

  write URL FIRST THREADS   each thread commits transactions until the server goes away; a
                            transaction k adds two vertices 'w' with k=k and an edge 'pair'
                            between them (one sessionless traversal: one transaction), every
                            fifth one through g.tx() instead; prints 'ACK k' once the commit
                            returned
  check URL ACKS_FILE       reads every 'w' vertex and 'pair' edge; prints
                            'CHECK acked=A found=F missing=M partial=P' and exits 1 unless M and
                            P are 0
"""
import sys
import threading

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __

lock = threading.Lock()


def write(url, first, threads):
    def run(t):
        conn = DriverRemoteConnection(url, "g")
        g = traversal().with_remote(conn)
        k = first + t
        try:
            while True:
                if k % 5 == 0:
                    tx = g.tx()
                    gtx = tx.begin()
                    a = gtx.add_v("w").property("k", k).next()
                    b = gtx.add_v("w").property("k", k).next()
                    gtx.V(a).add_e("pair").to(__.V(b)).property("k", k).iterate()
                    tx.commit().all().result()
                else:
                    (g.add_v("w").property("k", k).as_("a")
                     .add_v("w").property("k", k).as_("b")
                     .add_e("pair").from_("a").to("b").property("k", k).iterate())
                with lock:
                    print("ACK %d" % k, flush=True)
                k += threads
        except Exception as e:  # the server was killed: stop
            with lock:
                print("STOP thread=%d at k=%d: %s" % (t, k, str(e).splitlines()[0] if str(e) else type(e).__name__),
                      flush=True)
        finally:
            try:
                conn.close()
            except Exception:
                pass

    workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def check(url, acks_file):
    acked = {int(line.split()[1]) for line in open(acks_file) if line.startswith("ACK ")}
    conn = DriverRemoteConnection(url, "g")
    g = traversal().with_remote(conn)
    vertices = {}
    for k in g.V().has_label("w").values("k").to_list():
        vertices[k] = vertices.get(k, 0) + 1
    edges = {}
    for k in g.E().has_label("pair").values("k").to_list():
        edges[k] = edges.get(k, 0) + 1
    conn.close()
    found = set(vertices) | set(edges)
    missing = sorted(acked - found)
    partial = sorted(k for k in found if vertices.get(k, 0) != 2 or edges.get(k, 0) != 1)
    print("CHECK acked=%d found=%d missing=%d partial=%d" % (len(acked), len(found), len(missing), len(partial)))
    if missing:
        print("missing (acknowledged, not found): %s" % missing[:20])
    if partial:
        print("partial: %s" % [(k, vertices.get(k, 0), edges.get(k, 0)) for k in partial[:20]])
    sys.exit(1 if missing or partial else 0)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        check(sys.argv[2], sys.argv[3])
