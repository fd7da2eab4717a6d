//! The 19 Shindig social queries of S1 as native procedures, one file per query.
//!
//! Contracts (parameters, columns, order, tie-breaks): `docs/procedures.md`.
//! Common lookups live in [`schema`] and [`rows`]; each query file holds only its
//! own traversal.

mod rows;
mod schema;

mod q01_group_members;
mod q02_person_groups;
mod q03_friend_recommendations;
mod q04_group_recommendations;
mod q05_friends_of_friends_3;
mod q06_friends_of_friends;
mod q07_shortest_path;
mod q08_inbox;
mod q09_message_collections;
mod q10_profile;
mod q11_profiles;
mod q12_friends_of_people;
mod q13_friends;
mod q14_activity;
mod q15_person_activities;
mod q16_activities_of_people;
mod q17_activities_by_ids;
mod q18_activity_stream;
mod q19_message;

use crate::Procedure;

/// All Shindig procedures, in S1's query order.
pub fn procedures() -> Vec<Procedure> {
    vec![
        q01_group_members::PROCEDURE,
        q02_person_groups::PROCEDURE,
        q03_friend_recommendations::PROCEDURE,
        q04_group_recommendations::PROCEDURE,
        q05_friends_of_friends_3::PROCEDURE,
        q06_friends_of_friends::PROCEDURE,
        q07_shortest_path::PROCEDURE,
        q08_inbox::PROCEDURE,
        q09_message_collections::PROCEDURE,
        q10_profile::PROCEDURE,
        q11_profiles::PROCEDURE,
        q12_friends_of_people::PROCEDURE,
        q13_friends::PROCEDURE,
        q14_activity::PROCEDURE,
        q15_person_activities::PROCEDURE,
        q16_activities_of_people::PROCEDURE,
        q17_activities_by_ids::PROCEDURE,
        q18_activity_stream::PROCEDURE,
        q19_message::PROCEDURE,
    ]
}
