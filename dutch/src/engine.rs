//! The bracket-by-bracket pairing (module docs of [`super`]).

use super::computer::Computer;
use super::players::{colour_of, derive, ranks_below, Player, Tournament};
use super::weights::Context;
use super::wide::Wide;
use missive_rules::Color;
use std::collections::HashMap;

/// One round: boards as `(white, black)` indices into [`Tournament::players`], best board first,
/// and the player given the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DutchRound {
    pub games: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DutchError {
    #[error(
        "no pairing satisfies the absolute criteria (no repeat, colours, one bye) for this round"
    )]
    NoPairing,
    #[error("more than {MAX_PLAYERS} players to pair, or too many score groups: too large for this pairing")]
    TooLarge,
}

/// The most players one round pairs (the server's tournaments take at most 1,000): the weights
/// take n² wide numbers and the matching is run O(n) times.
pub const MAX_PLAYERS: usize = 1000;

fn bits(v: usize) -> u32 {
    usize::BITS - v.leading_zeros()
}

/// Pair the next round of `t`.
pub fn pair(t: &Tournament) -> Result<DutchRound, DutchError> {
    let mut players = derive(t);
    if players.len() > MAX_PLAYERS {
        return Err(DutchError::TooLarge);
    }
    if players.is_empty() {
        return Ok(DutchRound {
            games: Vec::new(),
            bye: None,
        });
    }
    let mut forbidden = vec![vec![false; t.players.len()]; t.players.len()];
    for (a, e) in t.players.iter().enumerate() {
        for m in e.records.iter().take(t.played_rounds).filter(|m| m.played) {
            if let Some(b) = m.opponent.filter(|&b| b < t.players.len()) {
                forbidden[a][b] = true;
                forbidden[b][a] = true;
            }
        }
    }
    players.sort_by_key(|p| (std::cmp::Reverse(p.score), p.rank));
    // One counter per score group, sized for the group, lowest score first.
    let mut group_shift = HashMap::new();
    let mut width = 0;
    let mut largest = 0;
    let mut i = players.len();
    while i > 0 {
        let score = players[i - 1].score;
        let mut size = 0;
        while i > 0 && players[i - 1].score == score {
            size += 1;
            i -= 1;
        }
        group_shift.insert(score, width);
        width += bits(size);
        largest = largest.max(size);
    }
    let ctx = Context {
        players: &players,
        forbidden: &forbidden,
        played_rounds: t.played_rounds,
        total_rounds: t.total_rounds.max(t.played_rounds + 1),
        group_bits: bits(largest),
        groups_width: width,
        group_shift,
        bye_score: 0,
        single_downfloater_is_bye: false,
        unplayed_rank: HashMap::new(),
    };
    match ctx.width().div_ceil(64) {
        0..=2 => run::<2>(ctx, t.initial),
        3..=4 => run::<4>(ctx, t.initial),
        5..=6 => run::<6>(ctx, t.initial),
        7..=8 => run::<8>(ctx, t.initial),
        9..=12 => run::<12>(ctx, t.initial),
        13..=16 => run::<16>(ctx, t.initial),
        _ => Err(DutchError::TooLarge),
    }
}

