//! IC12: expert search: friends' replies to posts about a tag class (or its
//! subclasses).

use kith_core::{GraphView, NodeId, Value};
use rustc_hash::FxHashSet;

use super::schema::Ldbc;
use crate::{ParamSpec, ParamType, Params, Procedure, ProcedureError, ResultSet};

const COLUMNS: &[&str] = &[
    "personId",
    "personFirstName",
    "personLastName",
    "tagNames",
    "replyCount",
];

pub(crate) const PROCEDURE: Procedure = Procedure {
    name: "ldbc.ic12",
    description: "LDBC IC12: friends' comments on posts tagged within a tag class hierarchy",
    params: &[
        ParamSpec::required("personId", ParamType::Int, "the start person"),
        ParamSpec::required("tagClassName", ParamType::String, "the tag class"),
    ],
    columns: COLUMNS,
    run,
};

fn run(g: &dyn GraphView, p: &Params) -> Result<ResultSet, ProcedureError> {
    let s = Ldbc::resolve(g)?;
    let person = s.person(p.int("personId")?)?;
    let mut out = ResultSet::new(COLUMNS);
    let Some(class) = s.tag_class_named(p.string("tagClassName")?) else {
        return Ok(out);
    };
    let tags = tags_below(&s, class);
    let mut rows: Vec<(i64, i64, NodeId, Vec<kith_core::Str>)> = Vec::new();
    for friend in s.friends(person) {
        let (count, names) = replies(&s, friend.node, &tags);
        if count > 0 {
            rows.push((count, s.ext_id(friend.node), friend.node, names));
        }
    }
    for (count, _, friend, names) in
        super::top_k(rows, 20, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)))
    {
        let [id, first, last] = s.person_triple(friend);
        out.push([
            id,
            first,
            last,
            Value::List(names.into_iter().map(Value::String).collect()),
            Value::Int(count),
        ]);
    }
    Ok(out)
}

/// The tags of a tag class and of every class below it.
pub(crate) fn tags_below(s: &Ldbc<'_>, class: NodeId) -> FxHashSet<NodeId> {
    let mut classes = vec![class];
    let mut i = 0;
    while i < classes.len() {
        for sub in s.inc(classes[i], s.is_subclass_of) {
            if !classes.contains(&sub.node) {
                classes.push(sub.node);
            }
        }
        i += 1;
    }
    classes
        .iter()
        .flat_map(|c| s.inc(*c, s.has_type).iter().map(|e| e.node))
        .collect()
}

/// A person's comments replying to a post with one of `tags`, and those tags' names
/// (sorted, once each): here and on each forum shard.
pub(crate) fn replies(
    s: &Ldbc<'_>,
    person: NodeId,
    tags: &FxHashSet<NodeId>,
) -> (i64, Vec<kith_core::Str>) {
    let mut count = 0i64;
    let mut names = Vec::new();
    for c in s.inc(person, s.has_creator) {
        if !s.g.has_label(c.node, s.comment) {
            continue;
        }
        let Some(post) = (s.one_out(c.node, s.reply_of)).filter(|p| s.g.has_label(*p, s.post))
        else {
            continue;
        };
        let before = names.len();
        for t in s
            .out(post, s.has_tag)
            .iter()
            .filter(|t| tags.contains(&t.node))
        {
            names.push(s.text(t.node, s.name));
        }
        count += i64::from(names.len() > before);
    }
    names.sort_unstable();
    names.dedup();
    (count, names)
}
