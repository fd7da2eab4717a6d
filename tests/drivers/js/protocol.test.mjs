// Neo4j's JavaScript driver, unchanged, on what applications do beyond reads: writes
// and their counters, managed and explicit transactions, bookmarks, errors and
// recovery, large results in pages, and the graph and temporal types. Each test has a
// fresh, empty server. Mirrors tests/drivers/python/test_protocol.py.
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, test } from 'node:test'
import neo4j from 'neo4j-driver'
import { neo4jError, startWriteServer } from './harness.mjs'

const AUTH = neo4j.auth.basic('neo4j', 'unused')

async function count (driver, label = 'Thing') {
  const { records } = await driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`)
  return records[0].get('c').toNumber()
}

/** Runs `work` with a session of `driver`, closing it after. */
async function withSession (driver, config, work) {
  const session = driver.session(config)
  try {
    return await work(session)
  } finally {
    await session.close()
  }
}

describe('Neo4j JavaScript driver against kith', () => {
  let server
  let driver
  beforeEach(async () => {
    server = await startWriteServer()
    driver = neo4j.driver(server.neo4j, AUTH)
  })
  afterEach(async () => {
    await driver?.close()
    await server?.stop()
  })

  /** A driver of its own on bolt:// (no routing), closed after `work`. */
  async function direct (work) {
    const d = neo4j.driver(server.bolt, AUTH)
    try {
      return await work(d)
    } finally {
      await d.close()
    }
  }

  test('the driver meets a Neo4j 5 server', async () => {
    await driver.verifyConnectivity()
    const info = await driver.getServerInfo()
    assert.match(info.agent, /^Neo4j\/5\./)
    // The newest Bolt both speak: kith offers up to 5.8 in the handshake manifest.
    assert.equal(info.protocolVersion.toString(), '5.8')
  })

  test('writes report their counters and are visible after', async () => {
    const { records, summary } = await driver.executeQuery(
      'CREATE (a:Thing {name: $a})-[:NEXT {w: 1}]->(b:Thing {name: $b}) RETURN a.name AS a', { a: 'x', b: 'y' })
    assert.equal(records[0].get('a'), 'x')
    const c = summary.counters.updates()
    assert.deepEqual([c.nodesCreated, c.relationshipsCreated, c.labelsAdded, c.propertiesSet], [2, 1, 2, 3])
    assert.ok(summary.counters.containsUpdates())
    assert.equal(summary.queryType, 'rw')
    assert.equal(await count(driver), 2)
  })

  test('UNWIND writes 1,000 rows in one transaction', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: neo4j.int(i), name: `n${i}` }))
    const { summary } = await driver.executeQuery('UNWIND $rows AS r CREATE (:Thing {id: r.id, name: r.name})', { rows })
    assert.equal(summary.counters.updates().nodesCreated, 1000)
    assert.equal(await count(driver), 1000)
    const { records } = await driver.executeQuery('MATCH (n:Thing {id: 999}) RETURN n.name AS name')
    assert.equal(records[0].get('name'), 'n999')
  })

  test('managed transactions commit and read back', async () => {
    await withSession(driver, {}, async session => {
      const created = await session.executeWrite(async tx => {
        const result = await tx.run('CREATE (n:Thing {v: 1}) RETURN n.v AS v')
        return result.records[0].get('v').toNumber()
      })
      assert.equal(created, 1)
      const seen = await session.executeRead(async tx => {
        const result = await tx.run('MATCH (n:Thing) RETURN count(n) AS c')
        return result.records[0].get('c').toNumber()
      })
      assert.equal(seen, 1)
    })
  })

  test('explicit transactions commit or roll back', async () => {
    await withSession(driver, {}, async session => {
      let tx = session.beginTransaction()
      await tx.run('CREATE (:Thing {v: 2})')
      await tx.rollback()
      assert.equal(await count(driver), 0)
      tx = session.beginTransaction()
      const before = await tx.run('MATCH (n:Thing) RETURN count(n) AS c')
      assert.equal(before.records[0].get('c').toNumber(), 0)
      await tx.run('CREATE (:Thing {v: 3})')
      await tx.commit()
    })
    assert.equal(await count(driver), 1)
  })

  test('a transaction reads one snapshot', async () => {
    await withSession(driver, {}, reader => withSession(driver, {}, async writer => {
      const tx = reader.beginTransaction()
      const countIn = async () => (await tx.run('MATCH (n:Thing) RETURN count(n) AS c')).records[0].get('c').toNumber()
      assert.equal(await countIn(), 0)
      await writer.run('CREATE (:Thing)')
      // Committed by another session after BEGIN: not seen inside the transaction.
      assert.equal(await countIn(), 0)
      await tx.commit()
    }))
    assert.equal(await count(driver), 1)
  })

  test('bookmarks chain sessions', async () => {
    const bookmarks = await withSession(driver, {}, async first => {
      await first.run('CREATE (:Thing)')
      return first.lastBookmarks()
    })
    assert.ok(bookmarks.length > 0)
    const seen = await withSession(driver, { bookmarks }, async second =>
      (await second.run('MATCH (n:Thing) RETURN count(n) AS c')).records[0].get('c').toNumber())
    assert.equal(seen, 1)
  })

  test('a bookmark kith never issued is refused', async () => {
    const e = await direct(d => withSession(d, { bookmarks: ['not-a-kith-bookmark'] }, s => neo4jError(s.run('RETURN 1'))))
    assert.equal(e.code, 'Neo.ClientError.Transaction.InvalidBookmark')
  })

  test('errors have Neo4j codes and the session recovers', async () => {
    await withSession(driver, {}, async session => {
      const syntax = await neo4jError(session.run('RETRUN 1'))
      assert.equal(syntax.code, 'Neo.ClientError.Statement.SyntaxError')
      const division = await neo4jError(session.run('RETURN 1 / $z AS q', { z: neo4j.int(0) }))
      assert.equal(division.code, 'Neo.ClientError.Statement.ArithmeticError')
      // The connection was RESET after each failure: it still works.
      const { records } = await session.run('RETURN 41 + 1 AS x')
      assert.equal(records[0].get('x').toNumber(), 42)
    })
  })

  test('a READ session cannot write', async () => {
    const e = await withSession(driver, { defaultAccessMode: neo4j.session.READ }, s => neo4jError(s.run('CREATE (:Thing)')))
    assert.equal(e.code, 'Neo.ClientError.Statement.AccessMode')
    assert.equal(await count(driver), 0)
  })

  test('an unknown database is refused', async () => {
    const e = await direct(d => withSession(d, { database: 'elsewhere' }, s => neo4jError(s.run('RETURN 1'))))
    assert.equal(e.code, 'Neo.ClientError.Database.DatabaseNotFound')
  })

  test('large results stream in pages', async () => {
    const seen = await withSession(driver, { fetchSize: 100 }, async session => {
      const out = []
      const result = session.run("UNWIND range(1, 25000) AS i RETURN i, 'row ' + toString(i) AS s")
      for await (const record of result) {
        const i = record.get('i').toNumber()
        assert.equal(record.get('s'), `row ${i}`)
        out.push(i)
      }
      return out
    })
    assert.deepEqual(seen, Array.from({ length: 25000 }, (_, i) => i + 1))
  })

  test('graph structures and datetimes arrive as driver types', async () => {
    await driver.executeQuery("CREATE (:P {name: 'a'})-[:KNOWS {since: 2020}]->(:P {name: 'b'})")
    const sent = new neo4j.types.DateTime(2021, 5, 6, 7, 8, 9, 123000000, 0)
    const { records } = await driver.executeQuery(
      "MATCH p = (a:P {name: 'a'})-[r:KNOWS]->(b:P) RETURN a, r, p, datetime({epochMillis: 1500}) AS t, $t AS echoed",
      { t: sent })
    const [a, r, p, t, echoed] = [...records[0].values()]
    assert.ok(neo4j.isNode(a) && a.labels.length === 1 && a.labels[0] === 'P' && a.properties.name === 'a')
    assert.ok(neo4j.isRelationship(r) && r.type === 'KNOWS' && r.properties.since.toNumber() === 2020)
    assert.equal(r.startNodeElementId, a.elementId)
    assert.ok(neo4j.isPath(p) && p.length === 1 && p.end.properties.name === 'b')
    assert.ok(neo4j.isDateTime(t))
    assert.equal(t.toStandardDate().getTime(), 1500)
    assert.equal(t.timeZoneOffsetSeconds.toNumber(), 0)
    assert.ok(neo4j.isDateTime(echoed))
    assert.equal(echoed.toString(), sent.toString())
  })

  test('points round-trip as the driver\'s Point', async () => {
    const sent = [new neo4j.types.Point(7203, 1.5, -2.0), new neo4j.types.Point(4979, 12.5, 55.6, 100.0)]
    const { records } = await driver.executeQuery(
      'RETURN $a AS a, $b AS b, $a.x AS x, point({longitude: 12.5, latitude: 55.7}) AS made',
      { a: sent[0], b: sent[1] })
    const [a, b, x, made] = [...records[0].values()]
    for (const [got, want] of [[a, sent[0]], [b, sent[1]]]) {
      assert.ok(neo4j.isPoint(got))
      assert.equal(got.srid.toNumber ? got.srid.toNumber() : got.srid, want.srid)
      assert.deepEqual([got.x, got.y, got.z], [want.x, want.y, want.z])
    }
    assert.equal(x, 1.5)
    assert.ok(neo4j.isPoint(made) && made.y === 55.7)
  })

  // The driver packs an Int8Array as PackStream bytes and unpacks bytes as one.
  test('byte arrays round-trip as Int8Array and read as signed integers', async () => {
    const sent = Int8Array.from([1, 2, -1])
    const { records } = await driver.executeQuery(
      'CREATE (v:JsBlob {b: $b}) RETURN v.b AS b, size($b) AS n, $b[-1] AS last, $b = [1, 2, -1] AS same',
      { b: sent })
    const [b, n, last, same] = [...records[0].values()]
    assert.ok(b instanceof Int8Array)
    assert.deepEqual([...b], [1, 2, -1])
    assert.equal(n.toNumber(), 3)
    assert.equal(last.toNumber(), -1)
    assert.equal(same, true)
  })
})
