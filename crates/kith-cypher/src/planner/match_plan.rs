//! Ordering one MATCH into steps.

use rustc_hash::FxHashSet;

use super::walk_filters::Walk;
use super::{Dir, Expand, IndexSeek, NodeKey, Step, WalkFilters};
use crate::ast::{PathKind, RelDirection};
use crate::binder::needed_slots;
use crate::binder::{BExpr, BNode, BPart, Names};

/// How a MATCH is planned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlanMode {
    /// Seeks by id and property, the cheapest edge first, filters as soon as their
    /// variables are bound: what every query runs with.
    #[default]
    Optimised,
    /// The plainest correct plan: every start a scan of all nodes with every label and
    /// property checked after it, edges in the order the pattern writes them, every
    /// filter at the end. Only an oracle: the fuzz target `cypher_diff` checks that
    /// both modes answer every query alike.
    Naive,
}

/// Plans a MATCH (or a pattern predicate or comprehension): `pre` are the slots bound
/// before it, `conjuncts` the WHERE split at its ANDs.
pub fn plan_match(
    parts: &[BPart],
    conjuncts: Vec<BExpr>,
    pre: &FxHashSet<usize>,
    names: &Names,
    mode: PlanMode,
) -> Vec<Step> {
    let mut p = MatchPlanner {
        mode,
        parts,
        id_key: names.keys.iter().position(|k| &**k == "id"),
        bound: pre.clone(),
        steps: Vec::new(),
        done_edges: FxHashSet::default(),
        done_shortest: FxHashSet::default(),
        built_paths: FxHashSet::default(),
        filters: conjuncts
            .into_iter()
            .map(|c| (needed_slots(&c), c))
            .collect(),
        id_seeks: Vec::new(),
        node_seeks: Vec::new(),
        rel_seeks: Vec::new(),
        index_seeks: Vec::new(),
        unique_rels: overlapping_rels(parts),
        unique_checked: 0,
    };
    if mode == PlanMode::Optimised {
        p.id_seeks = id_seeks(parts, &p.filters, pre, p.id_key);
        p.node_seeks = super::node_seek::node_seeks(parts, &p.filters, pre);
        p.rel_seeks = super::node_seek::rel_seeks(parts, &p.filters, pre);
        p.index_seeks = super::index_seek::index_seeks(parts, &p.filters, pre, p.id_key);
    }
    p.check_prebound();
    p.emit_ready();
    while p.advance() {
        p.emit_ready();
    }
    p.finish()
}

/// The property position a start that ensured only its node's first label reports
/// to `check_node`: no pattern property is at it.
const LABEL_ONLY: usize = usize::MAX;

/// How good an edge is to expand next: (kind, part, relationship), lowest first.
type EdgeRank = (u8, usize, usize);

struct MatchPlanner<'a> {
    mode: PlanMode,
    parts: &'a [BPart],
    /// The name index of the `id` key: `{id: ...}` on a labelled node is an id seek.
    id_key: Option<usize>,
    bound: FxHashSet<usize>,
    steps: Vec<Step>,
    done_edges: FxHashSet<(usize, usize)>,
    done_shortest: FxHashSet<usize>,
    built_paths: FxHashSet<usize>,
    /// Conjuncts not yet placed, with the slots they need (`None`: all of the pattern).
    filters: Vec<(Option<FxHashSet<usize>>, BExpr)>,
    /// Nodes the WHERE pins to a few ids: (slot, ids).
    id_seeks: Vec<(usize, Vec<BExpr>)>,
    /// Nodes the WHERE pins to one `id(n)` or `elementId(n)`: (slot, which, value).
    node_seeks: Vec<(usize, NodeKey, BExpr)>,
    /// Single-hop relationships the WHERE pins likewise: ((part, rel), which, value).
    rel_seeks: Vec<((usize, usize), NodeKey, BExpr)>,
    /// New labelled nodes a WHERE conjunct lets an index find: (slot, key, seek).
    index_seeks: Vec<(usize, usize, IndexSeek)>,
    /// Relationship slots that uniqueness must check: those whose types overlap another's.
    unique_rels: Vec<usize>,
    /// How many of them the uniqueness checks placed so far cover.
    unique_checked: usize,
}

