//! Row shapes shared by several queries (people, activities, profiles).

use std::sync::{Arc, OnceLock};

use kith_core::shindig_schema::key;
use kith_core::{Direction, NodeId, PropKeyId, Value};

use super::schema::Shindig;
use crate::ResultSet;

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
    /// Appends `[id, displayName]` rows of people, sorted by id.
    pub(crate) fn push_person_rows(
        &self,
        out: &mut ResultSet,
        people: impl Iterator<Item = NodeId>,
    ) {
        let people = self.people_by_id(people);
        out.reserve_rows(people.len());
        for (id, name) in people {
            out.push([Value::Int(id), name]);
        }
    }

    /// `(id, displayName)` of people sorted by id; each person's properties are
    /// fetched once for both the sort key and the name.
    pub(crate) fn people_by_id(&self, people: impl Iterator<Item = NodeId>) -> Vec<(i64, Value)> {
        // Sorting the 4-byte node ids first makes the record walk sequential, and where
        // node ids follow external ids (every bulk load) the sort below only confirms
        // the order in one linear pass.
        let mut nodes: Vec<NodeId> = people.collect();
        nodes.sort_unstable();
        let mut keyed: Vec<(i64, Value)> = nodes
            .into_iter()
            .map(|n| {
                let p = self.props(n);
                (p.id(), p.get(self.display_name))
            })
            .collect();
        keyed.sort_by_key(|(id, _)| *id);
        keyed
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
            .map(|a| {
                let p = self.props(a);
                (p.time(self.posted_time), p.id(), a)
            })
            .collect();
        keyed.sort_unstable_by_key(|x| std::cmp::Reverse((x.0, x.1)));
        keyed.into_iter().map(|(_, _, a)| a).collect()
    }

    /// An activity row (see `ACTIVITY_COLUMNS`).
    pub(crate) fn activity_row(&self, activity: NodeId) -> [Value; 6] {
        let performer = self
            .g
            .neighbors(activity, self.performed, Direction::In)
            .first()
            .map(|e| self.props(e.node).id());
        self.activity_row_by(activity, performer)
    }

    /// An activity row when the caller already knows who performed it (the stream
    /// walks from the performer, so it need not look back).
    pub(crate) fn activity_row_by(&self, activity: NodeId, performer: Option<i64>) -> [Value; 6] {
        let p = self.props(activity);
        let performer = performer.map_or(Value::Null, Value::Int);
        let media = self.g.neighbors(activity, self.has_media, Direction::Out);
        let urls = match media {
            [] => Vec::new(),
            [one] => vec![self.props(one.node).get_opt(self.url)],
            _ => {
                let mut keyed: Vec<(i64, Value)> = media
                    .iter()
                    .map(|m| {
                        let mp = self.props(m.node);
                        (mp.id(), mp.get_opt(self.url))
                    })
                    .collect();
                keyed.sort_unstable_by_key(|(id, _)| *id);
                keyed.into_iter().map(|(_, url)| url).collect()
            }
        };
        [
            Value::Int(p.id()),
            performer,
            p.get(self.title),
            p.get_opt(self.body),
            p.get(self.posted_time),
            Value::List(urls),
        ]
    }

    /// The keys a profile reads, resolved once per call rather than once per person.
    pub(crate) fn profile_keys(&self) -> ProfileKeys {
        let k = |name: &str| self.g.prop_key_id(name);
        ProfileKeys {
            person: PROFILE_PROPERTIES.iter().map(|n| k(n)).collect(),
            address: ADDRESS_FIELDS.iter().map(|n| k(n)).collect(),
            name: k(key::NAME),
            industry: k(key::INDUSTRY),
            title: k(key::TITLE),
            department: k(key::DEPARTMENT),
            start_date: k(key::START_DATE),
        }
    }

    /// A profile row (see `PROFILE_COLUMNS`).
    pub(crate) fn profile_row(&self, keys: &ProfileKeys, person: NodeId) -> Vec<Value> {
        let names = map_keys();
        let p = self.props(person);
        let mut row = Vec::with_capacity(PROFILE_COLUMNS.len());
        row.push(Value::Int(p.id()));
        row.extend(keys.person.iter().map(|k| p.get_opt(*k)));
        let addresses = self
            .targets_by_ext_id(person, self.has_address)
            .into_iter()
            .map(|(_, a)| {
                let ap = self.props(a);
                let fields = names.address.iter().zip(&keys.address);
                Value::Map(
                    fields
                        .map(|(name, k)| (name.clone(), ap.get_opt(*k)))
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
                let job_prop = |key: Option<PropKeyId>| {
                    key.and_then(|k| self.g.rel_property(e.rel, k))
                        .unwrap_or(Value::Null)
                };
                let org = self.props(e.node);
                let id = org.id();
                let [n_id, n_name, n_industry, n_title, n_department, n_start] =
                    names.organization.clone();
                let map = Value::Map(vec![
                    (n_id, Value::Int(id)),
                    (n_name, org.get_opt(keys.name)),
                    (n_industry, org.get_opt(keys.industry)),
                    (n_title, job_prop(keys.title)),
                    (n_department, job_prop(keys.department)),
                    (n_start, job_prop(keys.start_date)),
                ]);
                (id, map)
            })
            .collect();
        jobs.sort_by_key(|(id, _)| *id);
        row.push(Value::List(jobs.into_iter().map(|(_, m)| m).collect()));
        row
    }
}

/// Property keys a profile reads (see [`Shindig::profile_keys`]).
pub(crate) struct ProfileKeys {
    person: Vec<Option<PropKeyId>>,
    address: Vec<Option<PropKeyId>>,
    name: Option<PropKeyId>,
    industry: Option<PropKeyId>,
    title: Option<PropKeyId>,
    department: Option<PropKeyId>,
    start_date: Option<PropKeyId>,
}

/// Names of the entries of profile maps, allocated once per process: cloning an
/// `Arc<str>` is a reference-count increment, allocating one per entry was a quarter
/// of a profile's cost.
struct MapKeys {
    address: Vec<Arc<str>>,
    organization: [Arc<str>; 6],
}

fn map_keys() -> &'static MapKeys {
    static KEYS: OnceLock<MapKeys> = OnceLock::new();
    KEYS.get_or_init(|| MapKeys {
        address: ADDRESS_FIELDS.iter().map(|f| Arc::from(*f)).collect(),
        organization: ["id", "name", "industry", "title", "department", "startDate"].map(Arc::from),
    })
}
