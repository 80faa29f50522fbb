// gtran end to end through the npm 'gremlin' package: add, read, commit, roll back, a conflict (status 596),
// and elements read back by the ids the server gave them.
const gremlin = require('gremlin');
const traversal = gremlin.process.AnonymousTraversalSource.traversal;
const DriverRemoteConnection = gremlin.driver.DriverRemoteConnection;
const { t, cardinality, direction } = gremlin.process;
const __ = gremlin.process.statics;

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
  await readBackById(g);
  await conn.close();
  console.log('E2E client=javascript ok');
}

// Ids (docs/server.md, "Element ids") are numbers, exact because gtran keeps them below 2^53.
async function readBackById(g) {
  const id = async (tr) => {
    const value = (await tr.id().next()).value;
    check(Number.isSafeInteger(value), 'id is a safe integer: ' + value);
    return value;
  };
  const list = async (tr) => JSON.stringify(await tr.toList());
  const a = await id(g.addV(label).property('name', 'id-a'));
  const b = await id(g.addV(label).property('name', 'id-b'));
  const e = await id(g.addE('knows').from_(__.V(a)).to(__.V(b)).property('name', 'id-e'));
  check(await list(g.V(a).values('name')) === '["id-a"]', 'g.V(id)');
  check(await list(g.V((await g.V(a).next()).value).values('name')) === '["id-a"]', 'g.V(vertex)');
  check(await list(g.V().hasId(b).values('name')) === '["id-b"]', 'hasId');
  check(await list(g.V(a, b).values('name').order()) === '["id-a","id-b"]', 'g.V(id, id)');
  check(await list(g.E(e).values('name')) === '["id-e"]', 'g.E(id)');
  check(await list(g.E().hasId(e).inV().id()) === JSON.stringify([b]), 'g.E().hasId(id) and its in-vertex');

  const p = await id(g.V(a).properties('name'));
  check(await list(g.V(a).properties('name').hasId(p).value()) === '["id-a"]', 'vertex property by id');
  await g.V(a).property(cardinality.list, 'tag', 'x').property(cardinality.list, 'tag', 'y').iterate();
  const tags = await g.V(a).properties('tag').id().toList();
  check(tags.length === 2 && tags[0] !== tags[1] && tags.every(Number.isSafeInteger), 'two list properties, two ids: ' + tags);
  check(await list(g.V(a).properties('tag').hasId(tags[1]).value()) === '["y"]', 'list property by id');

  const merged = await id(g.mergeE(new Map([[t.label, 'knows'], [direction.out, a], [direction.in, b]])));
  check(merged === e, 'mergeE with ids finds the edge: ' + merged + ' !== ' + e);
  const created = await id(g.mergeE(new Map([[t.label, 'likes'], [direction.out, b], [direction.in, a]])));
  check(await list(g.E(created).outV().values('name')) === '["id-b"]', 'mergeE with ids creates the edge');

  // ids that name nothing find nothing, not another element: a dropped vertex's, a rolled-back
  // vertex's (whose slot the next vertex may take), an edge's as a vertex's, another property's
  const gone = await id(g.addV(label).property('name', 'gone'));
  await g.V(gone).drop().iterate();
  check(await list(g.V(gone)) === '[]', "a dropped vertex's id");
  const tx = g.tx();
  const rolledBack = await id(tx.begin().addV(label).property('name', 'rolled back'));
  await tx.rollback();
  const again = await id(g.addV(label).property('name', 'again'));
  check(await list(g.V(rolledBack)) === '[]', "a rolled-back vertex's id");
  check(await list(g.V(again).values('name')) === '["again"]', 'the next vertex by its id');
  check(await list(g.V(e)) === '[]' && await list(g.E(a)) === '[]', "an edge's id names no vertex, a vertex's no edge");
  check(await list(g.V(a).properties('name').hasId(tags[0])) === '[]', "another property's id");
}

main().catch((e) => { console.log('E2E client=javascript FAILED: ' + e.stack); process.exit(1); });