impl MatchPlanner<'_> {
    fn all_nodes(&self) -> impl Iterator<Item = &BNode> {
        self.parts.iter().flat_map(|p| p.nodes.iter())
    }

    /// Label and property checks on nodes bound before the pattern.
    fn check_prebound(&mut self) {
        let pre: Vec<usize> = self
            .all_nodes()
            .filter(|n| n.bound)
            .map(|n| n.slot)
            .collect();
        for slot in pre {
            self.check_node(slot, None);
        }
    }

    /// One more step: an expand, a shortest path, or a new start. False when done.
    fn advance(&mut self) -> bool {
        if let Some((pi, ri, forward)) = self.best_edge() {
            self.expand(pi, ri, forward);
            return true;
        }
        if let Some(pi) = self.ready_shortest() {
            self.shortest(pi);
            return true;
        }
        if let Some(at) = self.ready_rel_seek() {
            self.seek_rel(at);
            return true;
        }
        if let Some(slot) = self.best_start() {
            self.start(slot);
            return true;
        }
        false
    }

    /// The next plain edge with a bound end: both ends bound first, then single hops.
    fn best_edge(&self) -> Option<(usize, usize, bool)> {
        let mut best: Option<(EdgeRank, (usize, usize, bool))> = None;
        for (pi, part) in self.parts.iter().enumerate() {
            if part.kind != PathKind::Plain {
                continue;
            }
            for (ri, rel) in part.rels.iter().enumerate() {
                if self.done_edges.contains(&(pi, ri)) {
                    continue;
                }
                let (a, b) = (part.nodes[ri].slot, part.nodes[ri + 1].slot);
                let (ba, bb) = (self.bound.contains(&a), self.bound.contains(&b));
                if !ba && !bb {
                    continue;
                }
                // Naive: every edge ranks alike, so the pattern's order decides.
                let rank = if (ba && bb) || self.mode == PlanMode::Naive {
                    0
                } else if rel.length.is_none() {
                    1
                } else {
                    2
                };
                let key = (rank, pi, ri);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, (pi, ri, ba)));
                }
            }
        }
        best.map(|(_, e)| e)
    }

    fn expand(&mut self, pi: usize, ri: usize, forward: bool) {
        let part = &self.parts[pi];
        let rel = &part.rels[ri];
        let (from, to) = if forward {
            (part.nodes[ri].slot, part.nodes[ri + 1].slot)
        } else {
            (part.nodes[ri + 1].slot, part.nodes[ri].slot)
        };
        let dir = match (rel.direction, forward) {
            (RelDirection::Both, _) => Dir::Both,
            (RelDirection::Right, true) | (RelDirection::Left, false) => Dir::Out,
            _ => Dir::In,
        };
        let into = self.bound.contains(&to);
        // Both ends bound: the hop binary-searches one end's list for the other. The
        // end bound first (the lower slot: slots are numbered as variables appear)
        // changes least from row to row, so its list is the one still in cache; IC10
        // asks `(friend)-[:KNOWS]-(person)` of every friend of a friend. One hop only:
        // a variable-length one binds its relationships in order from `from`.
        let reverse = self.mode == PlanMode::Optimised && into && rel.length.is_none();
        let (from, to, dir) = if reverse && to < from {
            (to, from, dir.reversed())
        } else {
            (from, to, dir)
        };
        let (min, max) = rel.length.unwrap_or((1, 1));
        let bind_rel =
            rel.named || part.path_slot.is_some() || self.unique_rels.contains(&rel.slot);
        let filters = if rel.length.is_some() && self.mode == PlanMode::Optimised {
            let mut pending = std::mem::take(&mut self.filters);
            let filters = self.walk(pi, ri).take_element_filters(&mut pending);
            self.filters = pending;
            filters
        } else {
            WalkFilters::default()
        };
        let e = Expand {
            bind_rel,
            from,
            rel: rel.slot,
            to,
            types: rel.types.clone(),
            dir,
            into,
            rel_props: rel.props.clone(),
            min,
            max,
            filters,
            prefetch: Default::default(),
        };
        self.steps.push(if rel.length.is_some() {
            Step::VarExpand(e)
        } else {
            Step::Expand(e)
        });
        self.done_edges.insert((pi, ri));
        self.bound.insert(rel.slot);
        if !into {
            self.bound.insert(to);
            self.check_node(to, None);
        }
    }

    fn ready_shortest(&self) -> Option<usize> {
        self.parts.iter().enumerate().find_map(|(pi, p)| {
            let ready = p.kind != PathKind::Plain
                && !self.done_shortest.contains(&pi)
                && p.nodes.iter().all(|n| self.bound.contains(&n.slot));
            ready.then_some(pi)
        })
    }

    /// The walk of part `pi`'s relationship `ri`, for taking WHERE conjuncts into
    /// it (`walk_filters.rs`).
    fn walk(&self, pi: usize, ri: usize) -> Walk<'_> {
        let part = &self.parts[pi];
        Walk {
            rel: part.rels[ri].slot,
            path: part.path_slot.filter(|_| part.rels.len() == 1),
            bound: &self.bound,
        }
    }

    fn shortest(&mut self, pi: usize) {
        // The search finds the shortest paths that satisfy the WHERE's conjuncts over
        // them: element predicates prune it; the rest is checked path by path. The
        // naive plan (the oracle) checks them all path by path.
        let mut pending = std::mem::take(&mut self.filters);
        let filters = if self.mode == PlanMode::Optimised {
            self.walk(pi, 0).take_element_filters(&mut pending)
        } else {
            WalkFilters::default()
        };
        let residual = self.walk(pi, 0).take_residual(&mut pending);
        self.filters = pending;
        let part = &self.parts[pi];
        let rel = &part.rels[0];
        let dir = match rel.direction {
            RelDirection::Both => Dir::Both,
            RelDirection::Right => Dir::Out,
            RelDirection::Left => Dir::In,
        };
        let (min, max) = rel.length.unwrap_or((1, 1));
        let expand = Expand {
            bind_rel: rel.named,
            from: part.nodes[0].slot,
            rel: rel.slot,
            to: part.nodes[1].slot,
            types: rel.types.clone(),
            dir,
            into: true,
            rel_props: rel.props.clone(),
            min,
            max,
            filters,
            prefetch: Default::default(),
        };
        let all = part.kind == PathKind::AllShortest;
        self.steps.push(Step::Shortest {
            expand,
            all,
            path: part.path_slot,
            residual,
        });
        self.done_shortest.insert(pi);
        self.bound.insert(rel.slot);
        if let Some(p) = part.path_slot {
            self.bound.insert(p);
            self.built_paths.insert(pi);
        }
    }

    /// A pinned relationship neither of whose ends is bound yet: (index in
    /// `rel_seeks`).
    fn ready_rel_seek(&self) -> Option<usize> {
        self.rel_seeks.iter().position(|((pi, ri), ..)| {
            let nodes = &self.parts[*pi].nodes;
            !self.done_edges.contains(&(*pi, *ri))
                && !self.bound.contains(&nodes[*ri].slot)
                && !self.bound.contains(&nodes[*ri + 1].slot)
        })
    }

    /// Binds a pinned relationship's ends, then expands into them (which binds the
    /// relationship and checks its type, properties and direction).
    fn seek_rel(&mut self, at: usize) {
        let ((pi, ri), key, value) = self.rel_seeks[at].clone();
        let part = &self.parts[pi];
        let (left, right) = (part.nodes[ri].slot, part.nodes[ri + 1].slot);
        self.steps.push(Step::SeekRelEnds {
            left,
            right,
            direction: part.rels[ri].direction,
            key,
            value,
        });
        for slot in [left, right] {
            if self.bound.insert(slot) {
                self.check_node(slot, None);
            }
        }
        self.expand(pi, ri, true);
    }

    /// The unbound node to start from: an id seek, a property seek, a label scan, any.
    fn best_start(&self) -> Option<usize> {
        let mut best: Option<(u8, usize)> = None;
        for n in self.all_nodes() {
            if self.bound.contains(&n.slot) {
                continue;
            }
            if self.mode == PlanMode::Naive {
                return Some(n.slot); // the first unbound node, in pattern order
            }
            if self.node_seeks.iter().any(|(s, ..)| *s == n.slot) {
                return Some(n.slot); // one node by its slot: nothing starts better
            }
            let mut score = start_score(n, self.id_key);
            if score < 90 && !n.labels.is_empty() && self.id_seeks.iter().any(|(s, _)| *s == n.slot)
            {
                score = 90;
            }
            if let Some((.., seek)) = self.index_seeks.iter().find(|(s, ..)| *s == n.slot) {
                score = score.max(seek.score());
            }
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, n.slot));
            }
        }
        best.map(|(_, slot)| slot)
    }

    fn start(&mut self, slot: usize) {
        let node = self.all_nodes().find(|n| n.slot == slot).cloned();
        let Some(node) = node else { return };
        let mut used_prop = None;
        if let Some((_, key, value)) = self.node_seeks.iter().find(|(s, ..)| *s == slot) {
            let (key, value) = (*key, value.clone());
            self.steps.push(Step::SeekNode { slot, key, value });
            self.bound.insert(slot);
            self.check_node(slot, None);
            return;
        }
        if self.mode == PlanMode::Naive {
            self.steps.push(Step::ScanAll { slot });
            self.bound.insert(slot);
            self.check_node(slot, None);
            return;
        }
        let step = match (node.labels.first(), id_prop(&node, self.id_key)) {
            (Some(&label), Some(i)) => {
                used_prop = Some(i);
                Step::SeekId {
                    slot,
                    label,
                    value: node.props[i].1.clone(),
                }
            }
            (Some(&label), None) if self.id_seeks.iter().any(|(s, _)| *s == slot) => {
                let values = self
                    .id_seeks
                    .iter()
                    .find(|(s, _)| *s == slot)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                Step::SeekIdAny {
                    slot,
                    label,
                    values,
                }
            }
            (Some(&label), None) if !node.props.is_empty() => match self.equalities(&node) {
                Some(pairs) => Step::SeekIndex {
                    slot,
                    label,
                    key: pairs[0].0,
                    seek: IndexSeek::All(pairs),
                },
                None => {
                    used_prop = Some(0);
                    Step::SeekProp {
                        slot,
                        label,
                        key: node.props[0].0,
                        value: node.props[0].1.clone(),
                    }
                }
            },
            (Some(&label), None) => match self.index_seeks.iter().find(|(s, ..)| *s == slot) {
                Some((_, key, IndexSeek::Equal(value))) => Step::SeekProp {
                    slot,
                    label,
                    key: *key,
                    value: value.clone(),
                },
                Some((_, key, seek)) => Step::SeekIndex {
                    slot,
                    label,
                    key: *key,
                    seek: seek.clone(),
                },
                None => Step::ScanLabel { slot, label },
            },
            (None, _) => Step::ScanAll { slot },
        };
        if used_prop.is_none() && matches!(step, Step::SeekIndex { .. } | Step::SeekProp { .. }) {
            // A seek of a WHERE conjunct finds nodes of the label (by index or by
            // scan) and leaves the conjunct to run as a filter: only the label is
            // known to hold.
            used_prop = Some(LABEL_ONLY);
        }
        self.steps.push(step);
        self.bound.insert(slot);
        self.check_node(slot, used_prop.map(|i| (node.labels[0], i)));
    }

    /// The equalities on two keys or more a new node's pattern properties and WHERE
    /// conjuncts set (the pattern's first), if there are that many.
    fn equalities(&self, node: &BNode) -> Option<Vec<(usize, BExpr)>> {
        let mut pairs: Vec<(usize, BExpr)> = Vec::new();
        let seeks = self.index_seeks.iter().filter(|(s, ..)| *s == node.slot);
        let from_where = seeks.flat_map(|(_, key, seek)| match seek {
            IndexSeek::Equal(v) => vec![(*key, v.clone())],
            IndexSeek::All(pairs) => pairs.clone(),
            _ => Vec::new(),
        });
        for (key, value) in node.props.iter().cloned().chain(from_where) {
            if !pairs.iter().any(|(k, _)| *k == key) {
                pairs.push((key, value));
            }
        }
        (pairs.len() >= 2).then_some(pairs)
    }

    /// Checks the labels and properties every occurrence of the node asks for, less
    /// the first label and the property a seek already ensured.
    fn check_node(&mut self, slot: usize, seeked: Option<(usize, usize)>) {
        let mut labels = Vec::new();
        let mut props = Vec::new();
        let mut props_map = None;
        let mut first_occurrence = true;
        for n in self
            .parts
            .iter()
            .flat_map(|p| p.nodes.iter())
            .filter(|n| n.slot == slot)
        {
            for (i, l) in n.labels.iter().enumerate() {
                let seek_label = first_occurrence && i == 0 && seeked.is_some();
                if !seek_label && !labels.contains(l) {
                    labels.push(*l);
                }
            }
            for (i, p) in n.props.iter().enumerate() {
                if !(first_occurrence && seeked.is_some_and(|(_, pi)| pi == i)) {
                    props.push(p.clone());
                }
            }
            if n.props_map.is_some() {
                props_map = n.props_map.clone();
            }
            first_occurrence = false;
        }
        if !labels.is_empty() || !props.is_empty() || props_map.is_some() {
            self.steps.push(Step::CheckNode {
                slot,
                labels,
                props,
                props_map,
            });
        }
    }

    /// Paths whose parts are all bound, and filters whose slots are.
    fn emit_ready(&mut self) {
        for (pi, part) in self.parts.iter().enumerate() {
            let Some(path_slot) = part.path_slot else {
                continue;
            };
            if part.kind != PathKind::Plain || self.built_paths.contains(&pi) {
                continue;
            }
            let complete = part.rels.iter().all(|r| self.bound.contains(&r.slot))
                && part.nodes.iter().all(|n| self.bound.contains(&n.slot));
            if complete {
                let hops = part.rels.iter().map(|r| r.slot).collect();
                self.steps.push(Step::BuildPath {
                    slot: path_slot,
                    start: part.nodes[0].slot,
                    hops,
                });
                self.built_paths.insert(pi);
                self.bound.insert(path_slot);
            }
        }
        if self.mode == PlanMode::Naive {
            return; // every filter waits for the end
        }
        // Uniqueness as soon as two relationships that could coincide are bound, not
        // after the whole pattern: `(t)<-[r1:HAS_TYPE]-(a)-[r2:HAS_TYPE]-(u)` has every
        // pair of tags of a class to drop otherwise.
        let bound_unique: Vec<usize> = self
            .unique_rels
            .iter()
            .filter(|s| self.bound.contains(s))
            .copied()
            .collect();
        if bound_unique.len() >= 2 && bound_unique.len() > self.unique_checked {
            self.unique_checked = bound_unique.len();
            self.steps.push(Step::DistinctRels(bound_unique));
        }
        let bound = &self.bound;
        let (ready, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.filters)
            .into_iter()
            .partition(|(need, _)| {
                need.as_ref()
                    .is_some_and(|n| n.iter().all(|s| bound.contains(s)))
            });
        self.filters = waiting;
        self.steps
            .extend(ready.into_iter().map(|(_, f)| Step::Filter(f)));
    }

    fn finish(mut self) -> Vec<Step> {
        if self.unique_checked < self.unique_rels.len() {
            self.steps
                .push(Step::DistinctRels(std::mem::take(&mut self.unique_rels)));
        }
        let rest = std::mem::take(&mut self.filters);
        self.steps
            .extend(rest.into_iter().map(|(_, f)| Step::Filter(f)));
        self.steps
    }
}

