//! IS4, IS5, IS6: about one message, which lives on one forum shard. Every forum
//! shard is asked (the router keeps no message index); the one holding it answers,
//! and a person in the answer is named from the person shard.

use kith_core::Value;
use kith_procedures::{Params, ProcedureError};

use crate::merge::{all_rows, param};
use crate::{RouteError, Router};

pub(crate) async fn run(
    r: &Router,
    procedure: &'static str,
    p: &Params,
    width: usize,
) -> Result<Vec<Vec<Value>>, RouteError> {
    let rows = r.message_rows(procedure, p, width).await?;
    let mut rows = rows;
    match procedure {
        "ldbc.is5" => r.name_rows(&mut rows, 0).await?,
        "ldbc.is6" => r.name_rows(&mut rows, 2).await?,
        _ => {}
    }
    Ok(rows)
}

impl Router {
    /// The rows of a read about one message from the forum shard that holds it, or
    /// `not_found` when none does.
    pub(crate) async fn message_rows(
        &self,
        procedure: &'static str,
        p: &Params,
        width: usize,
    ) -> Result<Vec<Vec<Value>>, RouteError> {
        let id = p.int("messageId")?;
        let params = vec![param("messageId", Value::Int(id))];
        let answers = self.on_forums(procedure, params, width, true).await?;
        if answers.iter().all(|a| a.columns.is_empty()) {
            return Err(ProcedureError::NotFound {
                label: "Message",
                id,
            }
            .into());
        }
        Ok(all_rows(answers))
    }
}
