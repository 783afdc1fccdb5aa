//! What every game's content loading shares: the error that names the file,
//! the entry and the problem; a TOML file read into the game's own types;
//! and the check that ids are unique within a file.

use serde::Deserialize;

/// A content file that does not meet the rules' counts or shapes.
#[derive(Debug, thiserror::Error)]
#[error("content file {file}: {entry}: {problem}")]
pub struct ContentError {
    /// The file that is wrong.
    pub file: &'static str,
    /// The entry in it.
    pub entry: String,
    /// What is wrong.
    pub problem: String,
}

/// The error for `entry` of `file`.
pub fn err(file: &'static str, entry: impl Into<String>, problem: impl Into<String>) -> ContentError {
    ContentError { file, entry: entry.into(), problem: problem.into() }
}

/// A content file's TOML text read as `T`.
pub fn parse<T: for<'de> Deserialize<'de>>(file: &'static str, text: &str) -> Result<T, ContentError> {
    toml::from_str(text).map_err(|e| err(file, "(file)", e.to_string()))
}

/// Refuses a file whose entries repeat an id.
pub fn unique_ids<'a>(file: &'static str, ids: impl Iterator<Item = &'a str>) -> Result<(), ContentError> {
    let mut seen = std::collections::BTreeSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(err(file, id.to_string(), "duplicate id"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_id_and_bad_toml_name_the_file_and_the_entry() {
        let e = unique_ids("a.toml", ["x", "y", "x"].into_iter()).expect_err("x twice");
        assert_eq!(e.to_string(), "content file a.toml: x: duplicate id");
        assert!(unique_ids("a.toml", ["x", "y"].into_iter()).is_ok());
        let bad = parse::<std::collections::BTreeMap<String, u8>>("b.toml", "k = \"not a number\"").expect_err("bad");
        assert!(bad.to_string().starts_with("content file b.toml: (file): "), "{bad}");
    }
}
