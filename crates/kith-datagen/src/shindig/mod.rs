//! The Shindig intranet social network (S1's data set), at any scale.
//!
//! Scale 1 has S1's counts exactly: 2,011 people, 100 organisations, 200 groups,
//! 2,000 addresses, 6,033 message collections (three per person), 26,982 messages,
//! 25,365 activities and 20,809 media items — 83,500 nodes — and about 304,000
//! relationships. Every count scales linearly; the degree distribution does not
//! change with scale (an intranet's friendships do not grow with company size).

mod friendships;
mod words;

use std::collections::HashMap;

use kith_core::shindig_schema::{collection, key, label, rel};
use kith_core::{LabelId, NodeId, PropKeyId, RelTypeId, Value};
use kith_storage::{RawGraph, StorageError, ID_KEY};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, LogNormal};
use rand_pcg::Pcg64Mcg;

use words::{fill_pattern, lists, sentence};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShindigConfig {
    /// Multiplies every count; 1.0 is S1's data set. Fractions make small test graphs.
    pub scale: f64,
    /// Seed of every random choice.
    pub seed: u64,
}

impl Default for ShindigConfig {
    fn default() -> Self {
        ShindigConfig {
            scale: 1.0,
            seed: 42,
        }
    }
}

/// S1's counts at scale 1.
pub mod scale1 {
    /// People.
    pub const PEOPLE: usize = 2_011;
    /// Organisations.
    pub const ORGANIZATIONS: usize = 100;
    /// Groups.
    pub const GROUPS: usize = 200;
    /// Addresses (one per organisation, the rest for people).
    pub const ADDRESSES: usize = 2_000;
    /// Messages.
    pub const MESSAGES: usize = 26_982;
    /// Activities.
    pub const ACTIVITIES: usize = 25_365;
    /// Media items, making the node total 83,500.
    pub const MEDIA_ITEMS: usize = 20_809;
    /// Relationships S1 reports.
    pub const RELATIONSHIPS: usize = 304_000;
}

/// Mean number of groups a person joins.
const GROUPS_PER_PERSON: f64 = 15.0;
/// Share of messages that answer an earlier message of the same pair.
const REPLY_SHARE: f64 = 0.3;
/// Share of received messages filed in the Archive instead of the Inbox.
const ARCHIVED_SHARE: f64 = 0.2;
/// 2012-01-01T00:00:00Z: messages and activities fall in the two years after it.
const EPOCH_START_MS: i64 = 1_325_376_000_000;
const TWO_YEARS_MS: i64 = 2 * 365 * 86_400_000;

/// Generates the graph. Deterministic in `config`.
pub fn generate(config: ShindigConfig) -> Result<RawGraph, StorageError> {
    if !(config.scale > 0.0 && config.scale.is_finite()) {
        return Err(StorageError::CapacityExceeded(
            "scale must be a positive number",
        ));
    }
    Generator::new(config)?.run()
}

fn scaled(count: usize, scale: f64) -> usize {
    ((count as f64 * scale).round() as usize).max(1)
}

/// Interned ids of the schema, resolved once.
struct Schema {
    person: LabelId,
    group: LabelId,
    organization: LabelId,
    address: LabelId,
    collection: LabelId,
    message: LabelId,
    activity: LabelId,
    media: LabelId,
    friend_of: RelTypeId,
    member_of: RelTypeId,
    works_at: RelTypeId,
    has_address: RelTypeId,
    owns: RelTypeId,
    contains: RelTypeId,
    sent_by: RelTypeId,
    sent_to: RelTypeId,
    in_reply_to: RelTypeId,
    performed: RelTypeId,
    has_media: RelTypeId,
    likes: RelTypeId,
}

struct Generator {
    config: ShindigConfig,
    graph: RawGraph,
    s: Schema,
    keys: HashMap<&'static str, PropKeyId>,
    people: Vec<NodeId>,
    friends: Vec<Vec<u32>>,
    community: Vec<usize>,
    organizations: Vec<NodeId>,
    groups: Vec<NodeId>,
    /// Per person: Inbox, Sent, Archive.
    collections: Vec<[NodeId; 3]>,
    activities: Vec<(NodeId, u32)>,
}

