// An EXPLAIN or PROFILE plan (operator, details, estimatedRows, rows, dbHits, timeUs,
// children) as a tree of boxes, the result's operator at the top.
export function renderPlan(into, plan) {
  into.replaceChildren();
  if (!plan) {
    into.textContent = "Prefix a query with EXPLAIN or PROFILE to see its plan.";
    return;
  }
  const list = document.createElement("ul");
  list.className = "plan";
  list.appendChild(node(plan));
  into.appendChild(list);
}

function node(op) {
  const li = document.createElement("li");
  const box = document.createElement("div");
  box.className = "op";
  const name = document.createElement("b");
  name.textContent = op.operator;
  const details = document.createElement("div");
  details.className = "details";
  details.textContent = op.details || "";
  const figures = document.createElement("div");
  figures.className = "figures";
  const parts = [`est. ${Math.round(op.estimatedRows)} rows`];
  if (op.rows !== undefined) parts.push(`${op.rows} rows`);
  if (op.dbHits !== undefined) parts.push(`${op.dbHits} db hits`);
  if (op.timeUs !== undefined) parts.push(`${op.timeUs.toFixed(1)} µs`);
  figures.textContent = parts.join(" · ");
  box.append(name, details, figures);
  li.appendChild(box);
  if (op.children && op.children.length) {
    const ul = document.createElement("ul");
    op.children.forEach((c) => ul.appendChild(node(c)));
    li.appendChild(ul);
  }
  return li;
}
