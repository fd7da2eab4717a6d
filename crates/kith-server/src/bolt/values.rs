//! kith's values in PackStream and back: answers (nodes, relationships and paths as
//! Bolt's structures, which differ between 4.4 and 5.x) and query parameters.

use kith_core::Value;
use kith_cypher::{GraphValue, NodeOut, RelOut};
use kith_protocol::bolt::{Pack, Packer, Version};

/// What a connection's version changes in the structures kith sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// Nodes and relationships carry element ids (5.0+).
    pub(crate) element_ids: bool,
    /// Datetimes count seconds in UTC (5.0+, or 4.4 with the `utc` patch).
    pub(crate) utc: bool,
}

impl Dialect {
    /// The dialect of `version`, `utc` when 4.4's patch was agreed.
    pub(crate) fn of(version: Version, utc_patch: bool) -> Dialect {
        let five = version.at_least(5, 0);
        Dialect {
            element_ids: five,
            utc: five || utc_patch,
        }
    }
}

/// Structure tags (PackStream "Structures").
mod tag {
    pub const NODE: u8 = 0x4E;
    pub const RELATIONSHIP: u8 = 0x52;
    pub const UNBOUND_RELATIONSHIP: u8 = 0x72;
    pub const PATH: u8 = 0x50;
    /// DateTime with a UTC offset, seconds since the epoch in UTC (5.0+, 4.4 patched).
    pub const DATE_TIME: u8 = 0x49;
    /// The same before 5.0: seconds counted in the offset's local time.
    pub const LEGACY_DATE_TIME: u8 = 0x46;
    /// DateTime in a named zone, seconds since the epoch in UTC (5.0+, 4.4 patched).
    pub const DATE_TIME_ZONE_ID: u8 = 0x69;
    /// The same before 5.0: seconds counted in the zone's local time.
    pub const LEGACY_DATE_TIME_ZONE_ID: u8 = 0x66;
    pub const DATE: u8 = 0x44;
    pub const TIME: u8 = 0x54;
    pub const LOCAL_TIME: u8 = 0x74;
    pub const LOCAL_DATE_TIME: u8 = 0x64;
    pub const DURATION: u8 = 0x45;
    /// Point2D: srid, x, y.
    pub const POINT_2D: u8 = 0x58;
    /// Point3D: srid, x, y, z.
    pub const POINT_3D: u8 = 0x59;
}

/// Writes an answer value.
pub(crate) fn pack_graph(p: &mut Packer<'_>, v: &GraphValue, d: Dialect) {
    match v {
        GraphValue::Plain(v) => pack_value(p, v, d),
        GraphValue::Node(n) => pack_node(p, n, d),
        GraphValue::Rel(r) => pack_rel(p, r, d),
        GraphValue::Path { nodes, rels } => pack_path(p, nodes, rels, d),
        GraphValue::List(items) => {
            p.list_header(items.len());
            items.iter().for_each(|i| pack_graph(p, i, d));
        }
        GraphValue::Map(entries) => {
            p.map_header(entries.len());
            for (k, v) in entries {
                p.string(k);
                pack_graph(p, v, d);
            }
        }
    }
}

/// Writes a plain value.
pub(crate) fn pack_value(p: &mut Packer<'_>, v: &Value, d: Dialect) {
    match v {
        Value::Null => p.null(),
        Value::Bool(b) => p.bool(*b),
        Value::Int(i) => p.int(*i),
        Value::Float(f) => p.float(*f),
        Value::String(s) => p.string(s),
        Value::DateTime(ms) => {
            // kith's datetimes are UTC: the offset is 0, so local and UTC seconds are
            // the same number and the two layouts differ only in their tag.
            let tag = if d.utc {
                tag::DATE_TIME
            } else {
                tag::LEGACY_DATE_TIME
            };
            p.struct_header(tag, 3);
            p.int(ms.div_euclid(1000));
            p.int(ms.rem_euclid(1000) * 1_000_000);
            p.int(0);
        }
        Value::Temporal(t) => temporal::pack(p, t, d),
        Value::Point(point) => {
            let coords = point.coords();
            let tag = if coords.len() == 3 {
                tag::POINT_3D
            } else {
                tag::POINT_2D
            };
            p.struct_header(tag, 1 + coords.len());
            p.int(point.crs().srid());
            coords.iter().for_each(|c| p.float(*c));
        }
        Value::Bytes(b) => p.bytes(b),
        Value::List(items) => {
            p.list_header(items.len());
            items.iter().for_each(|i| pack_value(p, i, d));
        }
        Value::Map(entries) => pack_props(p, entries, d),
    }
}