impl Generator {
    fn new(config: ShindigConfig) -> Result<Self, StorageError> {
        let mut graph = RawGraph::default();
        let c = &mut graph.catalog;
        let s = Schema {
            person: c.label(label::PERSON)?,
            group: c.label(label::GROUP)?,
            organization: c.label(label::ORGANIZATION)?,
            address: c.label(label::ADDRESS)?,
            collection: c.label(label::MESSAGE_COLLECTION)?,
            message: c.label(label::MESSAGE)?,
            activity: c.label(label::ACTIVITY)?,
            media: c.label(label::MEDIA_ITEM)?,
            friend_of: c.rel_type(rel::FRIEND_OF)?,
            member_of: c.rel_type(rel::MEMBER_OF)?,
            works_at: c.rel_type(rel::WORKS_AT)?,
            has_address: c.rel_type(rel::HAS_ADDRESS)?,
            owns: c.rel_type(rel::OWNS)?,
            contains: c.rel_type(rel::CONTAINS)?,
            sent_by: c.rel_type(rel::SENT_BY)?,
            sent_to: c.rel_type(rel::SENT_TO)?,
            in_reply_to: c.rel_type(rel::IN_REPLY_TO)?,
            performed: c.rel_type(rel::PERFORMED)?,
            has_media: c.rel_type(rel::HAS_MEDIA)?,
            likes: c.rel_type(rel::LIKES)?,
        };
        Ok(Generator {
            config,
            graph,
            s,
            keys: HashMap::new(),
            people: Vec::new(),
            friends: Vec::new(),
            community: Vec::new(),
            organizations: Vec::new(),
            groups: Vec::new(),
            collections: Vec::new(),
            activities: Vec::new(),
        })
    }

