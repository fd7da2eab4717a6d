// Runs real `kith serve` processes with Bolt for Neo4j's own JavaScript driver, as
// tests/drivers/python/conftest.py does for the Python one. The binary is $KITH_BIN
// (scripts/test sets it); the LDBC server's data is the official SNB Interactive test
// set, loaded with `kith load ldbc` once per test file.
import neo4j from 'neo4j-driver'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import https from 'node:https'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const SHARED = path.join(REPO, '..', 'shared', 'data')
export const FIXTURES = path.join(REPO, 'crates', 'kith-cypher', 'tests', 'fixtures', 'neo4j-official')

export function kithBin () {
  const bin = process.env.KITH_BIN || path.join(REPO, 'target', 'release', 'kith')
  if (!fs.existsSync(bin)) {
    throw new Error(`no kith binary at ${bin}: build it with cargo build --release --bin kith`)
  }
  return bin
}

/** A fresh directory, removed by the returned function. */
export function tempDir (prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kith-js-${prefix}-`))
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

function freePort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

function tail (file) {
  try {
    return fs.readFileSync(file, 'utf8').slice(-4000)
  } catch {
    return '(no log)'
  }
}

async function healthy (httpPort, tls) {
  if (tls) return healthyTls(httpPort, tls)
  try {
    const answer = await fetch(`http://127.0.0.1:${httpPort}/health`, { signal: AbortSignal.timeout(1000) })
    return answer.ok
  } catch {
    return false
  }
}

/** /health over https, trusting the server's own certificate (fetch cannot be told to). */
function healthyTls (httpPort, tls) {
  return new Promise(resolve => {
    const request = https.get({ host: 'localhost', port: httpPort, path: '/health', ca: fs.readFileSync(tls.cert), timeout: 1000 },
      answer => { answer.resume(); resolve(answer.statusCode === 200) })
    request.on('error', () => resolve(false))
    request.on('timeout', () => { request.destroy(); resolve(false) })
  })
}

// Servers still running when this test process exits (a crash, a timeout) are killed
// rather than left behind holding ports and data directories.
const running = new Set()
process.on('exit', () => { for (const child of running) child.kill('SIGKILL') })

/**
 * Starts `kith serve` on `data` with its output in `log`, and resolves once /health
 * answers. With `tls` ({ cert, key } files) the server speaks TLS only. The result's
 * `stop()` sends SIGTERM and waits for a clean exit.
 */
export async function startServer (data, log, tls = null) {
  const httpPort = await freePort()
  const boltPort = await freePort()
  const out = fs.openSync(log, 'w')
  const encrypted = tls ? ['--tls-cert', tls.cert, '--tls-key', tls.key] : []
  const child = spawn(kithBin(), ['serve', '--data', data, '--listen', `127.0.0.1:${httpPort}`,
    '--bolt-listen', `127.0.0.1:${boltPort}`, '--workers', '2', ...encrypted], { stdio: ['ignore', out, out] })
  fs.closeSync(out)
  running.add(child)
  let exited = null
  child.on('exit', (code, signal) => {
    exited = { code, signal }
    running.delete(child)
  })
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (exited) throw new Error(`kith serve exited (${JSON.stringify(exited)}):\n${tail(log)}`)
    if (await healthy(httpPort, tls)) return server(child, httpPort, boltPort, () => exited)
    await sleep(100)
  }
  child.kill('SIGKILL')
  throw new Error(`kith serve did not answer /health within 30 s:\n${tail(log)}`)
}

function server (child, httpPort, boltPort, exited) {
  return {
    httpPort,
    boltPort,
    bolt: `bolt://127.0.0.1:${boltPort}`,
    neo4j: `neo4j://127.0.0.1:${boltPort}`,
    async stop () {
      if (exited()) return
      const done = new Promise(resolve => child.once('exit', resolve))
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
      await done
      clearTimeout(killer)
    }
  }
}

/** Runs the kith CLI to completion; throws with its output when it fails. */
export function kith (args, input) {
  const run = spawnSync(kithBin(), args, { input, encoding: 'utf8' })
  if (run.status !== 0) {
    throw new Error(`kith ${args.join(' ')} failed (${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`)
  }
  return run.stdout
}

/**
 * Creates a user in the data directory `data` before a server starts on it
 * (`kith user add`; the password goes on standard input, never on the command line).
 */
export function addUser (data, name, role, password) {
  kith(['user', 'add', name, '--role', role, '--data', data, '--password-stdin'], `${password}\n`)
}

/** A server on the official LDBC SNB Interactive test data. */
export async function startLdbcServer () {
  return serveIn('ldbc', data => {
    kith(['load', 'ldbc', path.join(SHARED, 'ldbc-snb-interactive-test', 'vanilla'), '--out', data])
  })
}

/**
 * A server on an empty, writable database of its own; `prepare(data)` runs first on
 * its (not yet created) data directory.
 */
export function startWriteServer (prepare = () => {}) {
  return serveIn('write', prepare)
}

/**
 * A writable server that speaks TLS only, with a self-signed certificate for
 * localhost and 127.0.0.1 (scripts/test-cert); the result's `cert` is its file.
 */
export function startTlsServer (prepare = () => {}) {
  return serveIn('tls', prepare, dir => {
    const tls = { cert: path.join(dir, 'server.crt'), key: path.join(dir, 'server.key') }
    const made = spawnSync('bash', [path.join(REPO, 'scripts', 'test-cert'), dir], { encoding: 'utf8' })
    if (made.status !== 0) throw new Error(`scripts/test-cert failed: ${made.stderr}`)
    return tls
  })
}

/** A server on `DIR/data` of a new temporary DIR, removed when the server stops (or fails to start). */
async function serveIn (prefix, prepare, certify = () => null) {
  const tmp = tempDir(prefix)
  try {
    const data = path.join(tmp.dir, 'data')
    prepare(data)
    const tls = certify(tmp.dir)
    const srv = await startServer(data, path.join(tmp.dir, 'serve.log'), tls)
    return { ...srv, cert: tls?.cert, stop: async () => { await srv.stop(); tmp.remove() } }
  } catch (e) {
    tmp.remove()
    throw e
  }
}

/** Resolves to the Neo4jError `promise` rejects with; fails if it resolves. */
export async function neo4jError (promise) {
  try {
    await promise
  } catch (e) {
    assert.ok(e instanceof neo4j.Neo4jError, `expected a Neo4jError, got ${e}`)
    return e
  }
  assert.fail('expected the server to refuse')
}
