//! The raw values of a fixed-width column page, narrowed where they allow it.
//!
//! A page of integers, dates or booleans held 8 bytes a slot. Many keys vary little
//! within a page: a message's `length` fits 2 bytes, a boolean 1. Once a graph is
//! loaded (when strings are packed too), a page whose present values all lie within
//! 2^8, 2^16 or 2^32 above its smallest keeps that smallest as a base and each value
//! as an offset of 1, 2 or 4 bytes. A write that does not fit turns the page back to
//! 8 bytes a slot. Floats stay 8 bytes (their bits are not ordered as their values).

use crate::columns::{Fixed, PAGE_SLOTS};

/// Offsets of 1, 2 or 4 bytes.
#[derive(Clone, Debug)]
pub(crate) enum Deltas {
    U8(Box<[u8]>),
    U16(Box<[u16]>),
    U32(Box<[u32]>),
}

impl Deltas {
    /// Bytes an offset takes.
    pub(crate) fn width(&self) -> usize {
        match self {
            Deltas::U8(_) => 1,
            Deltas::U16(_) => 2,
            Deltas::U32(_) => 4,
        }
    }

    #[inline]
    pub(crate) fn get(&self, slot: usize) -> u64 {
        match self {
            Deltas::U8(d) => u64::from(d[slot]),
            Deltas::U16(d) => u64::from(d[slot]),
            Deltas::U32(d) => u64::from(d[slot]),
        }
    }

    /// Offsets of `width` bytes (1, 2 or 4), each from `offset(slot)`, which must fit.
    pub(crate) fn build(width: usize, offset: impl Fn(usize) -> u64) -> Option<Deltas> {
        let all = 0..PAGE_SLOTS;
        Some(match width {
            1 => Deltas::U8(all.map(|s| offset(s) as u8).collect()),
            2 => Deltas::U16(all.map(|s| offset(s) as u16).collect()),
            4 => Deltas::U32(all.map(|s| offset(s) as u32).collect()),
            _ => return None,
        })
    }

    /// Stores `delta`, which must fit the width.
    pub(crate) fn set(&mut self, slot: usize, delta: u64) {
        match self {
            Deltas::U8(d) => d[slot] = delta as u8,
            Deltas::U16(d) => d[slot] = delta as u16,
            Deltas::U32(d) => d[slot] = delta as u32,
        }
    }
}

/// The narrowest `(base, offsets)` that hold a page's present values
/// (`present(slot)`), if any fits 4 bytes; absent slots get offset 0.
pub(crate) fn narrow(
    kind: Fixed,
    bits: &[u64],
    present: impl Fn(usize) -> bool,
) -> Option<(u64, Deltas)> {
    let slots = || (0..PAGE_SLOTS).filter(|&s| present(s));
    let base = slots()
        .map(|s| bits[s])
        .min_by_key(|&raw| order(kind, raw))?;
    let span = slots().try_fold(0, |m: u64, s| Some(m.max(offset(kind, base, bits[s])?)))?;
    let width = [1, 2, 4].into_iter().find(|&w| fits(span, w))?;
    let offset_of = |s: usize| {
        if present(s) {
            bits[s].wrapping_sub(base)
        } else {
            0
        }
    };
    Some((base, Deltas::build(width, offset_of)?))
}

/// A raw value's place in its kind's order (`None`: the kind is not narrowed).
fn order(kind: Fixed, raw: u64) -> Option<i64> {
    match kind {
        // A boolean's raw bits are 0 or 1: ordered as they are, so that an offset
        // is always the raw difference it stores.
        Fixed::Int | Fixed::DateTime | Fixed::Bool => Some(raw as i64),
        Fixed::Float => None,
    }
}

/// How far `raw` lies above `base` in its kind's order, if at all.
pub(crate) fn offset(kind: Fixed, base: u64, raw: u64) -> Option<u64> {
    let (base, raw) = (order(kind, base)?, order(kind, raw)?);
    u64::try_from(i128::from(raw) - i128::from(base)).ok()
}

/// Whether an offset fits `width` bytes.
pub(crate) fn fits(delta: u64, width: usize) -> bool {
    delta < 1 << (8 * width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn narrowed(kind: Fixed, values: &[(usize, u64)]) -> Option<(u64, Deltas)> {
        let mut bits = vec![0; PAGE_SLOTS];
        for &(slot, raw) in values {
            bits[slot] = raw;
        }
        narrow(kind, &bits, |s| values.iter().any(|&(slot, _)| slot == s))
    }

    #[test]
    fn pages_narrow_to_the_span_of_their_present_values() {
        let neg = (-5i64) as u64;
        type Case = (Fixed, Vec<(usize, u64)>, Option<usize>);
        let cases: [Case; 7] = [
            (Fixed::Bool, vec![(0, 1), (9, 0)], Some(1)),
            (Fixed::Int, vec![(0, 1_000), (255, 1_255)], Some(1)),
            (Fixed::Int, vec![(3, neg), (4, 60_000)], Some(2)),
            (
                Fixed::DateTime,
                vec![(1, 1_313_591_219_961), (2, 1_313_579_421_570)],
                Some(4),
            ),
            (Fixed::Int, vec![(1, 0), (2, 1 << 40)], None),
            (Fixed::Float, vec![(1, 1.5f64.to_bits())], None),
            (Fixed::Int, vec![], None),
        ];
        for (kind, values, want) in cases {
            let got = narrowed(kind, &values);
            assert_eq!(
                got.as_ref().map(|(_, d)| d.width()),
                want,
                "{kind:?} {values:?}"
            );
            if let Some((base, deltas)) = got {
                for &(slot, raw) in &values {
                    assert_eq!(base.wrapping_add(deltas.get(slot)), raw, "{kind:?} {slot}");
                }
            }
        }
    }

    #[test]
    fn offsets_follow_the_kind_order() {
        assert_eq!(offset(Fixed::Int, (-3i64) as u64, 4), Some(7));
        assert_eq!(offset(Fixed::Int, 4, (-3i64) as u64), None);
        assert_eq!(offset(Fixed::Float, 0, 1), None);
        assert!(fits(255, 1) && !fits(256, 1) && fits(u64::from(u32::MAX), 4));
    }
}
