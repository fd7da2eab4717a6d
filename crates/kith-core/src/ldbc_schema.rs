//! Names of the LDBC SNB Interactive schema: the contract between the loader, the
//! update procedures that write the graph and the read procedures (docs/ldbc.md).
//!
//! ```text
//! (:Person)-[:KNOWS {creationDate}]->(:Person)           once per friendship, read both ways
//! (:Person)-[:IS_LOCATED_IN]->(:City)-[:IS_PART_OF]->(:Country)-[:IS_PART_OF]->(:Continent)
//! (:Person)-[:HAS_INTEREST]->(:Tag)-[:HAS_TYPE]->(:TagClass)-[:IS_SUBCLASS_OF]->(:TagClass)
//! (:Person)-[:STUDY_AT {classYear}]->(:University), (:Person)-[:WORK_AT {workFrom}]->(:Company)
//! (:Person)-[:LIKES {creationDate}]->(:Message)
//! (:Forum)-[:HAS_MEMBER {joinDate}]->(:Person), (:Forum)-[:HAS_MODERATOR]->(:Person)
//! (:Forum)-[:CONTAINER_OF]->(:Post), (:Forum)-[:HAS_TAG]->(:Tag)
//! (:Message)-[:HAS_CREATOR]->(:Person), (:Message)-[:HAS_TAG]->(:Tag)
//! (:Message)-[:IS_LOCATED_IN]->(:Country), (:Comment)-[:REPLY_OF]->(:Message)
//! (:Organisation)-[:IS_LOCATED_IN]->(:Place)
//! ```
//!
//! Posts carry `Post` and `Message`, comments `Comment` and `Message`; places carry
//! `Place` and one of `City`, `Country`, `Continent`; organisations `Organisation`
//! and `University` or `Company`. Every node has an Int `id`, unique per label.

/// Node labels.
pub mod label {
    /// A member of the network.
    pub const PERSON: &str = "Person";
    /// A forum (a person's wall, an album or a group).
    pub const FORUM: &str = "Forum";
    /// A post or a comment.
    pub const MESSAGE: &str = "Message";
    /// A message that starts a thread, contained in a forum.
    pub const POST: &str = "Post";
    /// A message that replies to another.
    pub const COMMENT: &str = "Comment";
    /// A topic.
    pub const TAG: &str = "Tag";
    /// A class of topics, in a hierarchy.
    pub const TAG_CLASS: &str = "TagClass";
    /// A city, country or continent.
    pub const PLACE: &str = "Place";
    /// A city.
    pub const CITY: &str = "City";
    /// A country.
    pub const COUNTRY: &str = "Country";
    /// A continent.
    pub const CONTINENT: &str = "Continent";
    /// A university or company.
    pub const ORGANISATION: &str = "Organisation";
    /// A university.
    pub const UNIVERSITY: &str = "University";
    /// A company.
    pub const COMPANY: &str = "Company";
}

/// Relationship types.
pub mod rel {
    /// Friendship.
    pub const KNOWS: &str = "KNOWS";
    /// A message's author.
    pub const HAS_CREATOR: &str = "HAS_CREATOR";
    /// A comment's parent message.
    pub const REPLY_OF: &str = "REPLY_OF";
    /// A forum's posts.
    pub const CONTAINER_OF: &str = "CONTAINER_OF";
    /// A forum's members.
    pub const HAS_MEMBER: &str = "HAS_MEMBER";
    /// A forum's moderator.
    pub const HAS_MODERATOR: &str = "HAS_MODERATOR";
    /// Tags of a forum or message.
    pub const HAS_TAG: &str = "HAS_TAG";
    /// A person's interests.
    pub const HAS_INTEREST: &str = "HAS_INTEREST";
    /// A person likes a message.
    pub const LIKES: &str = "LIKES";
    /// Where a person, message or organisation is.
    pub const IS_LOCATED_IN: &str = "IS_LOCATED_IN";
    /// City in country in continent.
    pub const IS_PART_OF: &str = "IS_PART_OF";
    /// A person studied at a university.
    pub const STUDY_AT: &str = "STUDY_AT";
    /// A person works at a company.
    pub const WORK_AT: &str = "WORK_AT";
    /// A tag's class.
    pub const HAS_TYPE: &str = "HAS_TYPE";
    /// The tag-class hierarchy.
    pub const IS_SUBCLASS_OF: &str = "IS_SUBCLASS_OF";
}

/// Property keys.
pub mod key {
    /// The external id (Int, unique per label).
    pub const ID: &str = "id";
    /// A person's first name.
    pub const FIRST_NAME: &str = "firstName";
    /// A person's last name.
    pub const LAST_NAME: &str = "lastName";
    /// A person's gender.
    pub const GENDER: &str = "gender";
    /// A person's birthday (Int epoch milliseconds, as the official Cypher schema's `LONG`).
    pub const BIRTHDAY: &str = "birthday";
    /// When an element was created (Int epoch milliseconds).
    pub const CREATION_DATE: &str = "creationDate";
    /// The creator's IP address.
    pub const LOCATION_IP: &str = "locationIP";
    /// The creator's browser.
    pub const BROWSER_USED: &str = "browserUsed";
    /// A person's e-mail addresses (list of strings).
    pub const EMAIL: &str = "email";
    /// A person's languages (list of strings).
    pub const SPEAKS: &str = "speaks";
    /// A forum's title.
    pub const TITLE: &str = "title";
    /// A post's image file.
    pub const IMAGE_FILE: &str = "imageFile";
    /// A post's language.
    pub const LANGUAGE: &str = "language";
    /// A message's text.
    pub const CONTENT: &str = "content";
    /// A message's length.
    pub const LENGTH: &str = "length";
    /// A name (tag, tag class, place, organisation).
    pub const NAME: &str = "name";
    /// A URL (tag, tag class, place, organisation).
    pub const URL: &str = "url";
    /// When a person joined a forum (Int epoch milliseconds, on HAS_MEMBER).
    pub const JOIN_DATE: &str = "joinDate";
    /// The year a person finished studying (Int, on STUDY_AT).
    pub const CLASS_YEAR: &str = "classYear";
    /// The year a person started working (Int, on WORK_AT).
    pub const WORK_FROM: &str = "workFrom";
}

/// The schema cursors holding a shard's identity (S5, docs/sharding.md): written by
/// `kith shard split`, read by `shard.info`, checked by the router.
pub mod shard_cursor {
    /// Which shard: -1 the person shard, i forum shard i.
    pub const INDEX: &str = "shard:index";
    /// How many forum shards the layout has.
    pub const FORUM_SHARDS: &str = "shard:forum_shards";
    /// The split's id, the same on every shard of one split.
    pub const SPLIT: &str = "shard:split";
}
