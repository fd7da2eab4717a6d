// The server page: /health facts and live charts from /metrics (Prometheus text),
// polled every second: requests/s, latency percentiles, open connections, the write
// queue, and replication lag (a primary's versions not yet in Kafka, a replica's
// messages of the log not yet applied).
import uPlot from "uplot";

const WINDOW = 120;

/// `name{labels} value` lines as [name, labels, value].
function parse(text) {
  const out = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = line.match(/^(\w+)(\{[^}]*\})?\s+(\S+)$/);
    if (m) out.push([m[1], m[2] || "", Number(m[3])]);
  }
  return out;
}

const sum = (samples, name) => samples.filter(([n]) => n === name).reduce((a, [, , v]) => a + v, 0);

/// Latency buckets summed over transports and procedures: [[le, count]...], ascending.
function buckets(samples) {
  const by = new Map();
  for (const [n, labels, v] of samples) {
    if (n !== "kith_request_duration_seconds_bucket") continue;
    const le = labels.match(/le="([^"]+)"/)[1];
    const bound = le === "+Inf" ? Infinity : Number(le);
    by.set(bound, (by.get(bound) || 0) + v);
  }
  return [...by].sort((a, b) => a[0] - b[0]);
}

/// The q-quantile (ms) of the requests between two bucket snapshots.
function quantile(now, before, q) {
  const counts = now.map(([le, c], i) => [le, c - (before[i] ? before[i][1] : 0)]);
  const total = counts.length ? counts[counts.length - 1][1] : 0;
  if (total <= 0) return null;
  const want = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const [le, c] of counts) {
    if (c >= want) {
      if (le === Infinity) return prevLe * 1000;
      const within = c - prevCount || 1;
      return (prevLe + ((want - prevCount) / within) * (le - prevLe)) * 1000;
    }
    prevLe = le;
    prevCount = c;
  }
  return null;
}

class Chart {
  constructor(parent, title, series, unit) {
    const box = document.createElement("div");
    box.className = "chart";
    box.innerHTML = `<h4></h4>`;
    box.querySelector("h4").textContent = title;
    parent.appendChild(box);
    this.data = [[], ...series.map(() => [])];
    this.plot = new uPlot(
      {
        width: 400,
        height: 180,
        series: [{}, ...series.map((s, i) => ({ label: s, stroke: ["#1f6feb", "#f79767", "#8a1c1c"][i], width: 1.5 }))],
        axes: [{}, { values: (u, vals) => vals.map((v) => v + unit) }],
        scales: { x: { time: true } },
      },
      this.data,
      box,
    );
  }

  push(t, values) {
    this.data[0].push(t);
    values.forEach((v, i) => this.data[i + 1].push(v));
    if (this.data[0].length > WINDOW) this.data.forEach((d) => d.shift());
    this.plot.setData(this.data);
  }
}

export class ServerPage {
  constructor(facts, charts, headers) {
    this.facts = facts;
    this.headers = headers;
    this.charts = {
      rate: new Chart(charts, "Requests per second", ["requests/s"], ""),
      latency: new Chart(charts, "Latency (ms)", ["p50", "p95", "p99"], " ms"),
      connections: new Chart(charts, "Open connections", ["connections"], ""),
      queue: new Chart(charts, "Write queue depth", ["transactions waiting"], ""),
      lag: new Chart(charts, "Replication lag", ["primary: versions not yet in Kafka", "replica: messages behind"], ""),
    };
    this.before = null;
    this.polls = 0;
  }

  start() {
    if (this.timer) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), 1000);
  }

  async poll() {
    const get = (path) => fetch(path, { headers: this.headers() });
    const [health, metrics] = await Promise.all([get("/health"), get("/metrics")]);
    if (!health.ok || !metrics.ok) return;
    const h = await health.json();
    const samples = parse(await metrics.text());
    const now = { t: Date.now() / 1000, count: sum(samples, "kith_request_duration_seconds_count"), buckets: buckets(samples) };
    const repl = h.replication;
    this.facts.textContent =
      `version ${h.version} · ${h.nodes} nodes · ${h.relationships} relationships · ` +
      `${h.writable ? "writable" : "read-only"} · durability ${h.durability}` +
      (repl ? ` · ${repl.role}${repl.role === "replica" ? ` of ${repl.replica_of} (${repl.state})` : ""}` : "");
    if (this.before) {
      const dt = now.t - this.before.t;
      this.charts.rate.push(now.t, [(now.count - this.before.count) / dt]);
      this.charts.latency.push(now.t, [0.5, 0.95, 0.99].map((q) => quantile(now.buckets, this.before.buckets, q)));
    }
    this.charts.connections.push(now.t, [sum(samples, "kith_connections_open")]);
    this.charts.queue.push(now.t, [sum(samples, "kith_write_queue_depth")]);
    const acked = samples.find(([n]) => n === "kith_replication_acknowledged_version");
    const behind = samples.find(([n]) => n === "kith_replica_messages_behind");
    this.charts.lag.push(now.t, [acked ? h.version - acked[2] : null, behind ? behind[2] : null]);
    this.before = now;
    this.polls += 1;
  }
}