fn pack_props(p: &mut Packer<'_>, entries: &[(std::sync::Arc<str>, Value)], d: Dialect) {
    p.map_header(entries.len());
    for (k, v) in entries {
        p.string(k);
        pack_value(p, v, d);
    }
}

/// A node's element id, as `elementId()` gives it (an id out of range cannot come
/// from the graph: its text then is the number's).
fn node_element_id(id: i64) -> String {
    u32::try_from(id).map_or_else(|_| id.to_string(), |n| kith_core::NodeId(n).element_id())
}

/// A relationship's element id, as `elementId()` gives it.
fn rel_element_id(id: i64) -> String {
    u32::try_from(id).map_or_else(|_| format!("r{id}"), |n| kith_core::RelId(n).element_id())
}

/// Node: id, labels, properties, and from 5.0 its element id.
fn pack_node(p: &mut Packer<'_>, n: &NodeOut, d: Dialect) {
    let element_ids = d.element_ids;
    p.struct_header(tag::NODE, if element_ids { 4 } else { 3 });
    p.int(n.id);
    p.list_header(n.labels.len());
    n.labels.iter().for_each(|l| p.string(l));
    pack_props(p, &n.props, d);
    if element_ids {
        p.string(&node_element_id(n.id));
    }
}

/// Relationship: id, start, end, type, properties, and from 5.0 the element ids of
/// itself, its start and its end.
fn pack_rel(p: &mut Packer<'_>, r: &RelOut, d: Dialect) {
    let element_ids = d.element_ids;
    p.struct_header(tag::RELATIONSHIP, if element_ids { 8 } else { 5 });
    p.int(r.id);
    p.int(r.start);
    p.int(r.end);
    p.string(&r.rel_type);
    pack_props(p, &r.props, d);
    if element_ids {
        p.string(&rel_element_id(r.id));
        p.string(&node_element_id(r.start));
        p.string(&node_element_id(r.end));
    }
}

/// Path: its distinct nodes, its distinct relationships (unbound: without ends), and
/// the walk through them: for each hop, the relationship's 1-based index, negated
/// when the hop runs against its direction, then the next node's index.
fn pack_path(p: &mut Packer<'_>, nodes: &[NodeOut], rels: &[RelOut], d: Dialect) {
    assert_eq!(
        nodes.len(),
        rels.len() + 1,
        "a path has one node more than hops"
    );
    let mut distinct_nodes: Vec<&NodeOut> = Vec::new();
    let mut distinct_rels: Vec<&RelOut> = Vec::new();
    let mut walk = Vec::with_capacity(rels.len() * 2);
    let index_of =
        |list: &mut Vec<&'_ NodeOut>, n: &'_ NodeOut| list.iter().position(|m| m.id == n.id);
    distinct_nodes.push(&nodes[0]);
    for (i, rel) in rels.iter().enumerate() {
        let r = match distinct_rels.iter().position(|s| s.id == rel.id) {
            Some(at) => at,
            None => {
                distinct_rels.push(rel);
                distinct_rels.len() - 1
            }
        } as i64
            + 1;
        let forward = rel.start == nodes[i].id;
        walk.push(if forward { r } else { -r });
        let next = &nodes[i + 1];
        let at = index_of(&mut distinct_nodes, next).unwrap_or_else(|| {
            distinct_nodes.push(next);
            distinct_nodes.len() - 1
        });
        walk.push(at as i64);
    }
    p.struct_header(tag::PATH, 3);
    p.list_header(distinct_nodes.len());
    distinct_nodes.iter().for_each(|n| pack_node(p, n, d));
    p.list_header(distinct_rels.len());
    let element_ids = d.element_ids;
    for r in &distinct_rels {
        p.struct_header(tag::UNBOUND_RELATIONSHIP, if element_ids { 4 } else { 3 });
        p.int(r.id);
        p.string(&r.rel_type);
        pack_props(p, &r.props, d);
        if element_ids {
            p.string(&rel_element_id(r.id));
        }
    }
    p.list_header(walk.len());
    walk.iter().for_each(|i| p.int(*i));
}

