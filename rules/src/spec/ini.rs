//! The `variants.ini` file syntax: `[name]` or `[name:template]` sections of
//! `key = value` lines, `#` and `;` comment lines.

use super::SpecError;

/// One `key = value` line, with its line number for messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) key: String,
    pub(crate) value: String,
    pub(crate) line: usize,
}

/// A section as written: its name, the template it names, its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Section {
    pub(crate) name: String,
    pub(crate) template: Option<String>,
    pub(crate) line: usize,
    pub(crate) entries: Vec<Entry>,
}

/// Every section of `text`, in order. A key outside a section or a line
/// that is neither a section, a key nor a comment is refused.
pub(crate) fn sections(text: &str) -> Result<Vec<Section>, SpecError> {
    let mut out: Vec<Section> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        if let Some(inner) = t.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| SpecError::at(line, "a section header must end with `]`"))?;
            let (name, template) = match inner.split_once(':') {
                Some((n, t)) => (n.trim(), Some(t.trim().to_string())),
                None => (inner.trim(), None),
            };
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(SpecError::at(line, format!("bad variant name `{name}`")));
            }
            if out.iter().any(|s| s.name == name) {
                return Err(SpecError::at(
                    line,
                    format!("variant `{name}` is defined twice"),
                ));
            }
            out.push(Section {
                name: name.to_string(),
                template,
                line,
                entries: Vec::new(),
            });
            continue;
        }
        let (key, value) = t
            .split_once('=')
            .ok_or_else(|| SpecError::at(line, format!("expected `key = value`, found `{t}`")))?;
        let section = out
            .last_mut()
            .ok_or_else(|| SpecError::at(line, "a key before any `[variant]` section"))?;
        let key = key.trim().to_string();
        if section.entries.iter().any(|e| e.key == key) {
            return Err(SpecError::key(line, &key, "is set twice in this section"));
        }
        section.entries.push(Entry {
            key,
            value: value.trim().to_string(),
            line,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_and_templates() {
        let s = sections("# c\n[a:chess]\nx = 1\n; c\n[b]\ny=2 3\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].template.as_deref(), Some("chess"));
        assert_eq!(s[1].entries[0].value, "2 3");
        assert_eq!(s[1].entries[0].line, 6);
        assert!(sections("x = 1")
            .unwrap_err()
            .to_string()
            .contains("line 1"));
        assert!(sections("[a]\nnonsense").is_err());
    }
}
