// Neo4j's JavaScript driver over TLS (`kith serve --tls-cert --tls-key`):
// bolt+ssc:// (encrypted, the self-signed certificate accepted), bolt:// with the
// certificate as a trusted authority (verified in full), and plain bolt:// to the
// TLS-only port refused with the driver's own ServiceUnavailable.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import neo4j from 'neo4j-driver'
import { addUser, startTlsServer } from './harness.mjs'

const AUTH = neo4j.auth.basic('will', 'will-pw')

describe('Bolt over TLS', () => {
  let server
  before(async () => {
    server = await startTlsServer(data => addUser(data, 'will', 'writer', 'will-pw'))
  })
  after(async () => { await server?.stop() })

  test('bolt+ssc:// writes and reads', async () => {
    const driver = neo4j.driver(`bolt+ssc://127.0.0.1:${server.boltPort}`, AUTH)
    try {
      await driver.executeQuery('CREATE (:Sealed {id: 7})')
      const { records } = await driver.executeQuery('MATCH (s:Sealed) RETURN s.id AS id')
      assert.deepEqual(records.map(r => r.get('id').toNumber()), [7])
    } finally {
      await driver.close()
    }
  })

  test('the certificate as a trusted authority verifies in full', async () => {
    const driver = neo4j.driver(`bolt://localhost:${server.boltPort}`, AUTH, {
      encrypted: 'ENCRYPTION_ON',
      trust: 'TRUST_CUSTOM_CA_SIGNED_CERTIFICATES',
      trustedCertificates: [server.cert]
    })
    try {
      const { records } = await driver.executeQuery("RETURN 'secret' AS word")
      assert.equal(records[0].get('word'), 'secret')
    } finally {
      await driver.close()
    }
  })

  test('plain bolt:// to the TLS port is refused', async () => {
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.boltPort}`, AUTH, { connectionTimeout: 5000 })
    try {
      await assert.rejects(driver.verifyConnectivity(), e => e.code === 'ServiceUnavailable')
    } finally {
      await driver.close()
    }
  })
})
