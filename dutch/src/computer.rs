//! The matching the Dutch pairing steers: a weight per pair of vertices,
//! recomputed from scratch after each change, with pairs that are settled
//! taken out of the graph (bbpPairings instead gives them the top weight
//! and zero to every other edge of theirs, which leaves the same optimum).

use super::blossom::max_weight_matching;
use super::wide::Wide;

pub struct Computer<const L: usize> {
    n: usize,
    weights: Vec<Wide<L>>,
    settled: Vec<Option<usize>>,
}

impl<const L: usize> Computer<L> {
    pub fn new(n: usize) -> Self {
        Self {
            n,
            weights: vec![Wide::ZERO; n * n],
            settled: vec![None; n],
        }
    }

    pub fn set(&mut self, a: usize, b: usize, w: Wide<L>) {
        self.weights[a * self.n + b] = w;
        self.weights[b * self.n + a] = w;
    }

    /// Settle the pair `a`-`b`.
    pub fn finalize(&mut self, a: usize, b: usize) {
        self.settled[a] = Some(b);
        self.settled[b] = Some(a);
    }

    /// A maximum-weight matching: each vertex's partner, itself when unmatched.
    pub fn compute(&self) -> Vec<usize> {
        let free: Vec<usize> = (0..self.n).filter(|&v| self.settled[v].is_none()).collect();
        let mut edges = Vec::new();
        for (i, &a) in free.iter().enumerate() {
            for (j, &b) in free.iter().enumerate().skip(i + 1) {
                let w = self.weights[a * self.n + b];
                if w > Wide::ZERO {
                    edges.push((i, j, w));
                }
            }
        }
        let mates = max_weight_matching(free.len(), &edges);
        let mut out: Vec<usize> = (0..self.n).map(|v| self.settled[v].unwrap_or(v)).collect();
        for (i, m) in mates.into_iter().enumerate() {
            if let Some(j) = m {
                out[free[i]] = free[j];
            }
        }
        out
    }
}
