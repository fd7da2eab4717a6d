//! The friendship network: heavy-tailed degrees, clustered in work communities.
//!
//! S1's network has mean degree 25, median 12, 90 % below 65, a maximum near 667 and
//! no isolated person. A log-normal with median 12 and σ = 1.21 has exactly that
//! shape (mean e^(μ+σ²/2) = 25, p90 = 12·e^(1.2816σ) ≈ 57), so target degrees are
//! drawn from it and clipped to [1, 667]. Two-thirds of each person's friendships
//! are made inside their community (a department of 8-40 colleagues), the rest
//! across the company, by configuration-model stub matching: that gives clustering
//! (friends of friends are often friends), which uniform random graphs lack and which
//! makes friend recommendation meaningful.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_distr::{Distribution, LogNormal};

/// The largest degree S1 reports.
pub(crate) const MAX_DEGREE: usize = 667;
const MEDIAN_DEGREE: f64 = 12.0;
const SIGMA: f64 = 1.21;
const LOCAL_SHARE: f64 = 0.65;

/// Undirected friendships as `(a, b)` with `a < b`, sorted, no duplicates.
pub(crate) fn friendships<R: Rng>(rng: &mut R, community: &[usize]) -> Vec<(u32, u32)> {
    let n = community.len();
    if n < 2 {
        return Vec::new();
    }
    let cap = MAX_DEGREE.min(n - 1);
    let lognormal = LogNormal::new(MEDIAN_DEGREE.ln(), SIGMA).expect("valid parameters");
    let mut target: Vec<usize> = (0..n)
        .map(|_| (lognormal.sample(rng).round() as usize).clamp(1, cap))
        .collect();
    // S1's network has one hub of 667 friends; a sample of 2,011 reaches that only
    // about half the time, so the most sociable person is made that hub.
    if let Some(hub) = (0..n).max_by_key(|&p| (target[p], std::cmp::Reverse(p))) {
        target[hub] = cap;
    }

    let communities = community.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); communities];
    for (person, &c) in community.iter().enumerate() {
        members[c].push(person as u32);
    }

    let mut edges = EdgeSet::new(n);
    // Local stubs, matched inside each community.
    for group in &members {
        let mut stubs = Vec::new();
        for &p in group {
            let local = ((target[p as usize] as f64 * LOCAL_SHARE).round() as usize)
                .min(group.len().saturating_sub(1));
            stubs.extend(std::iter::repeat_n(p, local));
        }
        stubs.shuffle(rng);
        for pair in stubs.chunks_exact(2) {
            edges.add(pair[0], pair[1]);
        }
    }
    // Global stubs: whatever each person still lacks, matched across the company, in
    // two rounds so that stubs wasted on self-loops or repeats get a second chance.
    for _round in 0..2 {
        let mut stubs = Vec::new();
        for (p, wanted) in target.iter().enumerate() {
            let missing = wanted.saturating_sub(edges.degree(p as u32));
            stubs.extend(std::iter::repeat_n(p as u32, missing));
        }
        stubs.shuffle(rng);
        for pair in stubs.chunks_exact(2) {
            edges.add(pair[0], pair[1]);
        }
    }
    // Hubs whose stubs could not all be matched befriend random colleagues, and nobody
    // is left without a friend.
    for p in 0..n as u32 {
        let mut tries = 0;
        while edges.degree(p) < target[p as usize].min(cap) && tries < 4 * MAX_DEGREE {
            edges.add(p, rng.gen_range(0..n as u32));
            tries += 1;
        }
    }
    edges.into_sorted()
}

/// Adjacency sets under construction.
struct EdgeSet {
    neighbours: Vec<Vec<u32>>,
}

impl EdgeSet {
    fn new(n: usize) -> Self {
        EdgeSet {
            neighbours: vec![Vec::new(); n],
        }
    }

    fn degree(&self, p: u32) -> usize {
        self.neighbours[p as usize].len()
    }

    /// Adds an undirected edge unless it is a self-loop or already present.
    fn add(&mut self, a: u32, b: u32) -> bool {
        if a == b || self.neighbours[a as usize].contains(&b) {
            return false;
        }
        self.neighbours[a as usize].push(b);
        self.neighbours[b as usize].push(a);
        true
    }

    fn into_sorted(self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = self
            .neighbours
            .iter()
            .enumerate()
            .flat_map(|(a, ns)| {
                ns.iter()
                    .filter(move |&&b| a as u32 <= b)
                    .map(move |&b| (a as u32, b))
            })
            .collect();
        out.sort_unstable();
        out
    }
}
