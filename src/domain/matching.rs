//! Perfect matchings in general graphs (Edmonds' blossom algorithm), which
//! the Swiss pairing search uses to cut branches that cannot be completed.

/// Whether the graph on `0..n` with edges `adj` has a perfect matching: Edmonds' blossom algorithm
/// (maximum cardinality matching in a general graph, O(n³)), the search's test that a partial
/// pairing can still be completed, which keeps it from exploring hopeless branches.
pub fn has_perfect_matching(n: usize, adj: &[Vec<bool>]) -> bool {
    const NONE: usize = usize::MAX;
    if n % 2 == 1 {
        return false;
    }
    let mut mate = vec![NONE; n];
    // A greedy start leaves few augmenting paths to find.
    for v in 0..n {
        if mate[v] == NONE {
            if let Some(u) = (v + 1..n).find(|&u| mate[u] == NONE && adj[v][u]) {
                mate[v] = u;
                mate[u] = v;
            }
        }
    }
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    let mut used = vec![false; n];
    let mut blossom = vec![false; n];
    let mut queue = Vec::with_capacity(n);

    let lca = |mut a: usize, mut b: usize, base: &[usize], parent: &[usize], mate: &[usize]| {
        let mut seen = vec![false; n];
        loop {
            a = base[a];
            seen[a] = true;
            if mate[a] == NONE {
                break;
            }
            a = parent[mate[a]];
        }
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            b = parent[mate[b]];
        }
    };
    let mark_path = |mut v: usize,
                     b: usize,
                     mut child: usize,
                     base: &[usize],
                     parent: &mut [usize],
                     mate: &[usize],
                     blossom: &mut [bool]| {
        while base[v] != b {
            blossom[base[v]] = true;
            blossom[base[mate[v]]] = true;
            parent[v] = child;
            child = mate[v];
            v = parent[mate[v]];
        }
    };

    for root in 0..n {
        if mate[root] != NONE {
            continue;
        }
        parent.fill(NONE);
        used.fill(false);
        for (i, b) in base.iter_mut().enumerate() {
            *b = i;
        }
        queue.clear();
        used[root] = true;
        queue.push(root);
        let mut head = 0;
        let mut end = NONE;
        'bfs: while head < queue.len() {
            let v = queue[head];
            head += 1;
            for to in 0..n {
                if !adj[v][to] || base[v] == base[to] || mate[v] == to {
                    continue;
                }
                if to == root || (mate[to] != NONE && parent[mate[to]] != NONE) {
                    let cur = lca(v, to, &base, &parent, &mate);
                    blossom.fill(false);
                    mark_path(v, cur, to, &base, &mut parent, &mate, &mut blossom);
                    mark_path(to, cur, v, &base, &mut parent, &mate, &mut blossom);
                    for i in 0..n {
                        if blossom[base[i]] {
                            base[i] = cur;
                            if !used[i] {
                                used[i] = true;
                                queue.push(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if mate[to] == NONE {
                        end = to;
                        break 'bfs;
                    }
                    used[mate[to]] = true;
                    queue.push(mate[to]);
                }
            }
        }
        if end == NONE {
            // A vertex that cannot be matched now never can be.
            return false;
        }
        let mut v = end;
        while v != NONE {
            let pv = parent[v];
            let next = mate[pv];
            mate[v] = pv;
            mate[pv] = v;
            v = next;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn brute_force(left: u32, adj: &[Vec<bool>]) -> bool {
        if left == 0 {
            return true;
        }
        let top = left.trailing_zeros() as usize;
        (top + 1..adj.len()).any(|o| {
            left & (1 << o) != 0 && adj[top][o] && brute_force(left & !(1 << top) & !(1 << o), adj)
        })
    }

    #[test]
    fn blossom_agrees_with_brute_force_on_random_graphs() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut found = [0, 0];
        for _ in 0..3000 {
            let n = rng.gen_range(0..=12);
            let density = rng.gen_range(0.1..0.6);
            let mut adj = vec![vec![false; n]; n];
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            for (a, b) in pairs {
                let e = rng.gen_bool(density);
                adj[a][b] = e;
                adj[b][a] = e;
            }
            let expected = n % 2 == 0 && brute_force((1u32 << n) - 1, &adj);
            assert_eq!(has_perfect_matching(n, &adj), expected, "{adj:?}");
            found[usize::from(expected)] += 1;
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!(found[0] > 300 && found[1] > 300, "{found:?}");
    }

    #[test]
    fn blossom_handles_an_odd_cycle() {
        // A pentagon 0-1-2-3-4 with 5 hanging on 0. The greedy start takes 0-1 and 2-3 and strands
        // 4 and 5; the only augmenting path, 4-3=2-1=0-5, runs round the odd cycle. Without the
        // edge 0-5 no perfect matching exists.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5)];
        let mut adj = vec![vec![false; 6]; 6];
        for (a, b) in edges {
            adj[a][b] = true;
            adj[b][a] = true;
        }
        assert!(has_perfect_matching(6, &adj));
        adj[0][5] = false;
        adj[5][0] = false;
        assert!(!has_perfect_matching(6, &adj));
    }
}
