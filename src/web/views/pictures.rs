//! Board pictures kept by what they show: the variant, the FEN, the side at
//! the bottom and the last move's squares, each with its text alternative. Drawing was a large part of a
//! game page's CPU; a picture found by its content can never be stale.

use crate::web::views::board_svg::SvgOptions;
use crate::web::views::board_text;
use missive_rules::{BoardView, FenError, Variant};
use quick_cache::sync::Cache;
use quick_cache::Weighter;
use std::hash::BuildHasher;
use std::sync::Arc;

/// A board picture and what it was drawn from.
struct Picture {
    variant: &'static str,
    fen: String,
    flipped: bool,
    last_move: Option<(Option<String>, String)>,
    svg: Arc<str>,
}

/// What a picture shows, as the page asks for it.
pub struct PictureOf<'a> {
    pub variant: &'a dyn Variant,
    pub fen: &'a str,
    pub flipped: bool,
    pub last_move: Option<(Option<&'a str>, &'a str)>,
}

impl PictureOf<'_> {
    fn is(&self, p: &Picture) -> bool {
        p.variant == self.variant.id()
            && p.fen == self.fen
            && p.flipped == self.flipped
            && p.last_move
                .as_ref()
                .map(|(f, t)| (f.as_deref(), t.as_str()))
                == self.last_move
    }
}

#[derive(Clone)]
struct Bytes;

impl Weighter<u64, Arc<Picture>> for Bytes {
    fn weight(&self, _: &u64, p: &Arc<Picture>) -> u64 {
        (p.fen.len() + p.svg.len() + 128) as u64
    }
}

pub struct Pictures {
    pictures: Cache<u64, Arc<Picture>, Bytes>,
    hasher: std::collections::hash_map::RandomState,
}

impl Pictures {
    /// A cache holding about `bytes` of pictures.
    pub fn new(bytes: u64) -> Pictures {
        Pictures {
            pictures: Cache::with_weighter(((bytes / 8_192) as usize).max(16), bytes, Bytes),
            hasher: Default::default(),
        }
    }

    /// The board picture of `of`, drawn by `view` (the position `of.fen`
    /// names) when not kept.
    pub fn picture<V: std::borrow::Borrow<BoardView>>(
        &self,
        of: &PictureOf,
        view: impl FnOnce() -> Result<V, FenError>,
    ) -> Result<Arc<str>, FenError> {
        let key = self
            .hasher
            .hash_one((of.variant.id(), of.fen, of.flipped, of.last_move));
        if let Some(p) = self.pictures.get(&key) {
            if of.is(&p) {
                return Ok(p.svg.clone());
            }
        }
        let svg: Arc<str> = board_text::board_and_text(
            view()?.borrow(),
            &SvgOptions {
                flipped: of.flipped,
                last_move: of.last_move,
            },
        )
        .into();
        let picture = Picture {
            variant: of.variant.id(),
            fen: of.fen.to_string(),
            flipped: of.flipped,
            last_move: of
                .last_move
                .map(|(f, t)| (f.map(str::to_string), t.to_string())),
            svg: svg.clone(),
        };
        self.pictures.insert(key, Arc::new(picture));
        Ok(svg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> &'static dyn Variant {
        missive_rules::variant("chess").unwrap()
    }

    const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    #[test]
    fn pictures_differ_by_side_and_last_move() {
        let cache = Pictures::new(1 << 20);
        let draws = std::cell::Cell::new(0);
        let pos = chess().parse_fen(E4).unwrap();
        let view = || {
            draws.set(draws.get() + 1);
            Ok(BoardView::new(chess(), &pos))
        };
        let of = |flipped, last_move| PictureOf {
            variant: chess(),
            fen: E4,
            flipped,
            last_move,
        };
        let plain = cache.picture(&of(false, None), view).unwrap();
        let again = cache.picture(&of(false, None), view).unwrap();
        assert_eq!(draws.get(), 1, "the second picture comes from the cache");
        assert_eq!(plain, again);
        let flipped = cache.picture(&of(true, None), view).unwrap();
        let marked = cache
            .picture(&of(false, Some((Some("e2"), "e4"))), view)
            .unwrap();
        assert_eq!(draws.get(), 3);
        assert_ne!(plain, flipped);
        assert_ne!(plain, marked);
        let direct = board_text::board_and_text(
            &BoardView::new(chess(), &pos),
            &SvgOptions {
                flipped: true,
                last_move: None,
            },
        );
        assert_eq!(&*flipped, direct.as_str());
    }
}
