//! Running the real `xodus` binary from a test: its output, a command that
//! must succeed, and reading what the scripted commands print as JSON.

use super::workspace_binary;
use serde_json::Value;
use std::process::{Command, Output, Stdio};

/// Runs `xodus ARGS` with no standard input.
pub fn xodus(args: &[&str]) -> Output {
    Command::new(workspace_binary("xodus")).args(args).stdin(Stdio::null()).output().expect("run xodus")
}

/// Runs `xodus ARGS`, expects success, returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = xodus(args);
    assert!(out.status.success(), "xodus {args:?} failed: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Reads JSON printed by a command.
pub fn json(text: &str) -> Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A number the JSON may write as a decimal string.
pub fn num(v: &Value) -> u64 {
    v.as_str().and_then(|s| s.parse().ok()).or_else(|| v.as_u64()).unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Waits (a hang guard, not a timing) until `ready` holds; `why` says what
/// was there when it did not.
pub fn wait_for(what: &str, mut ready: impl FnMut() -> bool, why: impl Fn() -> String) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(start.elapsed() < super::HANG_GUARD, "{what}: {}", why());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A command line run by util-linux `script` in a pseudo-terminal: what
/// it drew so far, and keys typed into it.
pub struct Screen {
    /// The `script` process.
    pub child: std::process::Child,
    keys: Option<std::process::ChildStdin>,
    drawn: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Screen {
    /// Runs `line` (a shell line, e.g. `stty cols 140 rows 45; exec xodus play ...`).
    pub fn open(line: &str) -> Screen {
        use std::io::Read;
        let mut child = Command::new("script")
            .args(["-qfec", line, "/dev/null"])
            .env("TERM", "xterm")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("util-linux `script` runs");
        let keys = child.stdin.take();
        let drawn = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
        let mut stdout = child.stdout.take().expect("stdout");
        let sink = std::sync::Arc::clone(&drawn);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().expect("screen buffer").extend_from_slice(&buf[..n]);
            }
        });
        Screen { child, keys, drawn }
    }

    /// Everything drawn so far, as text.
    pub fn shown(&self) -> String {
        String::from_utf8_lossy(&self.drawn.lock().expect("screen buffer")).into_owned()
    }

    /// Forgets what was drawn so far (to see only what comes next).
    pub fn clear(&self) {
        self.drawn.lock().expect("screen buffer").clear();
    }

    /// Types `k`.
    pub fn press(&mut self, k: &[u8]) {
        use std::io::Write;
        let keys = self.keys.as_mut().expect("the keys are open");
        keys.write_all(k).expect("a key reaches the terminal");
        keys.flush().expect("flush");
    }

    /// Closes the keyboard (end of input).
    pub fn close_keys(&mut self) {
        self.keys = None;
    }
}
