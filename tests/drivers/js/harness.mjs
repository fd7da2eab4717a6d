// Runs real `kith serve` processes with Bolt for Neo4j's own JavaScript driver, as
// tests/drivers/python/conftest.py does for the Python one. The binary is $KITH_BIN
// (scripts/test sets it); the LDBC server's data is the official SNB Interactive test
// set, loaded with `kith load ldbc` once per test file.
import neo4j from 'neo4j-driver'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
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

async function healthy (httpPort) {
  try {
    const answer = await fetch(`http://127.0.0.1:${httpPort}/health`, { signal: AbortSignal.timeout(1000) })
    return answer.ok
  } catch {
    return false
  }
}

// Servers still running when this test process exits (a crash, a timeout) are killed
// rather than left behind holding ports and data directories.
const running = new Set()
process.on('exit', () => { for (const child of running) child.kill('SIGKILL') })

/**
 * Starts `kith serve` on `data` with its output in `log`, and resolves once /health
 * answers. The result's `stop()` sends SIGTERM and waits for a clean exit.
 */
export async function startServer (data, log) {
  const httpPort = await freePort()
  const boltPort = await freePort()
  const out = fs.openSync(log, 'w')
  const child = spawn(kithBin(), ['serve', '--data', data, '--listen', `127.0.0.1:${httpPort}`,
    '--bolt-listen', `127.0.0.1:${boltPort}`, '--workers', '2'], { stdio: ['ignore', out, out] })
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
    if (await healthy(httpPort)) return server(child, httpPort, boltPort, () => exited)
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

/** A server on `DIR/data` of a new temporary DIR, removed when the server stops (or fails to start). */
async function serveIn (prefix, prepare) {
  const tmp = tempDir(prefix)
  try {
    const data = path.join(tmp.dir, 'data')
    prepare(data)
    const srv = await startServer(data, path.join(tmp.dir, 'serve.log'))
    return { ...srv, stop: async () => { await srv.stop(); tmp.remove() } }
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
