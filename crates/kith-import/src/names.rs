//! Label and type ids in a canonical order. Chunks intern the names their `:LABEL` and
//! `:TYPE` fields bring as they meet them, so which name gets which id would follow the
//! threads' timing; renumbering them in order of first use (nodes, then relationships,
//! in slot order) makes the graph the same, id for id, for any number of threads.

use kith_core::{LabelId, RelTypeId};
use kith_storage::{Catalog, RawGraph};

use crate::error::Result;

/// Renumbers `raw`'s labels and relationship types by first use; property keys keep
/// their ids (headers intern them in argument order, on one thread).
pub fn canonical(raw: &mut RawGraph) -> Result<()> {
    let old = std::mem::take(&mut raw.catalog);
    let mut new = Catalog::default();
    for k in 0..old.prop_key_count() {
        let key = kith_core::PropKeyId(k as _);
        let id = new.prop_key(old.prop_key_name(key))?;
        debug_assert_eq!(id, key, "property keys keep their ids");
    }
    let mut labels: Vec<Option<LabelId>> = vec![None; old.label_count()];
    for node in raw.nodes.iter_mut().flatten() {
        for label in &mut node.labels {
            *label = match labels[label.0 as usize] {
                Some(id) => id,
                None => {
                    let id = new.label(old.label_name(*label))?;
                    labels[label.0 as usize] = Some(id);
                    id
                }
            };
        }
    }
    let mut types: Vec<Option<RelTypeId>> = vec![None; old.rel_type_count()];
    for rel in raw.rels.iter_mut().flatten() {
        rel.rel_type = match types[rel.rel_type.0 as usize] {
            Some(id) => id,
            None => {
                let id = new.rel_type(old.rel_type_name(rel.rel_type))?;
                types[rel.rel_type.0 as usize] = Some(id);
                id
            }
        };
    }
    // Names no element uses (a group with empty files): after the rest, by name.
    let mut unused: Vec<&str> = (0..old.label_count())
        .filter(|i| labels[*i].is_none())
        .map(|i| old.label_name(LabelId(i as _)))
        .collect();
    unused.sort_unstable();
    for name in unused {
        new.label(name)?;
    }
    let mut unused: Vec<&str> = (0..old.rel_type_count())
        .filter(|i| types[*i].is_none())
        .map(|i| old.rel_type_name(RelTypeId(i as _)))
        .collect();
    unused.sort_unstable();
    for name in unused {
        new.rel_type(name)?;
    }
    raw.catalog = new;
    Ok(())
}
