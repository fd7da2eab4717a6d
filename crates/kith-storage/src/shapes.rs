//! Shapes: the distinct (labels, property keys) combinations elements have.
//!
//! With values in columns, what is left of an element's own record is which labels
//! it carries and which keys it holds. Elements of one kind share one combination
//! (every LDBC `Comment` has the same labels and keys), so each combination is stored
//! once and an element holds its number: 4 bytes instead of two boxed lists.

use std::hash::BuildHasherDefault;
use std::sync::Arc;

use kith_core::{LabelId, PropKeyId};
use rustc_hash::FxHasher;

use crate::paged::PagedVec;
use crate::StorageError;

/// One combination. Both lists sorted, no duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Shape {
    pub(crate) labels: Box<[LabelId]>,
    pub(crate) keys: Box<[PropKeyId]>,
}

/// A shape's number.
pub(crate) type ShapeId = u32;

type ShapeIndex = imbl::GenericHashMap<
    Arc<Shape>,
    ShapeId,
    BuildHasherDefault<FxHasher>,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// Every shape a version knows, by number and by content. Persistent on both sides,
/// so adding a shape to a version copies a page and a trie path, however many
/// shapes there are (schemaless data can make one per element).
#[derive(Clone, Debug, Default)]
pub(crate) struct Shapes {
    list: PagedVec<Arc<Shape>>,
    index: ShapeIndex,
    /// The shape interned last: writes come in runs of one kind (a load, an UNWIND),
    /// and matching it first spares building and hashing a shape per element.
    last: Option<ShapeId>,
}

impl Shapes {
    /// The shape numbered `id`.
    #[inline]
    pub(crate) fn get(&self, id: ShapeId) -> &Shape {
        // Invariant: an element only ever holds a number this table handed out.
        self.list
            .get(id as usize)
            .expect("a shape number from this table")
    }

    /// The number of the shape with these labels and these properties' keys.
    pub(crate) fn intern_parts(
        &mut self,
        labels: &[LabelId],
        props: &[(PropKeyId, kith_core::Value)],
    ) -> Result<ShapeId, StorageError> {
        if let Some(last) = self.last {
            let shape = self.get(last);
            if *shape.labels == *labels && shape.keys.iter().copied().eq(props.iter().map(|p| p.0))
            {
                return Ok(last);
            }
        }
        self.intern(Shape {
            labels: labels.into(),
            keys: props.iter().map(|p| p.0).collect(),
        })
    }

    /// The number of `shape`, adding it when new.
    pub(crate) fn intern(&mut self, shape: Shape) -> Result<ShapeId, StorageError> {
        if let Some(&id) = self.index.get(&shape) {
            self.last = Some(id);
            return Ok(id);
        }
        let id = ShapeId::try_from(self.list.len())
            .ok()
            .filter(|&id| id != ShapeId::MAX)
            .ok_or(StorageError::CapacityExceeded(
                "more than 2^32 - 1 label and key combinations",
            ))?;
        let shape = Arc::new(shape);
        self.list.push(shape.clone());
        self.index.insert(shape, id);
        self.last = Some(id);
        Ok(id)
    }

    /// The shape of `id` changed by `edit`, interned.
    pub(crate) fn edit(
        &mut self,
        id: ShapeId,
        edit: impl FnOnce(&mut Shape),
    ) -> Result<ShapeId, StorageError> {
        let mut shape = self.get(id).clone();
        edit(&mut shape);
        if shape == *self.get(id) {
            return Ok(id);
        }
        self.intern(shape)
    }

    /// How many shapes there are.
    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// Every shape, by number.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Shape> + '_ {
        self.list.iter().map(|s| &**s)
    }

    /// Heap bytes (estimated for the trie like the id index: entry plus a third).
    pub(crate) fn bytes(&self) -> usize {
        let lists: usize = self
            .list
            .iter()
            .map(|s| {
                std::mem::size_of::<Shape>()
                    + 2 * std::mem::size_of::<usize>()
                    + std::mem::size_of_val(&*s.labels)
                    + std::mem::size_of_val(&*s.keys)
            })
            .sum();
        lists
            + self.list.table_bytes()
            + self.list.len() * std::mem::size_of::<(Arc<Shape>, ShapeId)>() * 4 / 3
    }
}

/// Inserts into a sorted list; false when already there.
pub(crate) fn insert_sorted<T: Ord + Copy>(list: &mut Box<[T]>, item: T) -> bool {
    match list.binary_search(&item) {
        Ok(_) => false,
        Err(pos) => {
            let mut v = std::mem::take(list).into_vec();
            v.insert(pos, item);
            *list = v.into_boxed_slice();
            true
        }
    }
}

/// Removes from a sorted list; false when absent.
pub(crate) fn remove_sorted<T: Ord + Copy>(list: &mut Box<[T]>, item: T) -> bool {
    match list.binary_search(&item) {
        Ok(pos) => {
            let mut v = std::mem::take(list).into_vec();
            v.remove(pos);
            *list = v.into_boxed_slice();
            true
        }
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_shapes_share_a_number_and_edits_find_or_add() {
        let mut shapes = Shapes::default();
        let a = shapes
            .intern(Shape {
                labels: vec![LabelId(1)].into(),
                keys: vec![PropKeyId(0), PropKeyId(2)].into(),
            })
            .expect("room");
        let again = shapes
            .intern(Shape {
                labels: vec![LabelId(1)].into(),
                keys: vec![PropKeyId(0), PropKeyId(2)].into(),
            })
            .expect("room");
        assert_eq!(a, again);
        let before = shapes.clone();
        let b = shapes
            .edit(a, |s| {
                insert_sorted(&mut s.keys, PropKeyId(1));
            })
            .expect("room");
        assert_ne!(a, b);
        assert_eq!(
            &*shapes.get(b).keys,
            &[PropKeyId(0), PropKeyId(1), PropKeyId(2)]
        );
        assert_eq!(shapes.edit(a, |_| {}).expect("room"), a);
        assert_eq!(before.len(), 1);
        assert_eq!(shapes.len(), 2);
    }
}