/// The relationship slots of plain parts that could hold the same relationship as
/// another of the pattern (their type sets overlap; no types means any type). Only
/// these need the uniqueness check: a variable-length walk keeps its own trail unique,
/// and relationships of different types never coincide.
fn overlapping_rels(parts: &[BPart]) -> Vec<usize> {
    let rels: Vec<&crate::binder::BRel> = parts
        .iter()
        .filter(|p| p.kind == PathKind::Plain)
        .flat_map(|p| p.rels.iter())
        .filter(|r| !r.bound)
        .collect();
    let overlap = |a: &crate::binder::BRel, b: &crate::binder::BRel| {
        a.types.is_empty() || b.types.is_empty() || a.types.iter().any(|t| b.types.contains(t))
    };
    let mut out = Vec::new();
    for (i, a) in rels.iter().enumerate() {
        if rels
            .iter()
            .enumerate()
            .any(|(j, b)| i != j && overlap(a, b))
        {
            out.push(a.slot);
        }
    }
    out
}

fn id_prop(n: &BNode, id_key: Option<usize>) -> Option<usize> {
    let id_key = id_key?;
    n.props.iter().position(|(k, _)| *k == id_key)
}

fn start_score(n: &BNode, id_key: Option<usize>) -> u8 {
    match (n.labels.is_empty(), n.props.is_empty()) {
        (false, false) if id_prop(n, id_key).is_some() => 100,
        (false, false) => 50,
        (false, true) => 10,
        (true, false) => 2,
        (true, true) => 1,
    }
}

