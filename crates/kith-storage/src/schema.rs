//! How a version applies schema changes (named indexes, uniqueness constraints,
//! stored procedures) and keeps uniqueness: every change to a node that a constraint
//! covers is checked against the constraint's index before the batch goes on.

use std::sync::Arc;

use kith_core::{IndexDef, IndexKind, LabelKey, NodeId, Schema, SchemaOp};

use crate::catalog::ID_KEY;
use crate::{Snapshot, StorageError};

impl Snapshot {
    /// The schema, to change it (copied on first write: older versions keep theirs).
    fn schema_mut(&mut self) -> &mut Schema {
        Arc::make_mut(&mut self.schema)
    }

    /// Applies one schema change.
    pub(crate) fn apply_schema(&mut self, op: &SchemaOp) -> Result<(), StorageError> {
        match op {
            SchemaOp::NameIndex { name, label, key } => {
                let old = self.schema.index_on(label, key).map(str::to_owned);
                let Some(old) = old else {
                    return Err(StorageError::NoSuchIndex {
                        label: label.clone(),
                        key: key.clone(),
                    });
                };
                if old != *name {
                    self.name_free(name)?;
                    let schema = self.schema_mut();
                    let def = schema.indexes.remove(&old).expect("found above");
                    schema.indexes.insert(name.clone(), def);
                }
            }
            SchemaOp::KindIndex { label, key, kind } => self.kind_index(label, key, *kind)?,
            SchemaOp::CreateUnique { name, label, key } => self.create_unique(name, label, key)?,
            SchemaOp::DropConstraint { name } => {
                let on = self.schema_mut().unique.remove(name);
                let on = on.ok_or_else(|| refused(format!("there is no constraint `{name}`")))?;
                self.drop_index_of(&on.label, &on.key);
                self.rebuild_unique_ids();
            }
            SchemaOp::RegisterProcedure { name, text } => {
                let schema = self.schema_mut();
                schema.procedures.insert(name.clone(), text.clone());
                schema.generation += 1;
            }
            SchemaOp::DropProcedure { name } => {
                let schema = self.schema_mut();
                if schema.procedures.remove(name).is_none() {
                    return Err(refused(format!("there is no stored procedure `{name}`")));
                }
                schema.generation += 1;
            }
            SchemaOp::SetCursor {
                name,
                value,
                expect,
            } => {
                let now = self.schema.cursors.get(name).copied().unwrap_or(0);
                if expect.is_some_and(|e| e != now) {
                    return Err(StorageError::CursorMoved {
                        name: name.clone(),
                        expected: expect.unwrap_or(0),
                        found: now,
                    });
                }
                self.schema_mut().cursors.insert(name.clone(), *value);
            }
        }
        Ok(())
    }

    /// Makes the declared index on `(label, key)` one of `kind`, refilled to hold
    /// only that kind's values. A constraint's index stays a range index.
    fn kind_index(&mut self, label: &str, key: &str, kind: IndexKind) -> Result<(), StorageError> {
        let name = self.schema.index_on(label, key).map(str::to_owned);
        let no_index = || StorageError::NoSuchIndex {
            label: label.to_owned(),
            key: key.to_owned(),
        };
        let name = name.ok_or_else(no_index)?;
        if let Some(owner) = self.schema.unique_on(label, key) {
            return Err(refused(format!(
                "the index on :{label}({key}) belongs to constraint `{owner}`: it stays a range index"
            )));
        }
        let (Some(l), Some(k)) = (
            self.catalog.find_label(label),
            self.catalog.find_prop_key(key),
        ) else {
            return Err(no_index());
        };
        self.set_index_kind(l, k, kind);
        if let Some(def) = self.schema_mut().indexes.get_mut(&name) {
            def.kind = kind;
        }
        Ok(())
    }

    /// Refuses a name some index or constraint already has.
    fn name_free(&self, name: &str) -> Result<(), StorageError> {
        if self.schema.indexes.contains_key(name) || self.schema.unique.contains_key(name) {
            return Err(refused(format!(
                "an index or constraint is already named `{name}`"
            )));
        }
        Ok(())
    }

