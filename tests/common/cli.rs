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