/// Nodes of the pattern that every disjunct of some WHERE conjunct pins to an id
/// known before the pattern: `(a.id = x AND ..) OR (a.id = y AND ..)` gives `a: [x, y]`.
fn id_seeks(
    parts: &[BPart],
    filters: &[(Option<FxHashSet<usize>>, BExpr)],
    pre: &FxHashSet<usize>,
    id_key: Option<usize>,
) -> Vec<(usize, Vec<BExpr>)> {
    let Some(id_key) = id_key else {
        return Vec::new();
    };
    let new_nodes = super::node_seek::new_nodes(parts);
    let mut out: Vec<(usize, Vec<BExpr>)> = Vec::new();
    for (_, f) in filters {
        let mut disjuncts = Vec::new();
        flatten(f, true, &mut disjuncts);
        let mut pinned: Option<Vec<(usize, Vec<BExpr>)>> = None;
        for d in disjuncts {
            let mut terms = Vec::new();
            flatten(d, false, &mut terms);
            let here: Vec<(usize, BExpr)> = terms
                .iter()
                .filter_map(|t| id_equality(t, id_key, &new_nodes, pre))
                .collect();
            pinned = Some(match pinned {
                None => here.into_iter().map(|(s, e)| (s, vec![e])).collect(),
                Some(prev) => prev
                    .into_iter()
                    .filter_map(|(s, mut vals)| {
                        let (_, e) = here.iter().find(|(t, _)| *t == s)?;
                        vals.push(e.clone());
                        Some((s, vals))
                    })
                    .collect(),
            });
        }
        for (s, vals) in pinned.unwrap_or_default() {
            if !out.iter().any(|(t, _)| *t == s) {
                out.push((s, vals));
            }
        }
    }
    out
}