/// A query parameter as a kith value. kith's values are null, booleans, integers,
/// floats, strings, byte arrays, lists, maps, temporal values and points; anything
/// else (a node or path sent as a parameter) is refused
/// by name rather than silently changed.
pub(crate) fn param_value(name: &str, pack: Pack) -> Result<Value, String> {
    Ok(match pack {
        Pack::Null => Value::Null,
        Pack::Bool(b) => Value::Bool(b),
        Pack::Int(i) => Value::Int(i),
        Pack::Float(f) => Value::Float(f),
        Pack::String(s) => Value::string(s.as_str()),
        Pack::List(items) => Value::List(
            items
                .into_iter()
                .map(|i| param_value(name, i))
                .collect::<Result<_, _>>()?,
        ),
        Pack::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| Ok((std::sync::Arc::from(k.as_str()), param_value(name, v)?)))
                .collect::<Result<_, String>>()?,
        ),
        Pack::Struct(tag, fields) => structure(name, tag, &fields)?,
        Pack::Bytes(b) => Value::Bytes(b.into()),
    })
}

/// A datetime at a fixed offset (either layout) as epoch milliseconds UTC.
fn structure(name: &str, tag: u8, fields: &[Pack]) -> Result<Value, String> {
    let kind = match tag {
        tag::DATE_TIME | tag::LEGACY_DATE_TIME => "",
        tag::DATE_TIME_ZONE_ID
        | tag::LEGACY_DATE_TIME_ZONE_ID
        | tag::DATE
        | tag::TIME
        | tag::LOCAL_TIME
        | tag::LOCAL_DATE_TIME
        | tag::DURATION => {
            return temporal::unpack(tag, fields)
                .map(Value::temporal)
                .map_err(|e| format!("parameter `{name}`: {e}"))
        }
        tag::POINT_2D | tag::POINT_3D => {
            return point(tag, fields).map_err(|e| format!("parameter `{name}`: {e}"))
        }
        tag::NODE | tag::RELATIONSHIP | tag::UNBOUND_RELATIONSHIP | tag::PATH => {
            "a node, relationship or path"
        }
        _ => {
            return Err(format!(
                "parameter `{name}` is an unknown structure 0x{tag:02X}"
            ))
        }
    };
    if !kind.is_empty() {
        return Err(unsupported(name, kind));
    }
    let [Pack::Int(seconds), Pack::Int(nanos), Pack::Int(offset)] = fields else {
        return Err(format!(
            "parameter `{name}`: a datetime has three integer fields (seconds, nanoseconds, offset)"
        ));
    };
    // The legacy layout counts seconds in local time: back to UTC first.
    let utc_seconds = if tag == tag::LEGACY_DATE_TIME {
        seconds.checked_sub(*offset)
    } else {
        Some(*seconds)
    };
    if nanos % 1_000_000 != 0 || *offset != 0 {
        // Not the LDBC data's millisecond UTC instant: a Cypher datetime.
        return temporal::unpack(tag, fields)
            .map(Value::temporal)
            .map_err(|e| format!("parameter `{name}`: {e}"));
    }
    utc_seconds
        .and_then(|s| s.checked_mul(1000))
        .and_then(|ms| ms.checked_add(nanos / 1_000_000))
        .map(Value::DateTime)
        .ok_or_else(|| format!("parameter `{name}`: the datetime is out of range"))
}

/// A Point2D or Point3D structure: an SRID kith knows, then float coordinates.
fn point(tag: u8, fields: &[Pack]) -> Result<Value, String> {
    let dims = if tag == tag::POINT_3D { 3 } else { 2 };
    let [Pack::Int(srid), coords @ ..] = fields else {
        return Err("a point's first field is its SRID, an integer".into());
    };
    let coords: Vec<f64> = coords
        .iter()
        .map(|c| match c {
            Pack::Float(x) => Some(*x),
            _ => None,
        })
        .collect::<Option<_>>()
        .filter(|c: &Vec<f64>| c.len() == dims)
        .ok_or_else(|| format!("a {dims}D point has {dims} float coordinates after its SRID"))?;
    let crs = kith_core::Crs::from_srid(*srid)
        .filter(|c| c.is_3d() == (dims == 3))
        .ok_or_else(|| {
            format!("SRID {srid} is not a {dims}D system kith knows (4326, 4979, 7203, 9157)")
        })?;
    kith_core::Point::new(crs, &coords)
        .map(|p| Value::Point(std::sync::Arc::new(p)))
        .map_err(|e| e.to_string())
}

fn unsupported(name: &str, kind: &str) -> String {
    format!(
        "parameter `{name}` is {kind}; kith takes null, booleans, integers, floats, strings, \
         lists, maps, temporal values and points"
    )
}

mod temporal;

#[cfg(test)]
mod tests;
