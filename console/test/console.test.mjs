// The console in a real headless Chromium (Debian's `chromium`, driven by
// puppeteer-core), against a real `kith serve`: run a query and see the table, see
// drawn nodes in the graph view and expand one by double-click, complete a label,
// see an error with its position, draw a PROFILE plan, watch the server page's live
// charts, list the procedures, and sign in to a server with users. Screenshots of each
// view go to $SCREENSHOTS (docs/console.md shows them).
//
//   KITH_BIN=target/release/kith node console/test/console.test.mjs
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import assert from "node:assert/strict";
import puppeteer from "puppeteer-core";

const root = resolve(import.meta.dirname, "../..");
const kith = process.env.KITH_BIN || join(root, "target/release/kith");
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const shots = process.env.SCREENSHOTS || join(root, "target/console-screenshots");
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "kith-console-"));
const servers = [];

const freePort = () =>
  new Promise((ok) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });

async function serve(data) {
  const port = await freePort();
  const child = spawn(kith, ["serve", "--data", data, "--listen", `127.0.0.1:${port}`, "--bolt-listen", "off"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  servers.push(child);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return `http://127.0.0.1:${port}/`;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("kith serve did not start");
}

function generate(dir) {
  execFileSync(kith, ["generate", "shindig", "--scale", "0.1", "--out", dir], { stdio: "ignore" });
}

async function type(page, query) {
  await page.click(".cm-content");
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(query);
  await page.keyboard.press("Escape"); // close a completion popup, if any
}

async function run(page, query) {
  await type(page, query);
  const before = await page.$eval("#status", (s) => s.textContent);
  await page.click("#run");
  await page.waitForFunction(
    (b) => {
      const s = document.querySelector("#status").textContent;
      return s !== b && s !== "running…";
    },
    {},
    before,
  );
}

const nodesDrawn = (page) => page.evaluate(() => window.kithConsole.graph.cy.nodes().length);

async function openServer(browser) {
  const data = join(work, "open");
  generate(data);
  const url = await serve(data);
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 860 });
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]");

  // A query's rows as a table.
  await run(page, "MATCH (p:Person)-[:FRIEND_OF]->(f:Person) RETURN p.displayName AS person, f.displayName AS friend LIMIT 8");
  assert.equal(await page.$$eval("#view-table tbody tr", (r) => r.length), 8);
  assert.match(await page.$eval("#status", (s) => s.textContent), /8 row\(s\)/);
  await page.screenshot({ path: join(shots, "table.png") });

  // Nodes and relationships as a graph; a double-click adds a node's neighbours.
  await run(page, "MATCH (p:Person)-[r:FRIEND_OF]->(f:Person) RETURN p, r, f LIMIT 12");
  assert.ok(await page.$eval("#view-graph", (v) => v.classList.contains("active")), "the graph view opens for nodes");
  const drawn = await nodesDrawn(page);
  assert.ok(drawn > 1, `drew ${drawn} nodes`);
  const at = await page.evaluate(() => {
    const cy = window.kithConsole.graph.cy;
    const box = cy.container().getBoundingClientRect();
    const p = cy.nodes()[0].renderedPosition();
    return { x: box.left + p.x, y: box.top + p.y };
  });
  await page.mouse.click(at.x, at.y, { clickCount: 1 });
  await page.mouse.click(at.x, at.y, { clickCount: 2 });
  await page.waitForFunction((n) => window.kithConsole.graph.cy.nodes().length > n, { timeout: 10000 }, drawn);
  await page.screenshot({ path: join(shots, "graph.png") });

  // Completion of labels from the server's schema.
  await type(page, "MATCH (p:Pers");
  await page.keyboard.down("Control");
  await page.keyboard.press("Space");
  await page.keyboard.up("Control");
  await page.waitForSelector(".cm-tooltip-autocomplete");
  const offered = await page.$eval(".cm-tooltip-autocomplete", (t) => t.textContent);
  assert.match(offered, /Person/);
  await page.screenshot({ path: join(shots, "completion.png") });
  await page.keyboard.press("Escape");

  // An error with its position.
  await run(page, "MATCH (p:Person RETURN p");
  const error = await page.$eval("#error", (e) => (e.hidden ? "" : e.textContent));
  assert.match(error, /SyntaxError/);
  assert.match(error, /line 1, column 17/);
  assert.match(error, /\n  MATCH \(p:Person RETURN p\)\n {18}\^/);
  await page.screenshot({ path: join(shots, "error.png") });

  // Notifications beside the answer: a cartesian product, an unknown label.
  await run(page, "MATCH (p:Person), (q:Persn) RETURN count(*) AS n");
  const notices = await page.$$eval("#notices li", (l) => l.map((x) => x.textContent));
  assert.ok(notices.some((n) => n.startsWith("03N90 info: cartesian product")), notices.join(" | "));
  assert.ok(notices.some((n) => /^01N50 .*`Persn`.*\(line 1, column 22\)$/.test(n)), notices.join(" | "));
  await page.screenshot({ path: join(shots, "notifications.png") });
  await run(page, "MATCH (p:Person) RETURN count(*) AS n");
  assert.ok(await page.$eval("#notices", (b) => b.hidden), "no notifications, none shown");

  // A PROFILE plan as a tree.
  await run(page, "PROFILE MATCH (p:Person)-[:FRIEND_OF]->(f) WHERE p.id < 50 RETURN count(f) AS friends");
  assert.ok(await page.$eval("#view-plan", (v) => v.classList.contains("active")));
  const ops = await page.$$eval("#view-plan .op", (o) => o.map((x) => x.textContent));
  assert.ok(ops.length >= 2 && ops.some((o) => /rows/.test(o)), ops.join(" | "));
  await page.screenshot({ path: join(shots, "plan.png") });

  // History: the queries run, newest first; a click loads one.
  const history = await page.$$eval("#history li", (l) => l.map((x) => x.textContent));
  assert.ok(history[0].startsWith("PROFILE"), history[0]);
  // Bad parameters are refused before anything runs.
  await page.$eval("#params", (t) => (t.value = "{oops"));
  await run(page, "RETURN $x AS x");
  assert.match(await page.$eval("#error", (e) => e.textContent), /not a JSON object/);
  await page.$eval("#params", (t) => (t.value = '{"x": 42}'));
  await run(page, "RETURN $x AS x");
  assert.equal(await page.$eval("#view-table td", (t) => t.textContent), "42");

  // The server page's live charts, with traffic.
  await page.click('header nav button[data-page="server"]');
  for (let i = 0; i < 20; i++) await page.evaluate(() => window.kithConsole.state.conn.cypher("RETURN 1"));
  await page.waitForFunction(() => window.kithConsole.server.polls >= 3, { timeout: 10000 });
  assert.equal(await page.$$eval("#charts .chart canvas", (c) => c.length), 5);
  assert.match(await page.$eval("#server-facts", (f) => f.textContent), /nodes/);
  await page.screenshot({ path: join(shots, "server.png") });

  // The procedure catalogue.
  await page.click('header nav button[data-page="procedures"]');
  const procs = await page.$eval("#procedures", (p) => p.textContent);
  assert.match(procs, /ldbc\.ic1/);
  assert.match(procs, /db\.labels/);
  await page.screenshot({ path: join(shots, "procedures.png") });
  await page.close();
}