/// Splits at ORs (`or`) or at ANDs.
fn flatten<'e>(e: &'e BExpr, or: bool, out: &mut Vec<&'e BExpr>) {
    match (e, or) {
        (BExpr::Or(a, b), true) | (BExpr::And(a, b), false) => {
            flatten(a, or, out);
            flatten(b, or, out);
        }
        _ => out.push(e),
    }
}

/// `n.id = e` (either way round) with `n` a new node and `e` known before the pattern.
fn id_equality(
    t: &BExpr,
    id_key: usize,
    new_nodes: &FxHashSet<usize>,
    pre: &FxHashSet<usize>,
) -> Option<(usize, BExpr)> {
    let BExpr::Compare(left, chain) = t else {
        return None;
    };
    let [(crate::ast::CompareOp::Eq, right)] = chain.as_slice() else {
        return None;
    };
    let side = |node: &BExpr, value: &BExpr| -> Option<(usize, BExpr)> {
        let BExpr::Prop(base, key) = node else {
            return None;
        };
        let BExpr::Slot(s) = **base else { return None };
        let known = needed_slots(value).is_some_and(|need| need.iter().all(|x| pre.contains(x)));
        let fixed = !super::node_seek::random(value);
        (*key == id_key && new_nodes.contains(&s) && known && fixed).then(|| (s, value.clone()))
    };
    side(left, right).or_else(|| side(right, left))
}

