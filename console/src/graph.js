// Nodes and relationships of an answer drawn with Cytoscape's force-directed layout
// (cose), coloured by label; double-clicking a node adds its neighbours.
import cytoscape from "cytoscape";
import { collect } from "./values.js";

const PALETTE = ["#4c8eda", "#f79767", "#57c7e3", "#8dcc93", "#ecb5c9", "#d9c8ae", "#c990c0", "#f16667", "#ffc454", "#6dce9e"];
const CAPTION_KEYS = ["name", "displayName", "title", "firstName", "id"];

export class GraphView {
  constructor(container, legend, expand) {
    this.legend = legend;
    this.colors = new Map();
    this.cy = cytoscape({
      container,
      wheelSensitivity: 0.3,
      style: [
        {
          selector: "node",
          style: {
            "background-color": "data(color)",
            label: "data(caption)",
            "font-size": 10,
            "text-valign": "center",
            color: "#fff",
            "text-outline-color": "data(color)",
            "text-outline-width": 2,
            width: 34,
            height: 34,
          },
        },
        {
          selector: "edge",
          style: {
            width: 1.5,
            "line-color": "#a5abb6",
            "target-arrow-color": "#a5abb6",
            "target-arrow-shape": "triangle",
            "curve-style": "bezier",
            label: "data(type)",
            "font-size": 8,
            "text-rotation": "autorotate",
            color: "#555",
          },
        },
      ],
    });
    this.cy.on("dbltap", "node", (e) => expand(Number(e.target.data("kid"))));
  }

  color(label) {
    if (!this.colors.has(label)) this.colors.set(label, PALETTE[this.colors.size % PALETTE.length]);
    return this.colors.get(label);
  }

  /// Replaces the drawing with `rows`' nodes and relationships; their count.
  show(rows) {
    this.cy.elements().remove();
    return this.add(rows);
  }

  /// Adds `rows`' nodes and relationships and lays the whole out again.
  add(rows) {
    const { nodes, rels } = collect(rows);
    const elements = [];
    for (const n of nodes.values()) {
      if (this.cy.getElementById("n" + n._id).length) continue;
      const label = n._labels[0] || "";
      const key = CAPTION_KEYS.find((k) => n.properties[k] !== undefined);
      const caption = key ? String(n.properties[key]) : `#${n._id}`;
      elements.push({ group: "nodes", data: { id: "n" + n._id, kid: n._id, caption, label, color: this.color(label) } });
    }
    for (const r of rels.values()) {
      if (this.cy.getElementById("r" + r._id).length) continue;
      const ends = ["n" + r._start, "n" + r._end];
      if (!ends.every((id) => nodes.has(Number(id.slice(1))) || this.cy.getElementById(id).length)) continue;
      elements.push({ group: "edges", data: { id: "r" + r._id, source: ends[0], target: ends[1], type: r._type } });
    }
    this.cy.add(elements);
    this.cy.layout({ name: "cose", animate: false, nodeRepulsion: () => 8000, idealEdgeLength: () => 80 }).run();
    this.drawLegend();
    return nodes.size;
  }

  drawLegend() {
    this.legend.replaceChildren(
      ...[...this.colors].map(([label, color]) => {
        const s = document.createElement("span");
        s.style.background = color;
        const count = this.cy.nodes().filter((n) => n.data("label") === label).length;
        s.textContent = `${label || "(no label)"} ${count}`;
        return s;
      }),
    );
  }

  resize() {
    this.cy.resize();
    this.cy.fit(undefined, 30);
  }
}
