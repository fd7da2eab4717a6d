//! "The k newest" over lists a store may keep newest first
//! ([`kith_core::EdgeOrder::NewestFirst`]).
//!
//! A query wanting the k newest messages (or activities) of some persons reads each
//! person's list. In a newest-first list it skips what is too new by binary search
//! and stops at the first entry older than the k-th newest date found so far; in a
//! list in neighbour order it must read every date, and only skips.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use kith_core::{Edge, NodeId};

/// The k newest dates taken so far, so the k-th of them is the floor a later
/// candidate must reach (a tie may still win on its tie-break, so it is taken).
pub(crate) struct Floor {
    k: usize,
    dates: BinaryHeap<Reverse<i64>>,
}

impl Floor {
    /// A floor for the `k` newest; 0 (or `usize::MAX`, a limit of "all") means
    /// all, so nothing is ever cut.
    pub(crate) fn new(k: usize) -> Self {
        let k = if k == usize::MAX { 0 } else { k };
        Floor {
            k,
            dates: BinaryHeap::with_capacity(k.saturating_add(1).min(1 << 16)),
        }
    }

    /// Whether `date` can still be among the k newest.
    fn admits(&self, date: i64) -> bool {
        self.k == 0 || self.dates.len() < self.k || self.dates.peek().is_some_and(|m| date >= m.0)
    }

    fn take(&mut self, date: i64) {
        if self.k == 0 {
            return;
        }
        self.dates.push(Reverse(date));
        if self.dates.len() > self.k {
            self.dates.pop();
        }
    }
}

/// Calls `f(edge, date)` for each entry of `list` dated before `before` (if given)
/// that can still be among the floor's k newest, taking it into the floor.
/// `newest_first` says the list is ordered by `date` descending, which lets the walk
/// skip and stop.
pub(crate) fn walk(
    list: &[Edge],
    newest_first: bool,
    before: Option<i64>,
    floor: &mut Floor,
    date: impl Fn(NodeId) -> i64,
    mut f: impl FnMut(Edge, i64),
) {
    let too_new = |d: i64| before.is_some_and(|b| d >= b);
    let start = if newest_first {
        // Most lists of a query's many persons lie wholly on one side of `before`
        // or under the floor: two reads say so without a search.
        let (Some(newest), Some(oldest)) = (list.first(), list.last()) else {
            return;
        };
        let newest = date(newest.node);
        if too_new(date(oldest.node)) || (!too_new(newest) && !floor.admits(newest)) {
            return;
        }
        if too_new(newest) {
            list.partition_point(|e| too_new(date(e.node)))
        } else {
            0
        }
    } else {
        0
    };
    for &e in &list[start..] {
        let d = date(e.node);
        if too_new(d) {
            continue;
        }
        if !floor.admits(d) {
            if newest_first {
                break;
            }
            continue;
        }
        floor.take(d);
        f(e, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kith_core::RelId;

    fn edges(nodes: &[u32]) -> Vec<Edge> {
        nodes
            .iter()
            .map(|&n| Edge {
                node: NodeId(n),
                rel: RelId(n),
            })
            .collect()
    }

    /// Node n's date is n's value in this table.
    const DATES: [i64; 9] = [70, 60, 60, 50, 40, 30, 20, 10, i64::MAX];

    fn collect(
        list: &[Edge],
        newest_first: bool,
        before: Option<i64>,
        k: usize,
    ) -> (Vec<u32>, usize) {
        let reads = std::cell::Cell::new(0);
        let date = |n: NodeId| {
            reads.set(reads.get() + 1);
            DATES[n.index()]
        };
        let mut got = Vec::new();
        walk(
            list,
            newest_first,
            before,
            &mut Floor::new(k),
            date,
            |e, _| got.push(e.node.0),
        );
        (got, reads.get())
    }

    #[test]
    fn a_newest_first_list_is_skipped_into_and_left_early() {
        let list = edges(&[0, 1, 2, 3, 4, 5, 6, 7]);
        // Before 65: skip node 0; the 2 newest are 1 and 2 (tied), 3 is older.
        let (got, _) = collect(&list, true, Some(65), 2);
        assert_eq!(got, [1, 2]);
        // The newest only: two probes (newest, oldest), the first entry taken and
        // the second found under the floor: 4 reads of 8.
        let (got, reads) = collect(&list, true, None, 1);
        assert_eq!((got, reads), (vec![0], 4));
        // A list wholly under the floor or wholly too new is left after its probes.
        let mut floor = Floor::new(1);
        floor.take(100);
        let mut any = false;
        walk(
            &list,
            true,
            None,
            &mut floor,
            |n| DATES[n.index()],
            |_, _| any = true,
        );
        walk(
            &list,
            true,
            Some(5),
            &mut Floor::new(1),
            |n| DATES[n.index()],
            |_, _| any = true,
        );
        assert!(!any);
        // A tie with the floor is taken: its tie-break decides later.
        let (got, _) = collect(&list, true, None, 2);
        assert_eq!(got, [0, 1, 2]);
        // No bound: even the largest date is in.
        let (got, _) = collect(&edges(&[8, 0]), true, None, 1);
        assert_eq!(got, [8]);
        // k = 0: everything before the bound.
        let (got, _) = collect(&list, true, Some(35), 0);
        assert_eq!(got, [5, 6, 7]);
    }

    #[test]
    fn a_list_in_node_order_gives_the_same_candidates_by_reading_all() {
        // The same nodes shuffled: no early stop, but no newest one missed.
        let list = edges(&[6, 0, 3, 7, 2, 5, 1, 4]);
        let (mut got, reads) = collect(&list, false, Some(65), 2);
        got.sort_unstable();
        assert_eq!(reads, 8);
        // Node 6 (date 20) came first, before the floor rose; the two newest are in.
        assert!(got.contains(&1) && got.contains(&2));
        assert!(!got.contains(&0) && !got.contains(&7));
    }
}
