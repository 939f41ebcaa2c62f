//! Shuffled starts for Chess960-style definitions (`chess960 = true`):
//! the start position's back rank in another order, bishops on squares of
//! both colours, the king between its rooks, and (Capablanca random
//! chess) the queen and archbishop on squares of both colours too; Black
//! mirrors White. Fairy-Stockfish leaves the shuffle to the interface, so
//! these rules are the games' own.

use super::Generic;

impl Generic {
    /// The start position's ranks, and its fields after the board.
    fn start_parts(&self) -> Option<(Vec<String>, Vec<String>)> {
        let mut fields = self.start.split_whitespace();
        let board = fields.next()?;
        let ranks: Vec<String> = board.split('/').map(str::to_string).collect();
        (ranks.len() == self.spec.height as usize)
            .then(|| (ranks, fields.map(str::to_string).collect()))
    }

    /// The files of `rank` (White's back rank, one letter a square) whose
    /// piece's kind passes `keep`.
    fn files_where(&self, rank: &[char], keep: impl Fn(u8) -> bool) -> Vec<usize> {
        rank.iter()
            .enumerate()
            .filter(|(_, c)| self.spec.kind_of_letter(**c).is_some_and(&keep))
            .map(|(i, _)| i)
            .collect()
    }

    /// Whether `rank` keeps the shuffle's rules.
    fn shuffle_allowed(&self, rank: &[char]) -> bool {
        let named =
            |name: &str| self.files_where(rank, |k| self.spec.pieces[k as usize].name == name);
        let apart = |a: &[usize], b: &[usize]| a.len() != 1 || b.len() != 1 || a[0] % 2 != b[0] % 2;
        let kings = self.files_where(rank, |k| Some(k) == self.spec.castling_king);
        let rooks = self.files_where(rank, |k| self.spec.castling_rooks.contains(&k));
        let between = match (kings.as_slice(), rooks.as_slice()) {
            ([k], [a, b]) => a < k && k < b,
            _ => true,
        };
        let bishops = named("bishop");
        let bishops_apart = bishops.len() != 2 || apart(&bishops[..1], &bishops[1..]);
        bishops_apart && between && apart(&named("queen"), &named("archbishop"))
    }

    /// The position with White's back rank `rank` (Black's mirrored).
    fn shuffled_fen(&self, rank: &[char]) -> Option<String> {
        let (mut ranks, fields) = self.start_parts()?;
        let white: String = rank.iter().collect();
        let black: String = white.to_ascii_lowercase();
        let last = ranks.len() - 1;
        ranks[last] = white;
        ranks[0] = black;
        let files = self.files_where(rank, |k| self.spec.castling_rooks.contains(&k));
        let castling = match files.as_slice() {
            [a, b] => {
                let (h, a) = ((b'A' + *b as u8) as char, (b'A' + *a as u8) as char);
                format!("{h}{a}{}{}", h.to_ascii_lowercase(), a.to_ascii_lowercase())
            }
            _ => "-".to_string(),
        };
        let mut out = ranks.join("/");
        let mut rest = fields.into_iter();
        out.push(' ');
        out.push_str(&rest.next().unwrap_or_else(|| "w".into()));
        rest.next();
        out.push(' ');
        out.push_str(&castling);
        for f in rest {
            out.push(' ');
            out.push_str(&f);
        }
        Some(out)
    }

    /// White's back rank of the start position, one letter a square, when
    /// it has no gaps and Black's mirrors it.
    fn back_rank(&self) -> Option<Vec<char>> {
        let (ranks, _) = self.start_parts()?;
        let white: Vec<char> = ranks.last()?.chars().collect();
        let black: String = ranks.first()?.clone();
        (white.len() == self.spec.width as usize
            && white.iter().all(char::is_ascii_uppercase)
            && black == white.iter().collect::<String>().to_ascii_lowercase())
        .then_some(white)
    }

    pub(super) fn shuffled_start_fen(&self, seed: u64) -> Option<String> {
        if !self.spec.chess960 {
            return None;
        }
        let mut rank = self.back_rank()?;
        // splitmix64 to spread the seed, then xorshift64*: a start is
        // picked, not kept secret.
        let mut state = {
            let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) | 1
        };
        let mut next = |n: usize| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
        };
        loop {
            for i in (1..rank.len()).rev() {
                rank.swap(i, next(i + 1));
            }
            if self.shuffle_allowed(&rank) {
                return self.shuffled_fen(&rank);
            }
        }
    }

    pub(super) fn is_shuffled_start_fen(&self, fen: &str) -> bool {
        let Some(start) = self.back_rank() else {
            return false;
        };
        let Some(board) = fen.split_whitespace().next() else {
            return false;
        };
        let Some(white) = board.split('/').next_back() else {
            return false;
        };
        let rank: Vec<char> = white.chars().collect();
        let mut a = rank.clone();
        let mut b = start;
        a.sort_unstable();
        b.sort_unstable();
        self.spec.chess960
            && a == b
            && self.shuffle_allowed(&rank)
            && self.shuffled_fen(&rank).is_some_and(|f| f == fen)
    }
}
