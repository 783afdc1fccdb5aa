//! Stop signals (Ctrl-C's SIGINT, SIGTERM, SIGHUP) for the whole process.
//! The children run in a process group of their own, so a signal meant for
//! the terminal reaches `xodus` alone, and `xodus` must stop them: a part
//! that stops in order by itself (the screen, `play --web`'s wait, `watch
//! --plain`) says so with [`handled_here`] while it runs; any other time,
//! [`unhandled`] resolves and `main` drops the running command, whose
//! child handles stop their processes as they drop (the AI captains before
//! the server: they are declared after it).

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many parts of the process handle the stop signals themselves now.
static HANDLERS: AtomicUsize = AtomicUsize::new(0);

/// While alive, the stop signals are this part's to handle.
#[must_use = "the signals are handled here only while this is alive"]
pub struct Handling(());

impl Drop for Handling {
    fn drop(&mut self) {
        HANDLERS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Says that the caller handles Ctrl-C, SIGTERM and SIGHUP itself, until
/// the returned value is dropped.
pub fn handled_here() -> Handling {
    HANDLERS.fetch_add(1, Ordering::SeqCst);
    Handling(())
}

/// Ctrl-C, SIGTERM or SIGHUP.
pub async fn stop_asked() {
    tokio::select! {
        r = tokio::signal::ctrl_c() => {
            if r.is_err() {
                // No SIGINT handler on this platform: wait for the others.
                std::future::pending::<()>().await;
            }
        }
        () = terminated() => {}
    }
}

/// Resolves on the first stop signal that no part of the process handles.
/// Called at once, it also keeps Ctrl-C from killing the process outright
/// before the children are stopped.
pub async fn unhandled() {
    loop {
        stop_asked().await;
        if HANDLERS.load(Ordering::SeqCst) == 0 {
            return;
        }
    }
}

/// Resolves when the process is asked to stop (SIGTERM, or SIGHUP when the
/// terminal goes away), so that child processes are still stopped on the way
/// out. Never resolves where those signals do not exist.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::hangup())) {
            (Ok(mut term), Ok(mut hup)) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = hup.recv() => {}
                }
            }
            _ => std::future::pending::<()>().await,
        }
    }
    #[cfg(not(unix))]
    std::future::pending::<()>().await
}