fn run<const L: usize>(mut ctx: Context<'_>, initial: Color) -> Result<DutchRound, DutchError> {
    let sorted: &[Player] = ctx.players;
    let n = sorted.len();
    let (b, g) = (ctx.group_bits, ctx.groups_width);
    let top = sorted[0].score;
    let mut comp = Computer::<L>::new(n);
    let set_all = |comp: &mut Computer<L>, ctx: &Context<'_>| {
        for p in 0..n {
            for o in 0..p {
                comp.set(p, o, ctx.weight(&sorted[o], &sorted[p], false, false));
            }
        }
    };
    if n % 2 == 1 {
        // First find who can have the bye: the lowest score that still lets everyone else be paired.
        for p in 0..n {
            for o in 0..p {
                let (pp, op) = (&sorted[p], &sorted[o]);
                let mut w = Wide::<L>::ZERO;
                if ctx.compatible(pp, op) {
                    w = Wide::small(1 + u64::from(!pp.bye_eligible) + u64::from(!op.bye_eligible))
                        .shl(g)
                        .or_small(u64::from(
                            ctx.group_shift[&pp.score] + ctx.group_shift[&op.score],
                        ))
                        .shl(b)
                        .or_small(u64::from(pp.score >= top));
                }
                comp.set(p, o, w);
            }
        }
    } else {
        set_all(&mut comp, &ctx);
    }
    let matching = comp.compute();
    let mut unmatched = (0..n).filter(|&v| matching[v] == v);
    let first = unmatched.next();
    if unmatched.next().is_some() || first.is_some_and(|v| !sorted[v].bye_eligible) {
        return Err(DutchError::NoPairing);
    }
    if let Some(v) = first {
        ctx.bye_score = sorted[v].score;
        ctx.single_downfloater_is_bye = ctx.bye_score >= top
            && (0..n)
                .take_while(|&p| sorted[p].score >= top)
                .all(|p| sorted[matching[p]].score >= top);
        let mut counts: Vec<usize> = sorted
            .iter()
            .filter(|p| p.score == ctx.bye_score)
            .map(|p| p.played_games)
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, c) in counts.into_iter().enumerate() {
            ctx.unplayed_rank.insert(c, rank as u64);
        }
        set_all(&mut comp, &ctx);
    }

    let mut partner: Vec<Option<usize>> = vec![None; n];
    let mut by_index: Vec<usize> = (0..n).take_while(|&v| sorted[v].score >= top).collect();
    let mut next = by_index.len();
    let mut matched = vec![false; n];
    let mut sg_begin = 0usize;
    let mut sg_begin_vertex = 0usize;
    while by_index.len() > 1 || next < n {
        let nsg_begin = by_index.len();
        let nsg_begin_vertex = sg_begin_vertex + (nsg_begin - sg_begin);
        let sg_iter = next;
        while next < n && sorted[next].score >= sorted[sg_iter].score {
            by_index.push(next);
            next += 1;
        }
        let in_range = |v: usize| v >= sg_begin_vertex && v < nsg_begin_vertex;
        let mut base: Vec<Vec<Wide<L>>> = vec![Vec::new(); by_index.len()];
        for l in sg_begin..by_index.len() {
            for s in 0..l {
                let w = ctx.weight(
                    &sorted[by_index[s]],
                    &sorted[by_index[l]],
                    l < nsg_begin,
                    l >= nsg_begin,
                );
                base[l].push(w);
            }
        }
        for (l, row) in base.iter().enumerate() {
            for (s, w) in row.iter().enumerate() {
                comp.set(by_index[l], by_index[s], *w);
            }
        }
        // The weight of s (smaller index) against l with the exchange preferences of a remainder.
        let edge = |base: &Vec<Vec<Wide<L>>>, s: usize, l: usize, s_rem: usize, pairs: usize| {
            let w = base[l][s];
            if w.is_zero() {
                return w;
            }
            let addend = Wide::<L>::small(u64::from(s_rem < pairs))
                .shl(b)
                .shl(b)
                .sub_small(s_rem as u64)
                .shl(1);
            w.add(&addend)
        };
        let mut stable = comp.compute();

        // Which moved-down players are paired in this bracket.
        let mut md_score = 0;
        let mut remaining = 0usize;
        let mut remaining_matched = 0usize;
        for pi in 0..sg_begin {
            if pi == 0 || sorted[by_index[pi]].score < md_score {
                md_score = sorted[by_index[pi]].score;
                remaining = 0;
                remaining_matched = 0;
                let mut mi = pi;
                while mi < by_index.len() && sorted[by_index[mi]].score >= md_score {
                    remaining += 1;
                    if in_range(stable[by_index[mi]]) {
                        remaining_matched += 1;
                    }
                    mi += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            let pv = by_index[pi];
            if remaining <= remaining_matched {
                matched[pv] = true;
                continue;
            }
            remaining -= 1;
            if !in_range(stable[pv]) {
                for oi in sg_begin..nsg_begin {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        comp.set(pv, by_index[oi], w.or_small(1));
                    }
                }
                stable = comp.compute();
            }
            if in_range(stable[pv]) {
                matched[pv] = true;
                remaining_matched -= 1;
                for oi in sg_begin..nsg_begin {
                    let w = base[oi][pi];
                    if !w.is_zero() {
                        let w = w.or_small((nsg_begin - sg_begin) as u64).add_small(1);
                        comp.set(pv, by_index[oi], w);
                    }
                }
            }
        }

        // Their opponents.
        for pi in 0..sg_begin {
            let pv = by_index[pi];
            if !matched[pv] {
                continue;
            }
            let mut addend = by_index.len() as u64;
            for oi in (sg_begin..nsg_begin).rev() {
                let ov = by_index[oi];
                if matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    comp.set(pv, ov, w.add_small(addend));
                    addend += 1;
                }
            }
            stable = comp.compute();
            let mv = stable[pv];
            matched[mv] = true;
            comp.finalize(pv, mv);
        }

        // The remainder: the residents not paired with a moved-down player.
        let mut rem: Vec<usize> = Vec::new();
        let mut pairs = 0usize;
        for (pi, &pv) in by_index.iter().enumerate().take(nsg_begin).skip(sg_begin) {
            if stable[pv] < sg_begin_vertex {
                continue;
            }
            rem.push(pi);
            if stable[pv] < pv {
                pairs += 1;
            }
        }
        let first_group_end = pairs;
        for (oi_pos, &oi) in rem.iter().enumerate() {
            let ov = by_index[oi];
            for (ri, &pi) in rem.iter().enumerate().take(oi_pos) {
                comp.set(by_index[pi], ov, edge(&base, pi, oi, ri, pairs));
            }
        }
        stable = comp.compute();
        let s1_bound = rem.get(first_group_end).copied().unwrap_or(usize::MAX);
        let exchanges = rem
            .iter()
            .take_while(|&&pi| pi < s1_bound)
            .filter(|&&pi| {
                let pv = by_index[pi];
                stable[pv] <= pv || stable[pv] >= nsg_begin_vertex
            })
            .count();

        // Exchanges: which S1 players move to S2, lowest first.
        let mut left = exchanges;
        let mut pri = pairs;
        let mut idx = first_group_end;
        while idx > 0 && left > 0 {
            let opp_start = idx;
            pri -= 1;
            idx -= 1;
            let pv = by_index[rem[idx]];
            if stable[pv] > pv && stable[pv] < nsg_begin_vertex {
                for &o in &rem[opp_start..] {
                    let w = edge(&base, rem[idx], o, pri, pairs);
                    if !w.is_zero() {
                        comp.set(pv, by_index[o], w.sub_small(1));
                    }
                }
                stable = comp.compute();
            }
            let exchange = stable[pv] <= pv || stable[pv] >= nsg_begin_vertex;
            left -= usize::from(exchange);
            for &o in &rem[idx + 1..] {
                if exchange {
                    base[o][rem[idx]] = Wide::ZERO;
                }
                comp.set(pv, by_index[o], edge(&base, rem[idx], o, pri, pairs));
            }
        }
        // ... and which S2 players move to S1, highest first.
        let mut left = exchanges;
        let mut rix = pairs;
        let mut pos = first_group_end;
        while pos < rem.len() && left > 1 {
            let pi = rem[pos];
            let pv = by_index[pi];
            let already = stable[pv] > pv && stable[pv] < nsg_begin_vertex;
            if !already {
                for &o in &rem[pos + 1..] {
                    let w = edge(&base, pi, o, rix, pairs);
                    if !w.is_zero() {
                        comp.set(pv, by_index[o], w.add_small(1));
                    }
                }
                stable = comp.compute();
            }
            if stable[pv] > pv && stable[pv] < nsg_begin_vertex {
                left -= 1;
                for &o in &rem[..pos] {
                    base[pi][o] = Wide::ZERO;
                    comp.set(pv, by_index[o], Wide::ZERO);
                }
                for oi in nsg_begin..by_index.len() {
                    base[oi][pi] = Wide::ZERO;
                    comp.set(pv, by_index[oi], Wide::ZERO);
                }
            }
            if !already {
                for &o in &rem[pos + 1..] {
                    comp.set(pv, by_index[o], edge(&base, pi, o, rix, pairs));
                }
            }
            rix += 1;
            pos += 1;
        }
        // Settle S1 and S2, and drop the exchange preferences.
        for (p_pos, &pi) in rem.iter().enumerate() {
            let pv = by_index[pi];
            for &oi in &rem[p_pos + 1..] {
                let ov = by_index[oi];
                if stable[pv] <= pv
                    || stable[pv] >= nsg_begin_vertex
                    || (stable[ov] > ov && stable[ov] < nsg_begin_vertex)
                {
                    base[oi][pi] = Wide::ZERO;
                }
                comp.set(pv, ov, base[oi][pi]);
            }
        }
        // Each S1 player's opponent, best S1 player first, preferring the highest S2 player.
        for &pi in &rem {
            let pv = by_index[pi];
            if !(stable[pv] > pv && stable[pv] < nsg_begin_vertex) {
                continue;
            }
            let mut addend = 0u64;
            for &oi in rem.iter().rev() {
                let ov = by_index[oi];
                if oi <= pi || matched[ov] {
                    continue;
                }
                let w = base[oi][pi];
                if !w.is_zero() {
                    comp.set(pv, ov, w.add_small(addend));
                }
                addend += 1;
            }
            stable = comp.compute();
            let mv = stable[pv];
            matched[pv] = true;
            matched[mv] = true;
            comp.finalize(pv, mv);
        }

        // The next bracket: the unpaired (moved down) and the next score group.
        let mut new_index = Vec::new();
        sg_begin = 0;
        ctx.single_downfloater_is_bye =
            n % 2 == 1 && sg_iter < n && ctx.bye_score >= sorted[sg_iter].score;
        for (pi, &pv) in by_index.iter().enumerate() {
            if pi < nsg_begin && matched[pv] {
                partner[pv] = Some(stable[pv]);
                partner[stable[pv]] = Some(pv);
            } else {
                new_index.push(pv);
                if pi < nsg_begin {
                    sg_begin += 1;
                }
                if ctx.single_downfloater_is_bye && sorted[stable[pv]].score < sorted[sg_iter].score
                {
                    ctx.single_downfloater_is_bye = false;
                }
            }
        }
        by_index = new_index;
        sg_begin_vertex = nsg_begin_vertex;
    }

    let mut games = Vec::new();
    let mut bye = None;
    for v in 0..n {
        match partner[v] {
            Some(m) if m != v => {
                if v < m {
                    continue;
                }
                let (p, o) = (&sorted[v], &sorted[m]);
                let (first, second) = if p.id < o.id { (p, o) } else { (o, p) };
                let c = colour_of(first, second, initial);
                let (w, bl) = if c == Color::White {
                    (first, second)
                } else {
                    (second, first)
                };
                games.push((w, bl));
            }
            _ => {
                if bye.is_some() {
                    return Err(DutchError::NoPairing);
                }
                bye = Some(sorted[v].id);
            }
        }
    }
    // Board order: the higher player's score, the lower one's, the higher one's rank.
    let key = |&(w, bl): &(&Player, &Player)| {
        let (hi, lo) = if ranks_below(w, bl) { (bl, w) } else { (w, bl) };
        (
            std::cmp::Reverse(hi.score),
            std::cmp::Reverse(lo.score),
            hi.rank,
        )
    };
    games.sort_by_key(key);
    Ok(DutchRound {
        games: games.into_iter().map(|(w, bl)| (w.id, bl.id)).collect(),
        bye,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{Entrant, Record};

    fn field(n: usize) -> Tournament {
        Tournament {
            players: vec![Entrant::default(); n],
            played_rounds: 0,
            total_rounds: 9,
            initial: Color::White,
        }
    }

    #[test]
    fn first_round_is_top_half_against_bottom_half_with_alternating_colours() {
        let r = pair(&field(8)).unwrap();
        assert_eq!(r.games, [(0, 4), (5, 1), (2, 6), (7, 3)]);
        assert_eq!(r.bye, None);
        let r = pair(&field(7)).unwrap();
        assert_eq!(r.bye, Some(6), "the lowest gets the bye");
    }

    /// Random tournaments paired by the engine round after round: the absolute criteria hold.
    #[test]
    fn absolute_criteria_hold_over_random_tournaments() {
        let mut seed = 99u64;
        let mut rnd = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for _ in 0..30 {
            let n = 9 + rnd(30) as usize;
            let mut t = field(n);
            t.total_rounds = 7;
            for round in 0..7 {
                t.played_rounds = round;
                for e in &mut t.players {
                    e.absent = rnd(20) == 0;
                }
                let Ok(r) = pair(&t) else { break };
                let mut seen = vec![false; n];
                for &(w, b) in &r.games {
                    assert!(!seen[w] && !seen[b] && !t.players[w].absent && !t.players[b].absent);
                    seen[w] = true;
                    seen[b] = true;
                    let met = t.players[w]
                        .records
                        .iter()
                        .any(|m| m.played && m.opponent == Some(b));
                    assert!(!met, "C.1: {w} and {b} met before");
                }
                if let Some(b) = r.bye {
                    let had = t.players[b]
                        .records
                        .iter()
                        .any(|m| m.paired && m.opponent.is_none());
                    assert!(!had, "C.2: {b} had a bye");
                }
                let present = t.players.iter().filter(|e| !e.absent).count();
                assert_eq!(2 * r.games.len() + usize::from(r.bye.is_some()), present);
                for (i, e) in t.players.iter_mut().enumerate() {
                    let game = r.games.iter().find(|g| g.0 == i || g.1 == i);
                    let rec = match game {
                        Some(&(w, b)) => Record {
                            opponent: Some(if w == i { b } else { w }),
                            colour: Some(if w == i { Color::White } else { Color::Black }),
                            played: true,
                            paired: true,
                            points2: rnd(3) as u32,
                        },
                        None if r.bye == Some(i) => Record {
                            paired: true,
                            points2: 2,
                            ..Record::default()
                        },
                        None => Record::default(),
                    };
                    e.records.push(rec);
                }
                // C.3: nobody plays with a colour difference of three or three in a row.
                for e in &t.players {
                    let cs: Vec<Color> = e.records.iter().filter_map(|m| m.colour).collect();
                    let w = cs.iter().filter(|&&c| c == Color::White).count();
                    assert!(w.abs_diff(cs.len() - w) <= 2 || round + 2 >= t.total_rounds);
                }
            }
        }
    }
}