    /// A random stream per part, so changing one part leaves the others as they were.
    fn rng(&self, part: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(self.config.seed ^ part.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    fn key(&mut self, name: &'static str) -> Result<PropKeyId, StorageError> {
        if let Some(k) = self.keys.get(name) {
            return Ok(*k);
        }
        let k = self.graph.catalog.prop_key(name)?;
        self.keys.insert(name, k);
        Ok(k)
    }

    fn props(
        &mut self,
        entries: Vec<(&'static str, Value)>,
    ) -> Result<Vec<(PropKeyId, Value)>, StorageError> {
        entries
            .into_iter()
            .map(|(k, v)| Ok((self.key(k)?, v)))
            .collect()
    }

    fn node(
        &mut self,
        label: LabelId,
        id: usize,
        entries: Vec<(&'static str, Value)>,
    ) -> Result<NodeId, StorageError> {
        let mut props = vec![(ID_KEY, Value::Int(id as i64))];
        props.extend(self.props(entries)?);
        self.graph.add_node(vec![label], props)
    }

    fn rel(&mut self, t: RelTypeId, a: NodeId, b: NodeId) -> Result<(), StorageError> {
        self.graph.add_rel(t, a, b, Vec::new()).map(|_| ())
    }

    fn run(mut self) -> Result<RawGraph, StorageError> {
        self.organizations()?;
        self.people()?;
        self.friendships()?;
        self.addresses()?;
        self.groups()?;
        self.messages()?;
        self.activities()?;
        self.likes()?;
        Ok(self.graph)
    }

    fn organizations(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(1);
        let l = lists();
        let count = scaled(scale1::ORGANIZATIONS, self.config.scale);
        for i in 0..count {
            let base = l.organisations.nth(i);
            let name = match i / l.organisations.len() {
                0 => base.to_owned(),
                round => format!("{base} {}", round + 1),
            };
            let slug: String = name
                .to_lowercase()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            let id = self.node(
                self.s.organization,
                i + 1,
                vec![
                    (key::NAME, Value::string(name)),
                    (key::INDUSTRY, Value::string(l.industries.pick(&mut rng))),
                    (
                        key::WEBSITE,
                        Value::string(format!("https://www.{slug}.example")),
                    ),
                ],
            )?;
            self.organizations.push(id);
        }
        Ok(())
    }

    fn people(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(2);
        let l = lists();
        let count = scaled(scale1::PEOPLE, self.config.scale);
        // Organisation sizes follow a Zipf-like law (a few large employers); each
        // organisation is cut into departments of 8-40 people: the communities.
        let weights: Vec<f64> = (0..self.organizations.len())
            .map(|r| 1.0 / (r as f64 + 1.0).powf(0.8))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut employer: Vec<usize> = (0..count)
            .map(|_| {
                let mut x = rng.gen::<f64>() * total;
                weights
                    .iter()
                    .position(|w| {
                        x -= w;
                        x < 0.0
                    })
                    .unwrap_or(weights.len() - 1)
            })
            .collect();
        employer.sort_unstable();
        let mut community = Vec::with_capacity(count);
        let mut department = Vec::with_capacity(count);
        let (mut current, mut left, mut org_of_current) = (0usize, 0usize, usize::MAX);
        for &org in &employer {
            if left == 0 || org != org_of_current {
                if !community.is_empty() {
                    current += 1;
                }
                left = rng.gen_range(8..=40);
                org_of_current = org;
            }
            left -= 1;
            community.push(current);
            department.push(l.departments.nth(current));
        }
        // Shuffle who is where, so ids do not give away the structure.
        let mut order: Vec<usize> = (0..count).collect();
        order.shuffle(&mut rng);
        let community: Vec<usize> = order.iter().map(|&i| community[i]).collect();
        let employer: Vec<usize> = order.iter().map(|&i| employer[i]).collect();
        let department: Vec<&str> = order.iter().map(|&i| department[i]).collect();

        let (works_at, title_key, dept_key, start_key) = (
            self.s.works_at,
            self.key(key::TITLE)?,
            self.key(key::DEPARTMENT)?,
            self.key(key::START_DATE)?,
        );
        for i in 0..count {
            let given = l.first_names.pick(&mut rng);
            let family = l.last_names.pick(&mut rng);
            let gender = if rng.gen_bool(0.5) { "female" } else { "male" };
            let job = l.job_titles.pick(&mut rng);
            let mut interests: Vec<Value> = (0..rng.gen_range(1..=5))
                .map(|_| Value::string(l.interests.pick(&mut rng)))
                .collect();
            interests.dedup();
            let birthday = -315_619_200_000 + rng.gen_range(0..40 * 365) * 86_400_000; // 1960-
            let about = sentence(&mut rng, 6..16);
            let updated = EPOCH_START_MS + rng.gen_range(0..TWO_YEARS_MS);
            let person = self.node(
                self.s.person,
                i + 1,
                vec![
                    (
                        key::DISPLAY_NAME,
                        Value::string(format!("{given} {family}")),
                    ),
                    (key::GIVEN_NAME, Value::string(given)),
                    (key::FAMILY_NAME, Value::string(family)),
                    (
                        key::EMAIL,
                        Value::string(format!(
                            "{}.{}{}@intranet.example",
                            given.to_lowercase(),
                            family.to_lowercase(),
                            i + 1
                        )),
                    ),
                    (
                        key::PHONE_NUMBER,
                        Value::string(format!(
                            "+{} {} {}",
                            rng.gen_range(1..99),
                            rng.gen_range(100..999),
                            rng.gen_range(100_000..9_999_999)
                        )),
                    ),
                    (key::BIRTHDAY, Value::DateTime(birthday)),
                    (key::GENDER, Value::string(gender)),
                    (key::ABOUT_ME, Value::string(about)),
                    (key::INTERESTS, Value::List(interests)),
                    (key::JOB_TITLE, Value::string(job)),
                    (key::UPDATED, Value::DateTime(updated)),
                ],
            )?;
            let start = EPOCH_START_MS - rng.gen_range(0..15 * 365) * 86_400_000;
            self.graph.add_rel(
                works_at,
                person,
                self.organizations[employer[i]],
                vec![
                    (title_key, Value::string(job)),
                    (dept_key, Value::string(department[i])),
                    (start_key, Value::DateTime(start)),
                ],
            )?;
            self.people.push(person);
        }
        self.community = community;
        Ok(())
    }

    fn friendships(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(3);
        let pairs = friendships::friendships(&mut rng, &self.community);
        self.friends = vec![Vec::new(); self.people.len()];
        for (a, b) in pairs {
            let (pa, pb) = (self.people[a as usize], self.people[b as usize]);
            self.rel(self.s.friend_of, pa, pb)?;
            self.rel(self.s.friend_of, pb, pa)?;
            self.friends[a as usize].push(b);
            self.friends[b as usize].push(a);
        }
        Ok(())
    }

    fn address(
        &mut self,
        rng: &mut Pcg64Mcg,
        id: usize,
        kind: &str,
    ) -> Result<NodeId, StorageError> {
        let l = lists();
        let mut city = l.cities.pick(rng).split('|');
        let (locality, region, country, pattern) = (
            city.next().unwrap_or_default(),
            city.next().unwrap_or_default(),
            city.next().unwrap_or_default(),
            city.next().unwrap_or("#####"),
        );
        let street = format!(
            "{} {} {}",
            rng.gen_range(1..250),
            l.streets.pick(rng),
            l.street_suffixes.pick(rng)
        );
        let postal = fill_pattern(rng, pattern);
        self.node(
            self.s.address,
            id,
            vec![
                (key::STREET_ADDRESS, Value::string(street)),
                (key::LOCALITY, Value::string(locality)),
                (key::REGION, Value::string(region)),
                (key::POSTAL_CODE, Value::string(postal)),
                (key::COUNTRY, Value::string(country)),
                (key::TYPE, Value::string(kind)),
            ],
        )
    }

    fn addresses(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(4);
        let total = scaled(scale1::ADDRESSES, self.config.scale);
        let mut id = 0;
        for org in self.organizations.clone() {
            id += 1;
            let a = self.address(&mut rng, id, "work")?;
            self.rel(self.s.has_address, org, a)?;
        }
        // The remaining addresses are the homes of a random subset of people.
        let mut who: Vec<NodeId> = self.people.clone();
        who.shuffle(&mut rng);
        who.truncate(total.saturating_sub(id));
        who.sort_unstable();
        for person in who {
            id += 1;
            let a = self.address(&mut rng, id, "home")?;
            self.rel(self.s.has_address, person, a)?;
        }
        Ok(())
    }

    fn groups(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(5);
        let l = lists();
        let count = scaled(scale1::GROUPS, self.config.scale);
        for i in 0..count {
            let base = l.group_topics.nth(i);
            let title = match i / l.group_topics.len() {
                0 => base.to_owned(),
                round => format!("{base} {}", round + 1),
            };
            let created = EPOCH_START_MS - rng.gen_range(0..5 * 365) * 86_400_000;
            let description = sentence(&mut rng, 8..20);
            let g = self.node(
                self.s.group,
                i + 1,
                vec![
                    (key::TITLE, Value::string(title)),
                    (key::DESCRIPTION, Value::string(description)),
                    (key::UPDATED, Value::DateTime(created)),
                ],
            )?;
            self.groups.push(g);
        }
        // Half of a person's groups are their department's favourites (so friends
        // share groups and group recommendations have something to find), half are
        // drawn by company-wide popularity (Zipf).
        let communities = self.community.iter().max().map_or(0, |m| m + 1);
        let favourites: Vec<Vec<usize>> = (0..communities)
            .map(|_| (0..8).map(|_| rng.gen_range(0..count)).collect())
            .collect();
        let popularity: Vec<f64> = (0..count).map(|r| 1.0 / (r as f64 + 1.0)).collect();
        let total: f64 = popularity.iter().sum();
        let how_many = LogNormal::new((GROUPS_PER_PERSON * 0.75).ln(), 0.75).expect("valid");
        for p in 0..self.people.len() {
            let k = (how_many.sample(&mut rng).round() as usize).clamp(0, count);
            let mut chosen: Vec<usize> = Vec::with_capacity(k);
            for _ in 0..k {
                let g = if rng.gen_bool(0.5) {
                    *favourites[self.community[p]].choose(&mut rng).unwrap_or(&0)
                } else {
                    let mut x = rng.gen::<f64>() * total;
                    popularity
                        .iter()
                        .position(|w| {
                            x -= w;
                            x < 0.0
                        })
                        .unwrap_or(count - 1)
                };
                chosen.push(g);
            }
            chosen.sort_unstable();
            chosen.dedup();
            for g in chosen {
                self.rel(self.s.member_of, self.people[p], self.groups[g])?;
            }
        }
        Ok(())
    }

    fn messages(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(6);
        let l = lists();
        let mut collection_id = 0;
        for p in 0..self.people.len() {
            let updated = EPOCH_START_MS + rng.gen_range(0..TWO_YEARS_MS);
            let mut owned = [NodeId(0); 3];
            for (slot, title) in [collection::INBOX, collection::SENT, collection::ARCHIVE]
                .into_iter()
                .enumerate()
            {
                collection_id += 1;
                let c = self.node(
                    self.s.collection,
                    collection_id,
                    vec![
                        (key::TITLE, Value::string(title)),
                        (key::UPDATED, Value::DateTime(updated)),
                    ],
                )?;
                self.rel(self.s.owns, self.people[p], c)?;
                owned[slot] = c;
            }
            self.collections.push(owned);
        }
        // Senders are the sociable: weight by degree.
        let senders: Vec<u32> = (0..self.people.len() as u32)
            .flat_map(|p| std::iter::repeat_n(p, self.friends[p as usize].len()))
            .collect();
        if senders.is_empty() {
            return Ok(());
        }
        let count = scaled(scale1::MESSAGES, self.config.scale);
        let mut times: Vec<i64> = (0..count)
            .map(|_| EPOCH_START_MS + rng.gen_range(0..TWO_YEARS_MS))
            .collect();
        times.sort_unstable();
        let mut last_between: HashMap<(u32, u32), (NodeId, String)> = HashMap::new();
        for (i, time) in times.into_iter().enumerate() {
            let from = senders[rng.gen_range(0..senders.len())];
            let friends = &self.friends[from as usize];
            let to = friends[rng.gen_range(0..friends.len())];
            let replying = match last_between.get(&(to, from)) {
                Some(earlier) if rng.gen_bool(REPLY_SHARE) => Some(earlier.clone()),
                _ => None,
            };
            let title = match &replying {
                Some((_, t)) if t.starts_with("Re: ") => t.clone(),
                Some((_, t)) => format!("Re: {t}"),
                None => l.message_subjects.pick(&mut rng).to_owned(),
            };
            let body = sentence(&mut rng, 5..30);
            let status = if rng.gen_bool(0.7) { "read" } else { "unread" };
            let m = self.node(
                self.s.message,
                i + 1,
                vec![
                    (key::TITLE, Value::string(title.as_str())),
                    (key::BODY, Value::string(body)),
                    (key::TIMESTAMP, Value::DateTime(time)),
                    (key::STATUS, Value::string(status)),
                ],
            )?;
            let (sender, recipient) = (self.people[from as usize], self.people[to as usize]);
            self.rel(self.s.sent_by, m, sender)?;
            self.rel(self.s.sent_to, m, recipient)?;
            self.rel(self.s.contains, self.collections[from as usize][1], m)?;
            let folder = if rng.gen_bool(ARCHIVED_SHARE) { 2 } else { 0 };
            self.rel(self.s.contains, self.collections[to as usize][folder], m)?;
            if let Some((earlier, _)) = replying {
                self.rel(self.s.in_reply_to, m, earlier)?;
            }
            last_between.insert((from, to), (m, title));
        }
        Ok(())
    }

    fn activities(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(7);
        let l = lists();
        // Some people post much more than others.
        let zeal = LogNormal::new(0.0, 1.0).expect("valid");
        let weights: Vec<f64> = (0..self.people.len())
            .map(|_| zeal.sample(&mut rng))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut cumulative = Vec::with_capacity(weights.len());
        let mut acc = 0.0;
        for w in &weights {
            acc += w;
            cumulative.push(acc);
        }
        let count = scaled(scale1::ACTIVITIES, self.config.scale);
        for i in 0..count {
            let x = rng.gen::<f64>() * total;
            let p = cumulative
                .partition_point(|c| *c <= x)
                .min(self.people.len() - 1);
            let template = l.activity_templates.pick(&mut rng);
            let title = template
                .replace("{interest}", l.interests.pick(&mut rng))
                .replace("{group}", l.group_topics.pick(&mut rng))
                .replace("{org}", l.organisations.pick(&mut rng))
                .replace("{word}", l.words.pick(&mut rng));
            let body = sentence(&mut rng, 4..25);
            let posted = EPOCH_START_MS + rng.gen_range(0..TWO_YEARS_MS);
            let a = self.node(
                self.s.activity,
                i + 1,
                vec![
                    (key::TITLE, Value::string(title)),
                    (key::BODY, Value::string(body)),
                    (key::POSTED_TIME, Value::DateTime(posted)),
                ],
            )?;
            self.rel(self.s.performed, self.people[p], a)?;
            self.activities.push((a, p as u32));
        }
        let media = scaled(scale1::MEDIA_ITEMS, self.config.scale);
        const KINDS: [(&str, &str, &str); 3] = [
            ("image", "image/jpeg", "jpg"),
            ("video", "video/mp4", "mp4"),
            ("audio", "audio/mpeg", "mp3"),
        ];
        for i in 0..media {
            let (activity, _) = self.activities[rng.gen_range(0..self.activities.len())];
            let (kind, mime, ext) =
                KINDS[rng.gen_range(0..10usize).min(2) * usize::from(rng.gen_bool(0.3))];
            let item = self.node(
                self.s.media,
                i + 1,
                vec![
                    (key::TYPE, Value::string(kind)),
                    (key::MIME_TYPE, Value::string(mime)),
                    (
                        key::URL,
                        Value::string(format!("https://media.intranet.example/{}.{ext}", i + 1)),
                    ),
                ],
            )?;
            self.rel(self.s.has_media, activity, item)?;
        }
        Ok(())
    }

    /// Friends like each other's activities; enough likes to bring the relationship
    /// total to S1's 304,000 per unit of scale.
    fn likes(&mut self) -> Result<(), StorageError> {
        let mut rng = self.rng(8);
        let target = scaled(scale1::RELATIONSHIPS, self.config.scale);
        let wanted = target.saturating_sub(self.graph.rels.len());
        let mut seen = std::collections::HashSet::with_capacity(wanted);
        let mut tries = 0;
        while seen.len() < wanted && tries < wanted * 4 {
            tries += 1;
            let (activity, actor) = self.activities[rng.gen_range(0..self.activities.len())];
            let friends = &self.friends[actor as usize];
            if friends.is_empty() {
                continue;
            }
            let fan = friends[rng.gen_range(0..friends.len())];
            if seen.insert((fan, activity)) {
                self.rel(self.s.likes, self.people[fan as usize], activity)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_graph_other_seed_other_graph() {
        let a = generate(ShindigConfig {
            scale: 0.05,
            seed: 7,
        })
        .expect("generates");
        let b = generate(ShindigConfig {
            scale: 0.05,
            seed: 7,
        })
        .expect("generates");
        let c = generate(ShindigConfig {
            scale: 0.05,
            seed: 8,
        })
        .expect("generates");
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.rels, b.rels);
        assert_ne!(a.rels, c.rels);
    }

    #[test]
    fn rejects_a_non_positive_scale() {
        assert!(generate(ShindigConfig {
            scale: 0.0,
            seed: 1
        })
        .is_err());
        assert!(generate(ShindigConfig {
            scale: f64::NAN,
            seed: 1
        })
        .is_err());
    }
}
