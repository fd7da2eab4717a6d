//! Row shapes shared by several queries (people, activities, profiles).

use std::sync::Arc;

use kith_core::shindig_schema::key;
use kith_core::{Direction, NodeId, Value};

use super::schema::Shindig;

/// Columns of a person reference.
pub(crate) const PERSON_COLUMNS: &[&str] = &["id", "displayName"];

/// Columns of an activity row.
pub(crate) const ACTIVITY_COLUMNS: &[&str] =
    &["id", "personId", "title", "body", "postedTime", "mediaUrls"];

/// Columns of a profile row.
pub(crate) const PROFILE_COLUMNS: &[&str] = &[
    "id",
    "displayName",
    "givenName",
    "familyName",
    "email",
    "phoneNumber",
    "birthday",
    "gender",
    "aboutMe",
    "interests",
    "jobTitle",
    "updated",
    "addresses",
    "organizations",
];

/// The person's own properties that a profile shows, in column order (after `id`).
const PROFILE_PROPERTIES: &[&str] = &[
    key::DISPLAY_NAME,
    key::GIVEN_NAME,
    key::FAMILY_NAME,
    key::EMAIL,
    key::PHONE_NUMBER,
    key::BIRTHDAY,
    key::GENDER,
    key::ABOUT_ME,
    key::INTERESTS,
    key::JOB_TITLE,
    key::UPDATED,
];

const ADDRESS_FIELDS: &[&str] = &[
    key::TYPE,
    key::STREET_ADDRESS,
    key::LOCALITY,
    key::REGION,
    key::POSTAL_CODE,
    key::COUNTRY,
];

impl Shindig<'_> {
    /// `[id, displayName]`, given the external id already looked up for sorting.
    pub(crate) fn person_row(&self, id: i64, person: NodeId) -> Vec<Value> {
        vec![Value::Int(id), self.prop(person, self.display_name)]
    }

    /// Nodes with their external ids, sorted by external id (ties cannot happen within
    /// one label; internal id breaks them anyway).
    pub(crate) fn by_ext_id(&self, nodes: impl Iterator<Item = NodeId>) -> Vec<(i64, NodeId)> {
        let mut out: Vec<(i64, NodeId)> = nodes.map(|n| (self.ext_id(n), n)).collect();
        out.sort_unstable();
        out
    }

    /// Targets of a relationship type, sorted by external id.
    pub(crate) fn targets_by_ext_id(
        &self,
        node: NodeId,
        rel_type: kith_core::RelTypeId,
    ) -> Vec<(i64, NodeId)> {
        self.by_ext_id(
            self.g
                .neighbors(node, rel_type, Direction::Out)
                .iter()
                .map(|e| e.node),
        )
    }

    /// Activities sorted newest first (postedTime desc, id desc).
    pub(crate) fn newest_first(&self, activities: impl Iterator<Item = NodeId>) -> Vec<NodeId> {
        let mut keyed: Vec<(i64, i64, NodeId)> = activities
            .map(|a| (self.time(a, self.posted_time), self.ext_id(a), a))
            .collect();
        keyed.sort_unstable_by_key(|x| std::cmp::Reverse((x.0, x.1)));
        keyed.into_iter().map(|(_, _, a)| a).collect()
    }

    /// An activity row (see `ACTIVITY_COLUMNS`).
    pub(crate) fn activity_row(&self, activity: NodeId) -> Vec<Value> {
        let performer = self
            .g
            .neighbors(activity, self.performed, Direction::In)
            .first()
            .map_or(Value::Null, |e| Value::Int(self.ext_id(e.node)));
        let media = self.g.neighbors(activity, self.has_media, Direction::Out);
        let urls = match media {
            [] => Vec::new(),
            [one] => vec![self.prop_opt(one.node, self.url)],
            _ => self
                .targets_by_ext_id(activity, self.has_media)
                .into_iter()
                .map(|(_, m)| self.prop_opt(m, self.url))
                .collect(),
        };
        vec![
            Value::Int(self.ext_id(activity)),
            performer,
            self.prop(activity, self.title),
            self.prop_opt(activity, self.body),
            self.prop(activity, self.posted_time),
            Value::List(urls),
        ]
    }

    /// A profile row (see `PROFILE_COLUMNS`).
    pub(crate) fn profile_row(&self, person: NodeId) -> Vec<Value> {
        let mut row = Vec::with_capacity(PROFILE_COLUMNS.len());
        row.push(Value::Int(self.ext_id(person)));
        row.extend(
            PROFILE_PROPERTIES
                .iter()
                .map(|k| self.prop_named(person, k)),
        );
        let addresses = self
            .targets_by_ext_id(person, self.has_address)
            .into_iter()
            .map(|(_, a)| {
                Value::Map(
                    ADDRESS_FIELDS
                        .iter()
                        .map(|f| (Arc::<str>::from(*f), self.prop_named(a, f)))
                        .collect(),
                )
            })
            .collect();
        row.push(Value::List(addresses));
        let mut jobs: Vec<(i64, Value)> = self
            .g
            .neighbors(person, self.works_at, Direction::Out)
            .iter()
            .map(|e| {
                let job = self.g.relationship(e.rel);
                let job_prop = |name: &str| {
                    job.zip(self.g.prop_key_id(name))
                        .and_then(|(r, k)| r.property(k).cloned())
                        .unwrap_or(Value::Null)
                };
                let org = e.node;
                let id = self.ext_id(org);
                let map = Value::Map(vec![
                    ("id".into(), Value::Int(id)),
                    ("name".into(), self.prop_named(org, key::NAME)),
                    ("industry".into(), self.prop_named(org, key::INDUSTRY)),
                    ("title".into(), job_prop(key::TITLE)),
                    ("department".into(), job_prop(key::DEPARTMENT)),
                    ("startDate".into(), job_prop(key::START_DATE)),
                ]);
                (id, map)
            })
            .collect();
        jobs.sort_by_key(|(id, _)| *id);
        row.push(Value::List(jobs.into_iter().map(|(_, m)| m).collect()));
        row
    }
}
