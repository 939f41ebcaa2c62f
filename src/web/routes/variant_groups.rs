//! The variants as the new-game form and the variants page list them:
//! grouped by family, and found by a word of their name or family
//! (`GET /games/new?q=capa`, a plain form, so it works without script).

use missive_rules::{Family, Variant};

/// One family's variants: (id, name) each.
pub struct Group {
    pub family: &'static str,
    pub code: &'static str,
    pub variants: Vec<(String, String)>,
}

/// Whether `v` is found by `q` (already lower case, trimmed): a part of its
/// id, name or family's name or code.
fn matches(v: &dyn Variant, q: &str) -> bool {
    let f = v.family();
    [v.id(), v.name(), f.title(), f.code()]
        .iter()
        .any(|s| s.to_lowercase().contains(q))
}

/// The variants found by `q` (every one for an empty `q`), and always
/// `keep` (the one already chosen), grouped by family in the families'
/// order, each in the order the server offers them; empty groups left out.
pub fn groups(q: &str, keep: &str) -> Vec<Group> {
    let q = q.trim().to_lowercase();
    let all = missive_rules::variants();
    Family::ALL
        .into_iter()
        .map(|family| Group {
            family: family.title(),
            code: family.code(),
            variants: all
                .iter()
                .filter(|v| v.family() == family)
                .filter(|v| q.is_empty() || v.id() == keep || matches(**v, &q))
                .map(|v| (v.id().to_string(), v.name().to_string()))
                .collect(),
        })
        .filter(|g| !g.variants.is_empty())
        .collect()
}

/// How many variants `groups` lists.
pub fn count(groups: &[Group]) -> usize {
    groups.iter().map(|g| g.variants.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_finds_variants_by_name_or_family() {
        let all = groups("", "");
        assert_eq!(count(&all), missive_rules::variants().len());
        assert_eq!(all[0].code, "chess");
        let capa = groups("CAPA", "");
        let ids: Vec<&str> = capa
            .iter()
            .flat_map(|g| g.variants.iter().map(|v| v.0.as_str()))
            .collect();
        assert!(
            ids.contains(&"capablanca") && ids.contains(&"capahouse"),
            "{ids:?}"
        );
        assert!(!ids.contains(&"chess"));
        // A family's name finds all of it.
        let drops = groups("drops", "");
        assert!(drops.iter().all(|g| g.code == "drops"));
        assert!(count(&drops) >= 2);
        // The chosen variant stays listed whatever the word.
        let kept = groups("nothing-matches-this", "maohopper");
        assert_eq!(count(&kept), 1);
    }
}
