// kith's WebSocket protocol (docs/protocol.md 1.2), JSON encoding: each message is a
// 12-byte header (version 1, kind, flags, reserved, request id u64 LE) and a JSON
// document. Results come in chunks; the last has flag bit 1 clear.

const REQUEST = 1;
const RESULT = 16;
const ERROR = 17;
const MORE = 0x02;

export class KithError extends Error {
  constructor(doc) {
    super(doc.message || doc.code);
    this.code = doc.code;
    this.cypherCode = doc.cypher_code;
    this.line = doc.line;
    this.column = doc.column;
  }
}

export class Connection {
  constructor(ws) {
    this.ws = ws;
    this.next = 1;
    this.pending = new Map();
    ws.binaryType = "arraybuffer";
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      for (const p of this.pending.values()) p.reject(new KithError({ code: "closed", message: "the connection closed" }));
      this.pending.clear();
      if (this.onclose) this.onclose();
    };
  }

  /// Opens a connection; `token` (from POST /v1/auth/token) when the server has users.
  static open(token) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?access_token=${encodeURIComponent(token)}` : "";
    const ws = new WebSocket(`${scheme}://${location.host}/v1/ws${query}`, ["kith.v1.json.none"]);
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve(new Connection(ws));
      ws.onerror = () => reject(new Error("the server refused the connection"));
    });
  }

  /// Runs a Cypher query: {columns, rows, plan, commit, notifications}.
  cypher(query, params = {}) {
    return this.request({ cypher: query, params });
  }

  request(doc) {
    const id = this.next++;
    const body = new TextEncoder().encode(JSON.stringify(doc));
    const frame = new Uint8Array(12 + body.length);
    frame[0] = 1;
    frame[1] = REQUEST;
    new DataView(frame.buffer).setBigUint64(4, BigInt(id), true);
    frame.set(body, 12);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, columns: [], rows: [] });
      this.ws.send(frame);
    });
  }

  receive(data) {
    const bytes = new Uint8Array(data);
    const view = new DataView(data);
    const kind = bytes[1];
    const flags = bytes[2];
    const id = Number(view.getBigUint64(4, true));
    const doc = JSON.parse(new TextDecoder().decode(bytes.subarray(12)));
    if (kind === ERROR && id === 0) {
      // An error the server could not tie to a request (a frame too large to read):
      // it answers every request in flight, and the connection closes after it.
      for (const q of this.pending.values()) q.reject(new KithError(doc));
      this.pending.clear();
      return;
    }
    const p = this.pending.get(id);
    if (!p) return;
    if (kind === ERROR) {
      this.pending.delete(id);
      p.reject(new KithError(doc));
      return;
    }
    if (kind !== RESULT) return;
    if (doc.columns) p.columns = doc.columns;
    if (doc.rows) p.rows.push(...doc.rows);
    if (flags & MORE) return;
    this.pending.delete(id);
    p.resolve({ columns: p.columns, rows: p.rows, plan: doc.plan, commit: doc.commit, notifications: doc.notifications || [] });
  }
}

/// Base64 of the text's UTF-8 bytes (`btoa` alone takes Latin-1 and throws on more).
function base64(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/// A token for `user`/`password`, or an error saying why not.
export async function signIn(user, password) {
  const answer = await fetch("/v1/auth/token", {
    method: "POST",
    // X-Requested-With: the server then challenges with Bearer, and the browser shows
    // no password dialog of its own on a wrong password.
    headers: { authorization: "Basic " + base64(`${user}:${password}`), "x-requested-with": "kith-console" },
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.message || `HTTP ${answer.status}`);
  return body.token;
}
