// kith's values as the console shows them: nodes, relationships and paths arrive as
// maps of a known shape (docs/cypher.md), temporal values as {"$kind": text}.

export const isNode = (v) => v && typeof v === "object" && "_id" in v && "_labels" in v;
export const isRel = (v) => v && typeof v === "object" && "_id" in v && "_type" in v;
export const isPath = (v) => v && typeof v === "object" && Array.isArray(v.nodes) && Array.isArray(v.relationships);

const TEMPORAL = ["$datetime", "$date", "$time", "$localtime", "$localdatetime", "$duration"];

/// A value as one line of text, Cypher-like.
export function show(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v !== "object") return String(v);
  if (Array.isArray(v)) return "[" + v.map(show).join(", ") + "]";
  const keys = Object.keys(v);
  if (keys.length === 1 && TEMPORAL.includes(keys[0])) {
    const t = v[keys[0]];
    return typeof t === "number" ? new Date(t).toISOString() : t;
  }
  if (isNode(v)) return `(${v._labels.map((l) => ":" + l).join("")} ${show(v.properties)})`;
  if (isRel(v)) return `[:${v._type} ${show(v.properties)}]`;
  if (isPath(v)) return `path of ${v.relationships.length}`;
  return "{" + keys.map((k) => `${k}: ${show(v[k])}`).join(", ") + "}";
}

/// Every node and relationship in `rows`, however deep, by id.
export function collect(rows) {
  const nodes = new Map();
  const rels = new Map();
  const visit = (v) => {
    if (!v || typeof v !== "object") return;
    if (Array.isArray(v)) return v.forEach(visit);
    if (isNode(v)) return void nodes.set(v._id, v);
    if (isRel(v)) return void rels.set(v._id, v);
    if (isPath(v)) {
      v.nodes.forEach(visit);
      v.relationships.forEach(visit);
      return;
    }
    Object.values(v).forEach(visit);
  };
  rows.forEach(visit);
  return { nodes, rels };
}
