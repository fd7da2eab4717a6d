//! Ctrl-C while a statement runs stops the statement, not the shell. (At the
//! prompt the line editor reads Ctrl-C as a key, so the signal comes only while a
//! statement runs.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::signal::unix::{signal, SignalKind};

/// Set by Ctrl-C; cleared before each statement.
pub struct Interrupt {
    flag: Arc<AtomicBool>,
}

impl Interrupt {
    /// Catches Ctrl-C (SIGINT) from now on, on a thread of its own.
    pub fn catch() -> Result<Interrupt> {
        let flag = Arc::new(AtomicBool::new(false));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the Ctrl-C watcher")?;
        // Registered here, before the line editor first runs: it swaps in a handler
        // of its own while reading and puts back the one it found, which must be
        // this one, not the default that ends the process.
        let mut signals = runtime
            .block_on(async { signal(SignalKind::interrupt()) })
            .context("catching Ctrl-C")?;
        let seen = flag.clone();
        std::thread::Builder::new()
            .name("ctrl-c".into())
            .spawn(move || {
                runtime.block_on(async {
                    while signals.recv().await.is_some() {
                        seen.store(true, Ordering::Relaxed);
                    }
                });
            })
            .context("starting the Ctrl-C watcher")?;
        Ok(Interrupt { flag })
    }

    /// The flag for the next statement, cleared.
    pub fn arm(&self) -> &Arc<AtomicBool> {
        self.flag.store(false, Ordering::Relaxed);
        &self.flag
    }

    /// Whether Ctrl-C came since the flag was armed.
    pub fn fired(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}
