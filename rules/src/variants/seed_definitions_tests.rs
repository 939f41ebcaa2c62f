//! The seeds Fairy-Stockfish can express (issue 61, item 2), read from
//! the definitions the Fairy-Stockfish oracle plays them from
//! (`tools/fsf/*.ini`) and played by the generic engine: the same perft as
//! each seed's own engine on every shared vector position. The seeds stay
//! on their own engines until the generic one is as fast (docs/variants.md).

use crate::generic::Generic;
use crate::variant::Variant;

/// The generic engine for each section of `text`, by name.
fn from_definitions(text: &str) -> Vec<(String, Generic)> {
    let mut lib = crate::spec::builtin::generic_library();
    lib.add(text)
        .expect("the oracle's definitions read")
        .into_iter()
        .map(|s| (s.name.clone(), Generic::new(s).expect("a start position")))
        .collect()
}

/// Every vector line (`FEN;D1 n;D2 n…`) at each depth whose count is at
/// most `most`: the definition's perft equals the vector and the seed's.
fn same_perft(def: &Generic, seed: &dyn Variant, vectors: &str, most: u64) -> usize {
    let mut compared = 0;
    for line in vectors
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut parts = line.split(';');
        let fen = parts.next().unwrap();
        let pos_def = def.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let pos_seed = seed.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for part in parts {
            let (d, n) = part.trim().split_once(' ').unwrap();
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let nodes: u64 = n.parse().unwrap();
            if nodes > most {
                continue;
            }
            assert_eq!(
                def.perft(&pos_def, depth),
                nodes,
                "{}: {fen} depth {depth}",
                def.id()
            );
            assert_eq!(
                seed.perft(&pos_seed, depth),
                nodes,
                "{}: {fen} depth {depth}",
                seed.id()
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn leaperhouse_from_its_definition_counts_as_the_seed() {
    let defs = from_definitions(include_str!("../../../tools/fsf/leaperhouse.ini"));
    let (_, def) = defs.iter().find(|(n, _)| n == "leaperhouse").unwrap();
    let seed = crate::variant("leaperhouse").unwrap();
    let vectors = include_str!("../../tests/vectors/leaperhouse-perft.txt");
    assert!(same_perft(def, seed, vectors, 400_000) >= 50);
    let fen = seed.start_fen();
    let counts = |v: &dyn Variant| v.perft(&v.parse_fen(fen).unwrap(), 3);
    assert_eq!(counts(def), counts(seed));
}

#[test]
fn leap_chess_from_its_definitions_counts_as_the_seeds() {
    let defs = from_definitions(include_str!("../../../tools/fsf/leap-chess.ini"));
    let vectors = include_str!("../../tests/vectors/leap-chess-perft.txt");
    let (_, def) = defs.iter().find(|(n, _)| n == "leap-chess").unwrap();
    let seed = crate::variant("leap-chess").unwrap();
    assert!(same_perft(def, seed, vectors, 400_000) >= 20);
    for (name, depth) in [("leap-chess-optional", 5), ("leap-chess-64", 4)] {
        let (_, def) = defs.iter().find(|(n, _)| n == name).unwrap();
        let seed = crate::variant(name).unwrap();
        let counts = |v: &dyn Variant| v.perft(&v.parse_fen(seed.start_fen()).unwrap(), depth);
        assert_eq!(counts(def), counts(seed), "{name}");
    }
}
