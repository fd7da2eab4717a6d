//! A shard's identity, kept in its own graph (schema cursors, so it survives
//! checkpoints and replicates with the log): which shard it is, of how many forum
//! shards, and which split made it. The router checks it on connecting, so a wrong
//! server in its list is refused rather than merged (`shard.info`).

use kith_core::write_op::WriteOp;
use kith_core::SchemaOp;

use super::Shard;

use kith_core::ldbc_schema::shard_cursor;

/// The operations that record `shard`'s identity.
pub fn identity_ops(shard: Shard, forum_shards: usize, split: i64) -> Vec<WriteOp> {
    let index = match shard {
        Shard::Person => -1,
        Shard::Forum(i) => i as i64,
    };
    [
        (shard_cursor::INDEX, index),
        (shard_cursor::FORUM_SHARDS, forum_shards as i64),
        (shard_cursor::SPLIT, split),
    ]
    .into_iter()
    .map(|(name, value)| {
        WriteOp::Schema(SchemaOp::SetCursor {
            name: name.to_owned(),
            value,
            expect: None,
        })
    })
    .collect()
}

/// The shard an index cursor names.
pub fn shard_of_index(index: i64) -> Option<Shard> {
    match index {
        -1 => Some(Shard::Person),
        i if i >= 0 => Some(Shard::Forum(i as usize)),
        _ => None,
    }
}
