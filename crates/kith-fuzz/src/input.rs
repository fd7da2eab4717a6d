//! Small helpers over a fuzz input's bytes.

/// Values compare equal when their debug forms do: a NaN read back is the same NaN,
/// which `PartialEq` would call different.
pub(crate) fn same<T: std::fmt::Debug>(a: &T, b: &T) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// The first byte as a choice among `n`, and the rest.
pub(crate) fn choose(data: &[u8], n: usize) -> Option<(usize, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((usize::from(first) % n, rest))
}
