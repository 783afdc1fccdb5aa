//! The seats a terminal game holds, kept in its data directory
//! (`last-game.json`) so that `xodus play --resume` takes the game back
//! after the terminal was closed: the game, the server it is on (empty for
//! the local one), each human seat's token and which seats AI captains
//! play, with their tokens. The file is removed when the game ends. Seat tokens are secrets:
//! the file is written readable by its owner only. Beside it, `web.json`
//! keeps the address `play --web` last served on, so the next run serves
//! the page from the same origin, where the browser keeps its seat tokens.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The saved seats of one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// The game id.
    pub game: String,
    /// The server URL, or empty for the data directory's local server.
    pub server: String,
    /// Each human seat of this terminal and its token.
    pub seats: BTreeMap<u8, String>,
    /// Seats played by AI captains that `play` started.
    pub ai_seats: Vec<u8>,
    /// The AI seats' tokens (`play` claims them for its captains, so that
    /// the captains it starts again on `--resume` hold the same seats).
    /// Empty in files saved before they were kept.
    #[serde(default)]
    pub ai_tokens: BTreeMap<u8, String>,
}

/// Why the saved game could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SavedError {
    /// Nothing saved.
    #[error("no unfinished game is saved in {0} (start one with `xodus play`)")]
    Nothing(PathBuf),
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not a saved game.
    #[error("{path} is not a saved game: {source}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: serde_json::Error,
    },
}

fn file(data_dir: &Path) -> PathBuf {
    data_dir.join("last-game.json")
}

fn web_file(data_dir: &Path) -> PathBuf {
    data_dir.join("web.json")
}

/// Where `play --web` served the page last time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebAddress {
    /// The server's listening address, `HOST:PORT`.
    pub listen: String,
}

/// Saves `game` in `data_dir`, replacing what was there.
pub fn save(data_dir: &Path, game: &SavedGame) -> Result<(), SavedError> {
    write(&file(data_dir), data_dir, game)
}

/// Keeps the address `play --web` serves on, for the next run.
pub fn save_web(data_dir: &Path, listen: &str) -> Result<(), SavedError> {
    write(&web_file(data_dir), data_dir, &WebAddress { listen: listen.to_string() })
}

/// The address `play --web` served on last time, if it was kept (a file
/// that cannot be read counts as none).
pub fn load_web(data_dir: &Path) -> Option<WebAddress> {
    let text = std::fs::read_to_string(web_file(data_dir)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes `value` as JSON to `path` (in `data_dir`), readable by its owner
/// only, replacing the file at once.
fn write<T: Serialize>(path: &Path, data_dir: &Path, value: &T) -> Result<(), SavedError> {
    let path = path.to_path_buf();
    let io = |source| SavedError::Io { path: path.clone(), source };
    std::fs::create_dir_all(data_dir).map_err(io)?;
    let text =
        serde_json::to_string_pretty(value).map_err(|source| SavedError::Format { path: path.clone(), source })?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
    }
    std::fs::rename(&tmp, &path).map_err(io)
}

/// The game saved in `data_dir`.
pub fn load(data_dir: &Path) -> Result<SavedGame, SavedError> {
    let path = file(data_dir);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SavedError::Nothing(data_dir.to_path_buf())),
        Err(source) => return Err(SavedError::Io { path, source }),
    };
    serde_json::from_str(&text).map_err(|source| SavedError::Format { path, source })
}

/// Forgets the saved game (it ended).
pub fn clear(data_dir: &Path) {
    let _ = std::fs::remove_file(file(data_dir));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_game_reads_back_and_is_forgotten() {
        let dir = std::env::temp_dir().join(format!("xodus-saved-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(matches!(load(&dir), Err(SavedError::Nothing(_))));
        let game = SavedGame {
            game: "g-1".into(),
            server: String::new(),
            seats: BTreeMap::from([(0, "a".repeat(32))]),
            ai_seats: vec![1, 2],
            ai_tokens: BTreeMap::from([(1, "b".repeat(32)), (2, "c".repeat(32))]),
        };
        save(&dir, &game).expect("save");
        assert_eq!(load(&dir).expect("load"), game);
        // A file saved before the AI tokens were kept still reads.
        std::fs::write(file(&dir), r#"{"game":"g-1","server":"","seats":{"0":"t"},"ai_seats":[1]}"#).expect("write");
        assert!(load(&dir).expect("an older file").ai_tokens.is_empty());
        std::fs::write(file(&dir), "not json").expect("write");
        assert!(matches!(load(&dir), Err(SavedError::Format { .. })));
        clear(&dir);
        assert!(matches!(load(&dir), Err(SavedError::Nothing(_))));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_web_address_reads_back_beside_the_game() {
        let dir = std::env::temp_dir().join(format!("xodus-saved-web-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(load_web(&dir), None);
        save_web(&dir, "127.0.0.1:40123").expect("save");
        assert_eq!(load_web(&dir), Some(WebAddress { listen: "127.0.0.1:40123".into() }));
        // The game's file is another file: forgetting the game keeps the address.
        clear(&dir);
        assert_eq!(load_web(&dir).map(|w| w.listen).as_deref(), Some("127.0.0.1:40123"));
        std::fs::write(web_file(&dir), "{").expect("write");
        assert_eq!(load_web(&dir), None, "a damaged file counts as none");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
