//! The definitions Missive ships (`rules/variants/<id>.ini`, Fairy-Stockfish's
//! variants), read: the templates every added or posted text is read
//! against, and the specs the definition variants are played from.

use super::{Library, Spec};
use std::sync::OnceLock;

/// Fairy-Stockfish's variants as definitions (`rules/variants/<id>.ini`),
/// templates before the variants built on them.
const DEFINITIONS: &[&str] = &[
    include_str!("../../variants/chess.ini"),
    include_str!("../../variants/almost.ini"),
    include_str!("../../variants/amazon.ini"),
    include_str!("../../variants/giveaway.ini"),
    include_str!("../../variants/antichess.ini"),
    include_str!("../../variants/breakthrough.ini"),
    include_str!("../../variants/capablanca.ini"),
    include_str!("../../variants/capahouse.ini"),
    include_str!("../../variants/caparandom.ini"),
    include_str!("../../variants/centaur.ini"),
    include_str!("../../variants/chancellor.ini"),
    include_str!("../../variants/chaturanga.ini"),
    include_str!("../../variants/chigorin.ini"),
    include_str!("../../variants/clobber.ini"),
    include_str!("../../variants/clobber10.ini"),
    include_str!("../../variants/codrus.ini"),
    include_str!("../../variants/crazyhouse.ini"),
    include_str!("../../variants/loop.ini"),
    include_str!("../../variants/chessgi.ini"),
    include_str!("../../variants/dragon.ini"),
    include_str!("../../variants/embassy.ini"),
    include_str!("../../variants/extinction.ini"),
    include_str!("../../variants/fischerandom.ini"),
    include_str!("../../variants/fairy.ini"),
    include_str!("../../variants/fox-and-hounds.ini"),
    include_str!("../../variants/gardner.ini"),
    include_str!("../../variants/georgian.ini"),
    include_str!("../../variants/gothic.ini"),
    include_str!("../../variants/grasshopper.ini"),
    include_str!("../../variants/hoppelpoppel.ini"),
    include_str!("../../variants/horde.ini"),
    include_str!("../../variants/janus.ini"),
    include_str!("../../variants/kinglet.ini"),
    include_str!("../../variants/kingofthehill.ini"),
    include_str!("../../variants/losalamos.ini"),
    include_str!("../../variants/losers.ini"),
    include_str!("../../variants/misere.ini"),
    include_str!("../../variants/modern.ini"),
    include_str!("../../variants/newzealand.ini"),
    include_str!("../../variants/nightrider.ini"),
    include_str!("../../variants/nocastle.ini"),
    include_str!("../../variants/normal.ini"),
    include_str!("../../variants/paradigm.ini"),
    include_str!("../../variants/placement.ini"),
    include_str!("../../variants/perfect.ini"),
    include_str!("../../variants/pocketknight.ini"),
    include_str!("../../variants/raazuvaa.ini"),
    include_str!("../../variants/racingkings.ini"),
    include_str!("../../variants/shako.ini"),
    include_str!("../../variants/sortofalmost.ini"),
    include_str!("../../variants/tencubed.ini"),
    include_str!("../../variants/threekings.ini"),
    include_str!("../../variants/torpedo.ini"),
    // The shogi family, templates first.
    include_str!("../../variants/minishogi.ini"),
    include_str!("../../variants/mini.ini"),
    include_str!("../../variants/kyotoshogi.ini"),
    include_str!("../../variants/micro.ini"),
    include_str!("../../variants/gorogoro.ini"),
    include_str!("../../variants/judkins.ini"),
    include_str!("../../variants/euroshogi.ini"),
    include_str!("../../variants/shogi.ini"),
    include_str!("../../variants/checkshogi.ini"),
    include_str!("../../variants/okisakishogi.ini"),
    include_str!("../../variants/torishogi.ini"),
    include_str!("../../variants/yarishogi.ini"),
    include_str!("../../variants/shoshogi.ini"),
    include_str!("../../variants/dobutsu.ini"),
    include_str!("../../variants/gustav3.ini"),
    include_str!("../../variants/omicron.ini"),
    include_str!("../../variants/troitzky.ini"),
    include_str!("../../variants/3check.ini"),
    include_str!("../../variants/5check.ini"),
    include_str!("../../variants/knightmate.ini"),
    include_str!("../../variants/shatranj.ini"),
    include_str!("../../variants/shatar.ini"),
    include_str!("../../variants/courier.ini"),
    include_str!("../../variants/grand.ini"),
    include_str!("../../variants/coregal.ini"),
    include_str!("../../variants/armageddon.ini"),
    // Atomic chess, its template first.
    include_str!("../../variants/nocheckatomic.ini"),
    include_str!("../../variants/atomic.ini"),
    include_str!("../../variants/atomar.ini"),
    include_str!("../../variants/opulent.ini"),
    // The makruk family, its template first.
    include_str!("../../variants/makruk.ini"),
    include_str!("../../variants/makpong.ini"),
    include_str!("../../variants/ai-wok.ini"),
    include_str!("../../variants/asean.ini"),
    include_str!("../../variants/suicide.ini"),
    include_str!("../../variants/jesonmor.ini"),
    // The xiangqi family, templates first.
    include_str!("../../variants/minixiangqi.ini"),
    include_str!("../../variants/xiangqi.ini"),
    include_str!("../../variants/manchu.ini"),
    // Janggi, its template first.
    include_str!("../../variants/janggi.ini"),
    include_str!("../../variants/janggitraditional.ini"),
    include_str!("../../variants/janggimodern.ini"),
    include_str!("../../variants/janggicasual.ini"),
];

/// Our definitions read, as templates for further text: read once, and
/// copied for each text added (a server offers every stored posted
/// version at start, each read against them).
pub(crate) fn generic_library() -> Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| generic_specs().0).clone()
}

/// Our definitions read: the library, and each section's spec in order.
pub(crate) fn generic_specs() -> (Library, Vec<Spec>) {
    let mut lib = Library::default();
    let mut specs = Vec::new();
    for (i, text) in DEFINITIONS.iter().enumerate() {
        match lib.add(text) {
            Ok(s) => specs.extend(s),
            Err(e) => panic!("definition {i} of rules/variants is refused: {e}"),
        }
    }
    (lib, specs)
}
