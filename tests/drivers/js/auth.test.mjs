// Authentication and roles through Neo4j's JavaScript driver: once a data directory
// has users (`kith user add`), every Bolt connection must log in with basic auth, and
// a user's role decides whether it may write. The driver must see Neo4j's own codes:
// Neo.ClientError.Security.Unauthorized for bad credentials (its authentication
// error), Neo.ClientError.Security.Forbidden for a write its role does not allow.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import neo4j from 'neo4j-driver'
import { addUser, kith, neo4jError, startWriteServer } from './harness.mjs'

const USERS = {
  ada: { role: 'admin', password: 'ada-Secret-1' },
  wes: { role: 'writer', password: 'wes secret with spaces' },
  rita: { role: 'reader', password: 'rita-Secret-3' },
  paul: { role: 'reader', password: 'paul-Secret-4' }
}
const UNAUTHORIZED = 'Neo.ClientError.Security.Unauthorized'

describe('users and roles over Bolt', () => {
  let server
  let dataDir
  before(async () => {
    server = await startWriteServer(data => {
      dataDir = data
      for (const [name, { role, password }] of Object.entries(USERS)) addUser(data, name, role, password)
    })
  })
  after(async () => { await server?.stop() })

  /** Runs `work` with a bolt:// driver logged in with `auth`, closed after. */
  async function as (auth, work) {
    const driver = neo4j.driver(server.bolt, auth)
    try {
      return await work(driver)
    } finally {
      await driver.close()
    }
  }
  const login = name => neo4j.auth.basic(name, USERS[name].password)

  test('a wrong password is refused as unauthorized', async () => {
    await as(neo4j.auth.basic('wes', 'not-the-password'), async driver => {
      assert.equal((await neo4jError(driver.verifyConnectivity())).code, UNAUTHORIZED)
      assert.equal((await neo4jError(driver.executeQuery('RETURN 1'))).code, UNAUTHORIZED)
    })
  })

  test('an unknown user is refused as unauthorized', async () => {
    await as(neo4j.auth.basic('mallory', USERS.wes.password), async driver => {
      assert.equal((await neo4jError(driver.verifyConnectivity())).code, UNAUTHORIZED)
    })
  })

  test('a connection without credentials is refused once users exist', async () => {
    await as(neo4j.auth.none(), async driver => {
      assert.equal((await neo4jError(driver.verifyConnectivity())).code, UNAUTHORIZED)
    })
  })

  // The driver checks credentials on a new connection; once a pooled connection
  // is logged in it answers `true` without asking the server again, so each check
  // runs on a fresh driver.
  test('verifyAuthentication tells good credentials from bad', async () => {
    await as(login('rita'), async driver => {
      assert.equal(await driver.verifyAuthentication({ auth: neo4j.auth.basic('rita', 'wrong') }), false)
    })
    await as(login('rita'), async driver => {
      assert.equal(await driver.verifyAuthentication(), true)
    })
  })

  test('a writer writes and reads its writes', async () => {
    await as(login('wes'), async driver => {
      const { summary } = await driver.executeQuery("CREATE (:Note {by: 'wes'})")
      assert.equal(summary.counters.updates().nodesCreated, 1)
      const { records } = await driver.executeQuery("MATCH (n:Note {by: 'wes'}) RETURN count(n) AS c")
      assert.equal(records[0].get('c').toNumber(), 1)
    })
  })

  test('an admin writes', async () => {
    await as(login('ada'), async driver => {
      const { summary } = await driver.executeQuery("CREATE (:Note {by: 'ada'})")
      assert.equal(summary.counters.updates().nodesCreated, 1)
    })
  })

  test('a reader reads but its write is forbidden, and its session goes on', async () => {
    await as(login('rita'), async driver => {
      const session = driver.session()
      try {
        const e = await neo4jError(session.run("CREATE (:Note {by: 'rita'})"))
        assert.equal(e.code, 'Neo.ClientError.Security.Forbidden')
        const { records } = await session.run("MATCH (n:Note {by: 'rita'}) RETURN count(n) AS c")
        assert.equal(records[0].get('c').toNumber(), 0)
      } finally {
        await session.close()
      }
    })
  })

  // Session auth (Bolt 5.1+ LOGOFF/LOGON on a pooled connection): the session's user,
  // not the driver's, decides.
  test("a session logged in as another user has that user's rights", async () => {
    await as(login('wes'), async driver => {
      const reader = driver.session({ auth: login('rita') })
      try {
        const e = await neo4jError(reader.run("CREATE (:Note {by: 'rita via wes'})"))
        assert.equal(e.code, 'Neo.ClientError.Security.Forbidden')
      } finally {
        await reader.close()
      }
      // A failed LOGON on a pooled connection: the driver (bolt-protocol-v1.js
      // _onLoginError) fails the session's query with a ProtocolError carrying the
      // server's message, and drops the connection.
      const intruder = driver.session({ auth: neo4j.auth.basic('rita', 'wrong') })
      try {
        const e = await neo4jError(intruder.run('RETURN 1'))
        assert.ok([UNAUTHORIZED, 'ProtocolError'].includes(e.code), e.code)
        assert.match(e.message, /authentication failed: unknown user or wrong password/)
      } finally {
        await intruder.close()
      }
      const { summary } = await driver.executeQuery("CREATE (:Note {by: 'wes again'})")
      assert.equal(summary.counters.updates().nodesCreated, 1)
    })
  })

  // `kith user passwd` and `user remove` on a running server's data directory: a new
  // connection (a new driver: pooled connections stay logged in) meets the change.
  test('a changed password and a removed user apply at the next login', async () => {
    kith(['user', 'passwd', 'paul', '--data', dataDir, '--password-stdin'], 'paul-New-5\n')
    await as(login('paul'), async driver => {
      assert.equal((await neo4jError(driver.verifyConnectivity())).code, UNAUTHORIZED)
    })
    await as(neo4j.auth.basic('paul', 'paul-New-5'), driver => driver.verifyConnectivity())
    kith(['user', 'remove', 'paul', '--data', dataDir])
    await as(neo4j.auth.basic('paul', 'paul-New-5'), async driver => {
      assert.equal((await neo4jError(driver.verifyConnectivity())).code, UNAUTHORIZED)
    })
  })
})
