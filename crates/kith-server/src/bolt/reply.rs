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

    /// Sends the outcome if it is the request's first, counting it in `metric`'s
    /// latency (`None`: not counted) and, when it failed, in the error counts.
    fn send(&self, outcome: Outcome, metric: Option<&str>) {
        let code = match &outcome {
            Outcome::Failed(error) => Some(error.code),
            Outcome::Answered(_) => None,
        };
        self.done.send(outcome, || {
            let metrics = &self.state.metrics;
            if let Some(metric) = metric {
                metrics.observe(Transport::Bolt, metric, self.arrived.elapsed());
            }
            if let Some(code) = code {
                metrics.error(Transport::Bolt, code);
            }
        });
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
        let outcome = Outcome::Answered(Box::new((answer, trailer)));
        self.send(outcome, Some(metric));
    }

    fn fail(self, metric: &str, error: &ExecError) {
        self.send(Outcome::Failed(error.clone()), Some(metric));
    }

    fn refuse(self, error: &ExecError) {
        self.send(Outcome::Failed(error.clone()), None);
    }
}