async function securedServer(browser) {
  const data = join(work, "secured");
  generate(data);
  execFileSync(kith, ["user", "add", "ada", "--role", "admin", "--data", data, "--password-stdin"], {
    input: "ädä-pw\n", // not ASCII: the sign-in must send it as UTF-8
    stdio: ["pipe", "ignore", "inherit"],
  });
  const url = await serve(data);
  const page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 860 });
  await page.goto(url);
  await page.waitForSelector("#login:not([hidden])");
  await page.type("#login input[name=user]", "ada");
  await page.type("#login input[name=password]", "wrong");
  await page.click("#login button");
  await page.waitForFunction(() => document.querySelector("#login-error").textContent !== "");
  assert.match(await page.$eval("#login-error", (e) => e.textContent), /authentication failed/);
  await page.screenshot({ path: join(shots, "login.png") });
  await page.$eval("#login input[name=password]", (i) => (i.value = ""));
  await page.type("#login input[name=password]", "ädä-pw");
  await page.click("#login button");
  await page.waitForSelector("body[data-ready=true]");
  assert.match(await page.$eval("#who", (w) => w.textContent), /ada/);
  await run(page, "MATCH (p:Person) RETURN count(p) AS people");
  assert.equal(await page.$$eval("#view-table tbody tr", (r) => r.length), 1);
  await page.close();
}

const browser = await puppeteer.launch({ executablePath: chromium, args: ["--no-sandbox"], headless: true });
try {
  await openServer(browser);
  await securedServer(browser);
  console.log(`console: all checks passed; screenshots in ${shots}`);
} finally {
  await browser.close();
  servers.forEach((s) => s.kill());
  rmSync(work, { recursive: true, force: true });
}
