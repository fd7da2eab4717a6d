// The official LDBC SNB Interactive read texts, unmodified, sent by Neo4j's JavaScript
// driver to kith over Bolt: every answer must equal Neo4j 5.26's own (the fixtures the
// Rust suite also checks the engine against), through `bolt://` sessions and through
// `neo4j://` routing with `driver.executeQuery`. Mirrors tests/drivers/python.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import neo4j from 'neo4j-driver'
import { FIXTURES, SHARED, startLdbcServer } from './harness.mjs'

function cases (dataset) {
  const dir = path.join(FIXTURES, dataset)
  return fs.readdirSync(dir).filter(f => f.endsWith('.json')).sort().map(file => {
    const fixture = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
    const text = fs.readFileSync(path.join(SHARED, 'ldbc-cypher', fixture.text), 'utf8')
    return { name: path.basename(file, '.json'), fixture, text }
  })
}

/** Fixture parameters as an application sends them: whole numbers as Bolt Integers
 * (a plain JS number would go as a Float, which the texts do not expect). */
function driverParams (value) {
  if (Number.isInteger(value)) return neo4j.int(value)
  if (Array.isArray(value)) return value.map(driverParams)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, driverParams(v)]))
  }
  return value
}

/** A driver value as the fixtures write it (JSON numbers, lists, maps). */
function plain (value) {
  if (neo4j.isInt(value)) {
    assert.ok(value.inSafeRange(), `integer ${value} is beyond JSON's exact range`)
    return value.toNumber()
  }
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

const byJson = (a, b) => {
  const x = JSON.stringify(a)
  const y = JSON.stringify(b)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Lists in `sorted_lists` columns have no defined order; nor do IC14's paths of equal weight. */
function normalise (rows, fixture, name) {
  const sortedColumns = fixture.sorted_lists.map(c => fixture.columns.indexOf(c))
  const out = rows.map(row => row.map((v, i) => sortedColumns.includes(i) && Array.isArray(v) ? [...v].sort(byJson) : v))
  if (name === 'ic14') out.sort((a, b) => (b[1] - a[1]) || byJson(a, b))
  return out
}

function errorCode (error) {
  return error.split(':')[0]
}

async function checkCase (run, name, fixture, text, c) {
  const params = driverParams(c.params)
  const where = `${name} ${JSON.stringify(c.params)}`
  if ('error' in c) {
    const code = errorCode(c.error)
    try {
      await run(text, params)
      return `${where}: Neo4j raised ${code}, kith answered`
    } catch (e) {
      if (!(e instanceof neo4j.Neo4jError)) throw e
      return e.code === code ? null : `${where}: Neo4j raised ${code}, kith ${e.code} (${e.message})`
    }
  }
  const { keys, rows } = await run(text, params)
  if (!isDeepStrictEqual(keys, fixture.columns)) return `${name}: columns ${keys}, Neo4j ${fixture.columns}`
  const ours = normalise(rows.map(r => r.map(plain)), fixture, name)
  const theirs = normalise(c.rows, fixture, name)
  if (isDeepStrictEqual(ours, theirs)) return null
  return `${where}: ${ours.length} rows, Neo4j ${theirs.length}; first rows kith ${JSON.stringify(ours[0])}, ` +
    `Neo4j ${JSON.stringify(theirs[0])}`
}

/** Runs every case of `dataset` through `run`; fails listing the ones that differ. */
async function check (run, dataset) {
  const failures = []
  let count = 0
  for (const { name, fixture, text } of cases(dataset)) {
    for (const c of fixture.cases) {
      count += 1
      const failure = await checkCase(run, name, fixture, text, c)
      if (failure) failures.push(failure)
    }
  }
  assert.ok(count > 0, `no cases in ${dataset}`)
  assert.deepEqual(failures, [], `${failures.length} of ${count} cases differ:\n${failures.slice(0, 20).join('\n')}`)
}

describe('official LDBC read texts', () => {
  let server
  before(async () => { server = await startLdbcServer() })
  after(async () => { await server?.stop() })

  for (const dataset of ['test', 'test-probes']) {
    test(`sessions over bolt:// answer as Neo4j (${dataset})`, async () => {
      const driver = neo4j.driver(server.bolt, neo4j.auth.basic('neo4j', 'unused'))
      const session = driver.session()
      try {
        await check(async (text, params) => {
          const result = session.run(text, params)
          const keys = await result.keys()
          const { records } = await result
          return { keys, rows: records.map(r => [...r.values()]) }
        }, dataset)
      } finally {
        await session.close()
        await driver.close()
      }
    })

    test(`executeQuery with neo4j:// routing answers as Neo4j (${dataset})`, async () => {
      const driver = neo4j.driver(server.neo4j, neo4j.auth.basic('neo4j', 'unused'))
      try {
        await check(async (text, params) => {
          const { keys, records } = await driver.executeQuery(text, params, { routing: neo4j.routing.READ })
          return { keys, rows: records.map(r => [...r.values()]) }
        }, dataset)
      } finally {
        await driver.close()
      }
    })
  }
})
