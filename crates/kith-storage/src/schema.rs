//! How a version applies schema changes (named indexes, uniqueness constraints,
//! stored procedures) and keeps uniqueness: every change to a node that a constraint
//! covers is checked against the constraint's index before the batch goes on.

use std::sync::Arc;

use kith_core::{IndexDef, IndexKind, LabelId, LabelKey, NodeId, Schema, SchemaOp};

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
            SchemaOp::CreateComposite { name, on, unique } => {
                self.create_composite(name, on, *unique)?
            }
            SchemaOp::DropComposite { name } => {
                let def = self.schema.indexes.get(name);
                let on = match def {
                    Some(d) if d.on.is_composite() && d.owner.is_none() => d.on.clone(),
                    Some(_) => return Err(refused(format!("`{name}` is not a composite index"))),
                    None => return Err(refused(format!("there is no index `{name}`"))),
                };
                self.drop_composite_of(name, &on);
            }
            SchemaOp::DropConstraint { name } => {
                let on = self.schema_mut().unique.remove(name);
                let on = on.ok_or_else(|| refused(format!("there is no constraint `{name}`")))?;
                if on.is_composite() {
                    self.drop_composite_of(name, &on);
                } else {
                    self.drop_index_of(&on.label, &on.key);
                }
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
        let on = LabelKey::single(label, key);
        let schema = self.schema_mut();
        schema.indexes.insert(
            name.to_owned(),
            IndexDef {
                on: on.clone(),
                owner: Some(name.to_owned()),
                kind: IndexKind::Range,
            },
        );
        schema.unique.insert(name.to_owned(), on.clone());
        self.rebuild_unique_ids();
        self.check_stored(name, &on, l)
    }

    /// The nodes of `label` already stored must satisfy the new constraint `name`.
    fn check_stored(&self, name: &str, on: &LabelKey, label: LabelId) -> Result<(), StorageError> {
        for node in self.label_index.nodes(label) {
            if let Err(e) = self.check_unique(node) {
                let keys: Vec<&str> = on.keys().collect();
                let constraint = format!(
                    "Constraint( name='{name}', type='UNIQUENESS', schema=(:{} {{{}}}) )",
                    on.label,
                    keys.join(", ")
                );
                let reason = e.to_string();
                return Err(StorageError::ConstraintCreationFailed { constraint, reason });
            }
        }
        Ok(())
    }

    /// Declares a composite index (and, when `unique`, its constraint), filled and,
    /// for a constraint, checked against the nodes already stored.
    fn create_composite(
        &mut self,
        name: &str,
        on: &LabelKey,
        unique: bool,
    ) -> Result<(), StorageError> {
        self.name_free(name)?;
        let keys: Vec<&str> = on.keys().collect();
        if !on.is_composite() || keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k)) {
            return Err(refused(format!(
                "a composite index names two keys or more, each once: got ({})",
                keys.join(", ")
            )));
        }
        if let Some(there) = self.schema.index_covering(&on.label, &keys) {
            return Err(refused(format!(
                "index `{there}` already covers :{}({})",
                on.label,
                keys.join(", ")
            )));
        }
        let catalog = Arc::make_mut(&mut self.catalog);
        let label = catalog.label(&on.label)?;
        for key in &keys {
            catalog.prop_key(key)?;
        }
        self.declare_composite_of(on);
        let schema = self.schema_mut();
        let owner = unique.then(|| name.to_owned());
        let def = IndexDef {
            on: on.clone(),
            kind: IndexKind::Range,
            owner,
        };
        schema.indexes.insert(name.to_owned(), def);
        if !unique {
            return Ok(());
        }
        schema.unique.insert(name.to_owned(), on.clone());
        self.rebuild_unique_ids();
        self.check_stored(name, on, label)
    }

    /// Forgets composite index `name` and its entries.
    fn drop_composite_of(&mut self, name: &str, on: &LabelKey) {
        self.schema_mut().indexes.remove(name);
        let c = &self.catalog;
        let keys: Option<Vec<_>> = on.keys().map(|k| c.find_prop_key(k)).collect();
        if let (Some(label), Some(keys)) = (c.find_label(&on.label), keys) {
            self.prop_indexes.drop_composite(label, &keys);
        }
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
                    on: LabelKey::single(label, key),
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

    /// The constrained labels and keys as ids, for the check on every node write.
    pub(crate) fn rebuild_unique_ids(&mut self) {
        let c = &self.catalog;
        let ids = self
            .schema
            .unique
            .values()
            .filter_map(|on| {
                let keys: Option<Box<[_]>> = on.keys().map(|k| c.find_prop_key(k)).collect();
                Some((c.find_label(&on.label)?, keys?))
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
        for (label, keys) in self.unique_ids.iter() {
            if labels.binary_search(label).is_err() {
                continue;
            }
            let (label, key) = match **keys {
                [key] => (*label, key),
                _ => {
                    self.check_unique_tuple(node, *label, keys)?;
                    continue;
                }
            };
            let Some(value) = self.node_cols.get(key, node.index()) else {
                continue;
            };
            let mut same = self.find_nodes(label, key, &value, 2);
            // `1` and `1.0` are one value to a constraint, as to `=` (and Neo4j).
            if let Some(twin) = kith_core::numeric_twin(&value) {
                same.extend(self.find_nodes(label, key, &twin, 2));
            }
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

impl Snapshot {
    /// Fails when `node` holds every one of `keys` and another node of `label`
    /// holds the same values of them.
    fn check_unique_tuple(
        &self,
        node: NodeId,
        label: kith_core::LabelId,
        keys: &[kith_core::PropKeyId],
    ) -> Result<(), StorageError> {
        let at = |n: NodeId| -> Option<Vec<kith_core::Value>> {
            keys.iter()
                .map(|&k| self.node_cols.get(k, n.index()))
                .collect()
        };
        let Some(values) = at(node) else {
            return Ok(());
        };
        // The index answers all but values it keeps no key for (lists, integers
        // beyond 2^53): then the label is scanned, comparing stored values.
        let same = match self.prop_indexes.lookup_tuple(label, keys, &values) {
            Some(nodes) => nodes.into_iter().any(|n| n != node),
            None => self
                .label_index
                .nodes(label)
                .any(|n| n != node && at(n).as_ref() == Some(&values)),
        };
        if !same {
            return Ok(());
        }
        let c = &self.catalog;
        let names: Vec<&str> = keys.iter().map(|&k| c.prop_key_name(k)).collect();
        let shown: Vec<String> = values.iter().map(ToString::to_string).collect();
        Err(StorageError::NotUnique {
            label: c.label_name(label).to_owned(),
            key: format!("({})", names.join(", ")),
            value: format!("({})", shown.join(", ")),
        })
    }
}

fn refused(message: String) -> StorageError {
    StorageError::SchemaRefused(message)
}