    fn create_unique(&mut self, name: &str, label: &str, key: &str) -> Result<(), StorageError> {
        self.name_free(name)?;
        if let Some(index) = self.schema.index_on(label, key) {
            return Err(refused(format!(
                "index `{index}` already covers :{label}({key}); drop it before declaring \
                 a uniqueness constraint on the same pair"
            )));
        }
        let catalog = Arc::make_mut(&mut self.catalog);
        let (l, k) = (catalog.label(label)?, catalog.prop_key(key)?);
        if k != ID_KEY {
            self.declare_prop_index(l, k);
        }
        let on = LabelKey {
            label: label.to_owned(),
            key: key.to_owned(),
        };
        let schema = self.schema_mut();
        schema.indexes.insert(
            name.to_owned(),
            IndexDef {
                on: on.clone(),
                owner: Some(name.to_owned()),
                kind: IndexKind::Range,
            },
        );
        schema.unique.insert(name.to_owned(), on);
        self.rebuild_unique_ids();
        // The nodes already stored must satisfy it.
        let nodes: Vec<NodeId> = self.label_index.nodes(l).collect();
        for node in nodes {
            self.check_unique(node)?;
        }
        Ok(())
    }

    /// Records a declared index's default name (an index declared by id pair, by a
    /// client's `CreateIndex`, has one at once).
    pub(crate) fn index_declared(&mut self, label: &str, key: &str) {
        if self.schema.index_on(label, key).is_none() {
            let name = self
                .schema
                .free_name(Schema::default_index_name(label, key));
            self.schema_mut().indexes.insert(
                name,
                IndexDef {
                    on: LabelKey {
                        label: label.to_owned(),
                        key: key.to_owned(),
                    },
                    owner: None,
                    kind: IndexKind::Range,
                },
            );
        }
    }

    /// Refuses to drop an index a constraint owns; forgets a dropped index's name.
    pub(crate) fn index_dropping(&mut self, label: &str, key: &str) -> Result<(), StorageError> {
        if let Some(name) = self.schema.unique_on(label, key) {
            return Err(refused(format!(
                "the index on :{label}({key}) belongs to constraint `{name}`: drop the \
                 constraint instead"
            )));
        }
        let name = self.schema.index_on(label, key).map(str::to_owned);
        if let Some(name) = name {
            self.schema_mut().indexes.remove(&name);
        }
        Ok(())
    }

    fn drop_index_of(&mut self, label: &str, key: &str) {
        let name = self.schema.index_on(label, key).map(str::to_owned);
        if let Some(name) = name {
            self.schema_mut().indexes.remove(&name);
        }
        if let (Some(l), Some(k)) = (
            self.catalog.find_label(label),
            self.catalog.find_prop_key(key),
        ) {
            self.prop_indexes.drop_index(l, k);
        }
    }

    /// The constrained pairs as ids, for the check on every node write.
    pub(crate) fn rebuild_unique_ids(&mut self) {
        let ids = self
            .schema
            .unique
            .values()
            .filter_map(|on| {
                Some((
                    self.catalog.find_label(&on.label)?,
                    self.catalog.find_prop_key(&on.key)?,
                ))
            })
            .collect();
        self.unique_ids = Arc::new(ids);
    }

    /// Fails when `node` shares a constrained value with another node of the label.
    pub(crate) fn check_unique(&self, node: NodeId) -> Result<(), StorageError> {
        if self.unique_ids.is_empty() {
            return Ok(());
        }
        let Some(record) = self.node(node) else {
            return Ok(());
        };
        let labels = &self.shapes.get(record.shape()).labels;
        for &(label, key) in self.unique_ids.iter() {
            if labels.binary_search(&label).is_err() {
                continue;
            }
            let Some(value) = self.node_cols.get(key, node.index()) else {
                continue;
            };
            let same = self.find_nodes(label, key, &value, 2);
            if same.iter().any(|&other| other != node) {
                return Err(StorageError::NotUnique {
                    label: self.catalog.label_name(label).to_owned(),
                    key: self.catalog.prop_key_name(key).to_owned(),
                    value: value.to_string(),
                });
            }
        }
        Ok(())
    }
}

fn refused(message: String) -> StorageError {
    StorageError::SchemaRefused(message)
}
