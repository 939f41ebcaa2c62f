//! The site's own style sheet and scripts, served under names that hold a
//! hash of their content (`/static/style-1a2b3c4d5e6f7a8b.css`), so that a
//! browser may keep one for a year without asking again and still gets the
//! new one the moment a new server changes it (a fixed name cached for an
//! hour served an old script with a new page for up to that hour). The
//! fixed names still answer, briefly cached, for links made before.

use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// One file: its fixed name, content and type.
pub struct Asset {
    pub name: &'static str,
    pub body: &'static str,
    pub kind: &'static str,
    /// `{stem}-{hash}.{ext}`: the name pages link to.
    pub hashed: String,
}

const FILES: [(&str, &str, &str); 6] = [
    (
        "style.css",
        include_str!("../../static/style.css"),
        "text/css; charset=utf-8",
    ),
    (
        "board.js",
        include_str!("../../static/board.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "replay.js",
        include_str!("../../static/replay.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "install.js",
        include_str!("../../static/install.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "push.js",
        include_str!("../../static/push.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "favicon.svg",
        include_str!("../../static/favicon.svg"),
        "image/svg+xml",
    ),
];

fn all() -> &'static [Asset] {
    static ALL: OnceLock<Vec<Asset>> = OnceLock::new();
    ALL.get_or_init(|| {
        FILES
            .iter()
            .map(|&(name, body, kind)| {
                let hash = hex::encode(&Sha256::digest(body.as_bytes())[..8]);
                let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
                Asset {
                    name,
                    body,
                    kind,
                    hashed: format!("{stem}-{hash}.{ext}"),
                }
            })
            .collect()
    })
}

/// The address a page links the file `name` under (`/static/{hashed}`).
pub fn url(name: &str) -> String {
    match all().iter().find(|a| a.name == name) {
        Some(a) => format!("/static/{}", a.hashed),
        None => format!("/static/{name}"),
    }
}

/// The file a `/static/` name asks for, and whether the name is the
/// content-hashed one (kept for good) rather than the fixed one.
pub fn find(name: &str) -> Option<(&'static Asset, bool)> {
    all().iter().find_map(|a| {
        if a.hashed == name {
            Some((a, true))
        } else if a.name == name {
            Some((a, false))
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_content() {
        let u = url("style.css");
        assert!(
            u.starts_with("/static/style-") && u.ends_with(".css"),
            "{u}"
        );
        let hashed = u.trim_start_matches("/static/");
        let (a, immutable) = find(hashed).unwrap();
        assert!(immutable);
        assert_eq!(a.body, include_str!("../../static/style.css"));
        assert!(!find("style.css").unwrap().1);
        assert!(find("style-0000000000000000.css").is_none());
        assert_ne!(url("board.js"), url("replay.js"));
    }
}
