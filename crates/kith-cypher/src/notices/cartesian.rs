//! The cartesian-product notification: a MATCH whose pattern parts share no
//! variable builds the product of their matches. Variables bound by earlier clauses
//! do not join the parts (Neo4j 5.26 warns on `MATCH (a) WITH a MATCH (a), (b)` too),
//! and a WHERE relating the parts does not either: each part not joined to the first
//! one gets a notification naming its variables.

use crate::ast::PatternPart;

use super::{Notes, NoticeKind};

/// Notes a notification for each group of `parts` (a MATCH at byte `clause_at`,
/// written as `text`) disconnected from the first.
pub(crate) fn cartesian_products(
    notes: &mut Notes,
    parts: &[PatternPart],
    clause_at: usize,
    text: &str,
) {
    for vars in groups(parts).iter().skip(1) {
        let identifiers = match vars.len() {
            1 => format!("identifier is: ({})", vars[0]),
            _ => format!("identifiers are: ({})", vars.join(", ")),
        };
        notes.fix(
            NoticeKind::CartesianProduct,
            Some(clause_at),
            format!(
                "The disconnected pattern '{text}' builds a cartesian product. A cartesian \
                 product may produce a large amount of data and slow down query processing."
            ),
            format!(
                "If a part of a query contains multiple disconnected patterns, this will \
                 build a cartesian product between all those parts. This may produce a \
                 large amount of data and slow down query processing. While occasionally \
                 intended, it may often be possible to reformulate the query that avoids the \
                 use of this cross product, perhaps by adding a relationship between the \
                 different parts or by using OPTIONAL MATCH ({identifiers})"
            ),
        );
    }
}

/// The variables of each connected group of parts, groups in the order of their first
/// part, variables in the order written.
fn groups(parts: &[PatternPart]) -> Vec<Vec<String>> {
    let vars: Vec<Vec<String>> = parts.iter().map(variables).collect();
    // group[i]: the group of part i, the smallest index of a part joined to it.
    let mut group: Vec<usize> = (0..parts.len()).collect();
    for i in 0..parts.len() {
        for j in 0..i {
            if vars[i].iter().any(|v| vars[j].contains(v)) {
                let (from, to) = (group[i].max(group[j]), group[i].min(group[j]));
                group
                    .iter_mut()
                    .filter(|g| **g == from)
                    .for_each(|g| *g = to);
            }
        }
    }
    let mut out: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, names) in vars.into_iter().enumerate() {
        let at = match out.iter().position(|(g, _)| *g == group[i]) {
            Some(at) => at,
            None => {
                out.push((group[i], Vec::new()));
                out.len() - 1
            }
        };
        for v in names {
            if !out[at].1.contains(&v) {
                out[at].1.push(v);
            }
        }
    }
    out.into_iter().map(|(_, names)| names).collect()
}

/// The named variables of a part (nodes and relationships), in order; a part with
/// none is a group of its own.
fn variables(part: &PatternPart) -> Vec<String> {
    let path = &part.path;
    let mut vars: Vec<String> = Vec::new();
    let mut add = |v: &Option<String>| {
        if let Some(v) = v {
            // Names the parser makes for label expressions start with a space.
            if !v.starts_with(' ') && !vars.contains(v) {
                vars.push(v.clone());
            }
        }
    };
    add(&path.start.var);
    for (rel, node) in &path.steps {
        add(&rel.var);
        add(&node.var);
    }
    vars
}
