// The console's page: sign-in, the editor, results as table / graph / plan, history,
// the server page and the procedure catalogue.
import "./style.css";
import { EditorView, basicSetup } from "codemirror";
import { keymap } from "@codemirror/view";
import { Prec } from "@codemirror/state";
import { autocompletion } from "@codemirror/autocomplete";
import { cypher, completions } from "./cypher.js";
import { Connection, signIn } from "./kith.js";
import { renderTable } from "./table.js";
import { renderPlan } from "./plan.js";
import { GraphView } from "./graph.js";
import { ServerPage } from "./server.js";

const $ = (sel) => document.querySelector(sel);
const HISTORY_KEY = "kith.history";
const HISTORY_MAX = 50;

const state = {
  conn: null,
  token: sessionStorage.getItem("kith.token"),
  user: null,
  schema: { labels: [], types: [], keys: [], procedures: [] },
};

const editor = new EditorView({
  doc: "MATCH (n)-[r]->(m) RETURN n, r, m LIMIT 25",
  parent: $("#editor"),
  extensions: [
    basicSetup,
    EditorView.lineWrapping,
    cypher,
    autocompletion({ override: [completions(state.schema)] }),
    Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => (run(), true) }])),
  ],
});

const graph = new GraphView($("#graph"), $("#legend"), expand);
const server = new ServerPage($("#server-facts"), $("#charts"), authHeaders);

function authHeaders() {
  const scripted = { "x-requested-with": "kith-console" };
  return state.token ? { ...scripted, authorization: `Bearer ${state.token}` } : scripted;
}

function showPage(name) {
  document.querySelectorAll("header nav button").forEach((b) => b.classList.toggle("active", b.dataset.page === name));
  document.querySelectorAll(".page").forEach((p) => p.classList.toggle("active", p.id === `page-${name}`));
  if (name === "server") server.start();
}

function showView(name) {
  document.querySelectorAll(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.view === name));
  document.querySelectorAll(".view").forEach((v) => v.classList.toggle("active", v.id === `view-${name}`));
  if (name === "graph") graph.resize();
}

function showError(error, query) {
  const box = $("#error");
  const where = error.line ? ` (line ${error.line}, column ${error.column})` : "";
  let text = `${error.cypherCode || error.code || "error"}: ${error.message}${where}`;
  if (error.line) {
    const line = query.split("\n")[error.line - 1] || "";
    text += `\n  ${line}\n  ${" ".repeat(Math.max(0, error.column - 1))}^`;
    const at = editor.state.doc.line(Math.min(error.line, editor.state.doc.lines)).from + error.column - 1;
    editor.dispatch({ selection: { anchor: Math.min(at, editor.state.doc.length) } });
    editor.focus();
  }
  box.textContent = text;
  box.hidden = false;
}

async function run() {
  // Sent as written: the server's error positions are then the editor's.
  const query = editor.state.doc.toString();
  if (!query.trim() || !state.conn) return;
  $("#error").hidden = true;
  let params;
  try {
    params = JSON.parse($("#params").value || "{}");
    if (typeof params !== "object" || Array.isArray(params)) throw new Error("not a JSON object");
  } catch (e) {
    $("#status").textContent = "not run";
    showError({ code: "parameters", message: `the parameters are not a JSON object: ${e.message}` }, query);
    return;
  }
  remember(query);
  showNotices([]);
  $("#status").textContent = "running…";
  const started = performance.now();
  try {
    const answer = await state.conn.cypher(query, params);
    const ms = (performance.now() - started).toFixed(1);
    $("#status").textContent = `${answer.rows.length} row(s) in ${ms} ms` + (answer.commit ? `, committed version ${answer.commit.version}` : "");
    renderTable($("#view-table"), answer.columns, answer.rows, answer.commit);
    renderPlan($("#view-plan"), answer.plan);
    showNotices(answer.notifications);
    const drawn = graph.show(answer.rows);
    if (answer.plan) showView("plan");
    else showView(drawn ? "graph" : "table");
  } catch (e) {
    $("#status").textContent = "failed";
    showError(e, query);
  }
}

/// The query's notifications (warnings, information), a line each with where in the
/// text it points; hidden when there are none.
function showNotices(notices) {
  const box = $("#notices");
  box.replaceChildren();
  box.hidden = notices.length === 0;
  for (const n of notices) {
    const li = document.createElement("li");
    li.className = n.severity === "WARNING" ? "warn" : "info";
    const at = n.position ? ` (line ${n.position.line}, column ${n.position.column})` : "";
    li.textContent = `${n.gql_status} ${n.status_description}${at}`;
    li.title = `${n.code}\n${n.description}`;
    box.append(li);
  }
}

async function expand(id) {
  try {
    const answer = await state.conn.cypher("MATCH (n)-[r]-(m) WHERE id(n) = $id RETURN n, r, m LIMIT 50", { id });
    graph.add(answer.rows);
  } catch (e) {
    showError(e, "");
  }
}

function remember(query) {
  const list = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]").filter((q) => q !== query.trim());
  list.unshift(query.trim());
  localStorage.setItem(HISTORY_KEY, JSON.stringify(list.slice(0, HISTORY_MAX)));
  drawHistory();
}

function drawHistory() {
  const list = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
  $("#history").replaceChildren(
    ...list.map((q) => {
      const li = document.createElement("li");
      li.textContent = q;
      li.title = q;
      li.onclick = () => editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: q } });
      return li;
    }),
  );
}

async function loadSchema() {
  const names = async (query) => (await state.conn.cypher(query)).rows.map((r) => r[0]);
  const s = state.schema;
  s.labels.push(...(await names("CALL db.labels()")));
  s.types.push(...(await names("CALL db.relationshipTypes()")));
  s.keys.push(...(await names("CALL db.propertyKeys()")));
  const procs = await state.conn.cypher("SHOW PROCEDURES");
  s.procedures.push(...procs.rows.map((r) => r[procs.columns.indexOf("name")]));
  renderTable($("#procedures"), procs.columns, procs.rows);
}

async function connect() {
  state.conn = await Connection.open(state.token);
  state.conn.onclose = () => ($("#status").textContent = "disconnected: reload the page");
  $("#login").hidden = true;
  $("#who").textContent = state.user ? `signed in as ${state.user}` : "";
  await loadSchema();
  document.body.dataset.ready = "true";
}

$("#login form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  try {
    state.token = await signIn(form.get("user"), form.get("password"));
    state.user = form.get("user");
    sessionStorage.setItem("kith.token", state.token);
    await connect();
  } catch (err) {
    $("#login-error").textContent = err.message;
  }
});

document.querySelectorAll("header nav button").forEach((b) => (b.onclick = () => showPage(b.dataset.page)));
document.querySelectorAll(".tabs button").forEach((b) => (b.onclick = () => showView(b.dataset.view)));
$("#run").onclick = run;
drawHistory();
renderPlan($("#view-plan"), null);

connect().catch(() => {
  sessionStorage.removeItem("kith.token");
  state.token = null;
  $("#login").hidden = false;
});

window.kithConsole = { state, graph, editor, server, run };
