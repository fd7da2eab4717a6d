// Cypher in CodeMirror 6: highlighting (a stream tokenizer) and completion of
// keywords, functions, labels, relationship types, property keys and procedures,
// the names coming from the server (db.labels() and friends, SHOW PROCEDURES).
import { StreamLanguage } from "@codemirror/language";

const KEYWORDS = `MATCH OPTIONAL WHERE RETURN WITH UNWIND AS ORDER BY ASC ASCENDING DESC DESCENDING
SKIP LIMIT CREATE MERGE SET DELETE DETACH REMOVE CALL YIELD UNION ALL DISTINCT AND OR XOR
NOT IN IS NULL TRUE FALSE CASE WHEN THEN ELSE END EXISTS COUNT ON FOREACH STARTS ENDS
CONTAINS EXPLAIN PROFILE SHOW TRANSACTIONS TRANSACTION TERMINATE PROCEDURES USE`.split(/\s+/);

const FUNCTIONS = `count sum avg min max collect size length labels type id keys properties
nodes relationships head last tail range coalesce toString toInteger toFloat toLower toUpper
trim split substring replace abs ceil floor round sqrt rand date datetime localdatetime time
localtime duration timestamp shortestPath allShortestPaths startNode endNode exists reduce`.split(/\s+/);

const KEYWORD_SET = new Set(KEYWORDS);

export const cypher = StreamLanguage.define({
  name: "cypher",
  startState: () => ({ comment: false }),
  token(stream, state) {
    if (state.comment) {
      if (stream.skipTo("*/")) {
        stream.match("*/");
        state.comment = false;
      } else stream.skipToEnd();
      return "comment";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match("/*")) {
      state.comment = true;
      return "comment";
    }
    const quote = stream.peek();
    if (quote === '"' || quote === "'") {
      stream.next();
      let escaped = false;
      for (let c; (c = stream.next()) !== undefined; ) {
        if (c === quote && !escaped) break;
        escaped = !escaped && c === "\\";
      }
      return "string";
    }
    if (stream.match(/^`[^`]*`?/)) return "variableName";
    if (stream.match(/^\$\w+/)) return "atom";
    if (stream.match(/^\d+(\.\d+)?([eE][-+]?\d+)?/)) return "number";
    if (stream.match(/^:\s*\w+/)) return "typeName";
    if (stream.match(/^\w+/)) {
      const word = stream.current();
      if (KEYWORD_SET.has(word.toUpperCase())) return "keyword";
      if (stream.peek() === "(") return "function";
      return "variableName";
    }
    stream.next();
    return "operator";
  },
});

/// The completion source: what fits before the cursor, from `schema` (labels, types,
/// keys, procedures), filled in as the server answers.
export function completions(schema) {
  return (context) => {
    const word = context.matchBefore(/[:.]?[\w.]*/);
    if (!word || (word.from === word.to && !context.explicit)) return null;
    const before = context.state.sliceDoc(Math.max(0, word.from - 16), word.from);
    if (/CALL\s+$/i.test(before)) {
      return { from: word.from, options: schema.procedures.map((p) => ({ label: p, type: "function" })) };
    }
    if (word.text.startsWith(":")) {
      const options = [
        ...schema.labels.map((l) => ({ label: l, type: "class", detail: "label" })),
        ...schema.types.map((t) => ({ label: t, type: "type", detail: "relationship type" })),
      ];
      return { from: word.from + 1, options };
    }
    const dot = word.text.lastIndexOf(".");
    if (dot > 0) {
      return { from: word.from + dot + 1, options: schema.keys.map((k) => ({ label: k, type: "property" })) };
    }
    return {
      from: word.from,
      options: [
        ...KEYWORDS.map((k) => ({ label: k, type: "keyword" })),
        ...FUNCTIONS.map((f) => ({ label: f, type: "function", apply: f + "(" })),
      ],
    };
  };
}
