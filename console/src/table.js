// Rows as an HTML table.
import { show } from "./values.js";

export function renderTable(into, columns, rows, commit) {
  into.replaceChildren();
  if (!columns.length) {
    into.textContent = commit ? `Committed version ${commit.version}.` : "No columns.";
    return;
  }
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const c of columns) {
    const th = document.createElement("th");
    th.textContent = c;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const v of row) {
      const td = tr.insertCell();
      td.textContent = show(v);
      td.title = td.textContent;
    }
  }
  into.appendChild(table);
}
