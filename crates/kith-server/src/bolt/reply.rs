//! A Bolt request's [`Reply`]: the worker (or the writer) hands the outcome to the
//! connection's task, which streams it as the client PULLs.

use std::sync::Arc;
use std::time::Instant;

use kith_core::Value;
use kith_cypher::GraphValue;
use kith_protocol::Trailer;
use tokio::sync::oneshot;

use crate::dispatch::{GraphAnswer, OnceSender, Reply};
use crate::error::ExecError;
use crate::metrics::Transport;
use crate::state::AppState;

/// What a Bolt request came to.
pub(crate) enum Outcome {
    /// Rows (none for a commit), and the commit when it wrote.
    Answered(Box<(GraphAnswer, Trailer)>),
    /// It failed, or was refused.
    Failed(ExecError),
}

#[derive(Clone)]
pub(crate) struct BoltReply {
    state: Arc<AppState>,
    arrived: Instant,
    done: OnceSender<Outcome>,
}

impl BoltReply {
    /// A reply, and where its outcome arrives.
    pub(crate) fn new(state: &Arc<AppState>) -> (BoltReply, oneshot::Receiver<Outcome>) {
        let (done, outcome) = OnceSender::new();
        let reply = BoltReply {
            state: state.clone(),
            arrived: Instant::now(),
            done,
        };
        (reply, outcome)
    }

    fn send(&self, outcome: Outcome) {
        self.done.send(outcome);
    }

    fn observe(&self, metric: &str) {
        let elapsed = self.arrived.elapsed();
        self.state.metrics.observe(Transport::Bolt, metric, elapsed);
    }
}

impl Reply for BoltReply {
    /// One request at a time per connection.
    fn in_flight(&self) -> usize {
        1
    }

    const GRAPH: bool = true;

    fn arrived(&self) -> Instant {
        self.arrived
    }

    /// Plain rows (Bolt sends only Cypher, so only a write's commit row comes here).
    fn answer(self, metric: &str, columns: &[String], values: &[Value], trailer: Trailer) {
        let width = columns.len().max(1);
        let rows = values
            .chunks(width)
            .map(|r| r.iter().cloned().map(GraphValue::Plain).collect())
            .collect();
        let answer = GraphAnswer {
            columns: columns.to_vec(),
            rows,
            tx: None,
            counts: None,
        };
        self.answer_graph(metric, answer, trailer);
    }

    fn answer_graph(self, metric: &str, answer: GraphAnswer, trailer: Trailer) {
        self.observe(metric);
        self.send(Outcome::Answered(Box::new((answer, trailer))));
    }

    fn fail(self, metric: &str, error: &ExecError) {
        self.observe(metric);
        self.state.metrics.error(Transport::Bolt, error.code);
        self.send(Outcome::Failed(error.clone()));
    }

    fn refuse(self, error: &ExecError) {
        self.state.metrics.error(Transport::Bolt, error.code);
        self.send(Outcome::Failed(error.clone()));
    }
}
