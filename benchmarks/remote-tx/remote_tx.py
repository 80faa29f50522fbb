"""Short remote transactions through gremlinpython: begin g.tx(), add one vertex, commit, again.

python remote_tx.py [HOST] [PORT] [SECONDS] (needs gremlinpython 3.8.1); prints
REMOTE_TX client=python commits=N per_second=R worst_ms=W (docs/benchmarks.md, "Short remote
transactions"). bin/gtran bench remote-tx does the same through the Java driver.
"""
import sys
import time

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal


def main():
    host = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 8182
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
    connection = DriverRemoteConnection(f"ws://{host}:{port}/gremlin", "g")
    try:
        g = traversal().with_remote(connection)
        end = time.monotonic() + seconds
        commits, worst = 0, 0.0
        while time.monotonic() < end:
            start = time.monotonic()
            tx = g.tx()
            gtx = tx.begin()
            gtx.add_v("remote_tx").property("n", commits).id_().next()  # not iterate(): a 3.7 server knows no discard()
            tx.commit().all().result()  # commit() returns without waiting (docs/server.md)
            worst = max(worst, time.monotonic() - start)
            commits += 1
        print(f"REMOTE_TX client=python commits={commits} per_second={commits / seconds:.1f} worst_ms={worst * 1000:.1f}")
    finally:
        connection.close()


if __name__ == "__main__":
    main()
