//! FIDE chess perft against the published chessprogramming.org tables.

use missive_rules::{perft::perft, variant};

fn check(fen: &str, depth: u32, expected: u64) {
    let v = variant("chess").unwrap();
    let pos = v.parse_fen(fen).unwrap();
    assert_eq!(perft(v, &pos, depth), expected, "{fen} depth {depth}");
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS4_MIRROR: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

#[test]
fn start_position() {
    check(START, 1, 20);
    check(START, 2, 400);
    check(START, 3, 8_902);
    check(START, 4, 197_281);
    check(START, 5, 4_865_609);
}

#[test]
fn kiwipete() {
    check(KIWIPETE, 1, 48);
    check(KIWIPETE, 2, 2_039);
    check(KIWIPETE, 3, 97_862);
    check(KIWIPETE, 4, 4_085_603);
}

#[test]
fn position_3() {
    check(POS3, 1, 14);
    check(POS3, 2, 191);
    check(POS3, 3, 2_812);
    check(POS3, 4, 43_238);
    check(POS3, 5, 674_624);
}

#[test]
fn position_4_and_mirror() {
    check(POS4, 1, 6);
    check(POS4, 2, 264);
    check(POS4, 3, 9_467);
    check(POS4, 4, 422_333);
    check(POS4_MIRROR, 4, 422_333);
}

#[test]
fn position_5() {
    check(POS5, 1, 44);
    check(POS5, 2, 1_486);
    check(POS5, 3, 62_379);
    check(POS5, 4, 2_103_487);
}

#[test]
fn position_6() {
    check(POS6, 1, 46);
    check(POS6, 2, 2_079);
    check(POS6, 3, 89_890);
    check(POS6, 4, 3_894_594);
}
