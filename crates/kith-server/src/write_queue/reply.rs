//! A queued transaction's answer: given exactly once, even when the writer fails.

use std::panic::{catch_unwind, AssertUnwindSafe};

use kith_protocol::ErrorCode as Code;
use kith_storage::CommitInfo;

use super::WriteTiming;
use crate::error::ExecError;

type Callback = Box<dyn FnOnce(Result<CommitInfo, ExecError>, WriteTiming) + Send>;

/// Called once with the transaction's outcome, on the writer thread, after its group
/// is durable (or failed). The callback must not block.
///
/// A reply dropped unanswered answers `internal` itself: the writer's thread may
/// unwind from a bug with a group's replies in hand, and an unanswered write would
/// leave its client waiting for ever (and, on WebSocket, hold one of its
/// connection's in-flight slots for good).
pub(crate) struct Reply(Option<Callback>);

impl Reply {
    pub(crate) fn new(
        callback: impl FnOnce(Result<CommitInfo, ExecError>, WriteTiming) + Send + 'static,
    ) -> Reply {
        Reply(Some(Box::new(callback)))
    }

    /// Answers. A callback that panics (a bug in answering) is logged; the commit
    /// stands, and the writer goes on with the group's other answers.
    pub(crate) fn send(mut self, outcome: Result<CommitInfo, ExecError>, timing: WriteTiming) {
        if let Some(callback) = self.0.take() {
            let answered = catch_unwind(AssertUnwindSafe(move || callback(outcome, timing)));
            if let Err(panic) = answered {
                let what = crate::pool::panic_text(panic.as_ref());
                tracing::error!(panic = %what, "answering a write panicked; its commit stands");
            }
        }
    }
}

impl Drop for Reply {
    fn drop(&mut self) {
        let Some(callback) = self.0.take() else {
            return;
        };
        let error = ExecError::new(
            Code::Internal,
            "the server failed while committing this write (a bug, logged); whether it \
             was committed is unknown: read before running it again",
        );
        tracing::error!("a write's answer was dropped unanswered; answered `internal`");
        // Its callback only hands the answer on; should it panic anyway, that is
        // caught like `send`'s (also while the writer unwinds: a panic caught inside
        // a destructor does not abort).
        let _ = catch_unwind(AssertUnwindSafe(move || {
            callback(Err(error), WriteTiming::default())
        }));
    }
}