/// The slots a pattern's steps (and `map`, evaluated on their rows) read from the row
/// they start from, sorted: what their answer depends on, with the graph. `None` when
/// that is not known (a pattern or subquery inside) or the same values may give
/// another answer (`rand()`).
pub(crate) fn free_slots(steps: &[Step], map: Option<&BExpr>) -> Option<Vec<usize>> {
    let mut bound: FxHashSet<usize> = FxHashSet::default();
    let mut free: FxHashSet<usize> = FxHashSet::default();
    fn read(e: &BExpr, bound: &FxHashSet<usize>, free: &mut FxHashSet<usize>) -> Option<()> {
        let mut random = false;
        super::prefetch::visit(e, &mut |x| {
            random |= matches!(x, BExpr::Call(crate::functions::Function::Rand, _));
            !random
        });
        if random {
            return None;
        }
        free.extend(needed_slots(e)?.into_iter().filter(|s| !bound.contains(s)));
        Some(())
    }
    // An element filter's own variable is set by the walk, not read from the row.
    fn read_filters(
        filters: &WalkFilters,
        bound: &FxHashSet<usize>,
        free: &mut FxHashSet<usize>,
    ) -> Option<()> {
        for f in filters.rels.iter().chain(&filters.nodes) {
            let mut inner = bound.clone();
            inner.insert(f.slot);
            read(&f.pred, &inner, free)?;
        }
        Some(())
    }
    let use_slot = |s: usize, bound: &FxHashSet<usize>, free: &mut FxHashSet<usize>| {
        if !bound.contains(&s) {
            free.insert(s);
        }
    };
    for step in steps {
        match step {
            Step::ScanAll { slot } | Step::ScanLabel { slot, .. } => {
                bound.insert(*slot);
            }
            Step::SeekId { slot, value, .. }
            | Step::SeekProp { slot, value, .. }
            | Step::SeekNode { slot, value, .. } => {
                read(value, &bound, &mut free)?;
                bound.insert(*slot);
            }
            Step::SeekRelEnds {
                left, right, value, ..
            } => {
                read(value, &bound, &mut free)?;
                bound.insert(*left);
                bound.insert(*right);
            }
            Step::SeekIdAny { slot, values, .. } => {
                for v in values {
                    read(v, &bound, &mut free)?;
                }
                bound.insert(*slot);
            }
            Step::SeekIndex { slot, seek, .. } => {
                for v in seek.exprs() {
                    read(v, &bound, &mut free)?;
                }
                bound.insert(*slot);
            }
            Step::CheckNode {
                slot,
                props,
                props_map,
                ..
            } => {
                use_slot(*slot, &bound, &mut free);
                for (_, v) in props {
                    read(v, &bound, &mut free)?;
                }
                if let Some(m) = props_map {
                    read(m, &bound, &mut free)?;
                }
            }
            Step::Expand(e) | Step::VarExpand(e) => {
                use_slot(e.from, &bound, &mut free);
                if e.into {
                    use_slot(e.to, &bound, &mut free);
                }
                for (_, v) in &e.rel_props {
                    read(v, &bound, &mut free)?;
                }
                read_filters(&e.filters, &bound, &mut free)?;
                bound.insert(e.rel);
                bound.insert(e.to);
            }
            Step::Shortest {
                expand,
                path,
                residual,
                ..
            } => {
                use_slot(expand.from, &bound, &mut free);
                use_slot(expand.to, &bound, &mut free);
                for (_, v) in &expand.rel_props {
                    read(v, &bound, &mut free)?;
                }
                read_filters(&expand.filters, &bound, &mut free)?;
                bound.insert(expand.rel);
                bound.extend(*path);
                for r in residual {
                    read(r, &bound, &mut free)?;
                }
            }
            Step::Filter(f) => read(f, &bound, &mut free)?,
            Step::DistinctRels(slots) => {
                for s in slots {
                    use_slot(*s, &bound, &mut free);
                }
            }
            Step::BuildPath { slot, start, hops } => {
                use_slot(*start, &bound, &mut free);
                for h in hops {
                    use_slot(*h, &bound, &mut free);
                }
                bound.insert(*slot);
            }
        }
    }
    if let Some(m) = map {
        read(m, &bound, &mut free)?;
    }
    let mut out: Vec<usize> = free.into_iter().collect();
    out.sort_unstable();
    Some(out)
}
