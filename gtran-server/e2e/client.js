// gtran end to end through the npm 'gremlin' package: add, read, commit, roll back, and a conflict (status 596).
const gremlin = require('gremlin');
const traversal = gremlin.process.AnonymousTraversalSource.traversal;
const DriverRemoteConnection = gremlin.driver.DriverRemoteConnection;

const url = process.argv[2];
const label = 'javascript';

function check(cond, what) {
  if (!cond) {
    console.log('E2E client=javascript FAILED: ' + what);
    process.exit(1);
  }
}

async function main() {
  const conn = new DriverRemoteConnection(url);
  const g = traversal().withRemote(conn);
  await g.V().hasLabel(label).drop().iterate();
  await g.addV(label).property('name', 'a').property('n', 1).iterate();
  check(JSON.stringify(await g.V().hasLabel(label).values('name').toList()) === '["a"]', 'sessionless add then read');

  let tx = g.tx();
  let gtx = tx.begin();
  await gtx.addV(label).property('name', 'b').iterate();
  check((await g.V().hasLabel(label).count().next()).value === 1, 'uncommitted write invisible to others');
  await tx.commit();
  check((await g.V().hasLabel(label).count().next()).value === 2, 'commit makes it visible');

  tx = g.tx();
  gtx = tx.begin();
  await gtx.addV(label).property('name', 'c').iterate();
  await tx.rollback();
  check((await g.V().hasLabel(label).count().next()).value === 2, 'rollback discards');

  const first = g.tx();
  const second = g.tx();
  const one = first.begin();
  const two = second.begin();
  await one.V().has(label, 'name', 'a').property('n', 2).iterate();
  let status = null;
  try {
    await two.V().has(label, 'name', 'a').property('n', 3).iterate();
    await second.commit();
  } catch (e) {
    status = e.statusCode;
    check(String(e.message).includes('conflict'), 'the error names the conflict: ' + e.message);
  }
  check(status === 596, 'second writer gets a retryable 596, got ' + status);
  try { await second.rollback(); } catch (e) { /* ends the aborted transaction the server kept; a commit that failed closed the session already */ }
  await first.commit();
  check((await g.V().has(label, 'name', 'a').values('n').next()).value === 2, 'exactly one write took effect');
  await conn.close();
  console.log('E2E client=javascript ok');
}

main().catch((e) => { console.log('E2E client=javascript FAILED: ' + e.stack); process.exit(1); });
