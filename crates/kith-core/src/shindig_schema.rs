//! Names of the Shindig intranet schema: the contract between the generator that
//! writes the graph and the procedures that read it.
//!
//! ```text
//! (:Person)-[:FRIEND_OF]->(:Person)          stored in both directions per friendship
//! (:Person)-[:MEMBER_OF]->(:Group)
//! (:Person)-[:WORKS_AT {title, department, startDate}]->(:Organization)
//! (:Person|:Organization)-[:HAS_ADDRESS]->(:Address)
//! (:Person)-[:OWNS]->(:MessageCollection)-[:CONTAINS]->(:Message)
//! (:Message)-[:SENT_BY]->(:Person), (:Message)-[:SENT_TO]->(:Person)
//! (:Message)-[:IN_REPLY_TO]->(:Message)
//! (:Person)-[:PERFORMED]->(:Activity)-[:HAS_MEDIA]->(:MediaItem)
//! (:Person)-[:LIKES]->(:Activity)
//! ```
//!
//! Every node has an Int `id`, unique per label, numbered from 1.

/// Node labels.
pub mod label {
    /// A person (OpenSocial Person).
    pub const PERSON: &str = "Person";
    /// An intranet group.
    pub const GROUP: &str = "Group";
    /// A company or organisational unit.
    pub const ORGANIZATION: &str = "Organization";
    /// A postal address.
    pub const ADDRESS: &str = "Address";
    /// A person's message folder (Inbox, Sent, Archive).
    pub const MESSAGE_COLLECTION: &str = "MessageCollection";
    /// A private message.
    pub const MESSAGE: &str = "Message";
    /// An activity-stream entry.
    pub const ACTIVITY: &str = "Activity";
    /// A photo, video or sound attached to an activity.
    pub const MEDIA_ITEM: &str = "MediaItem";
}

/// Relationship types.
pub mod rel {
    /// Friendship; a friendship is two relationships, one each way.
    pub const FRIEND_OF: &str = "FRIEND_OF";
    /// Person to group.
    pub const MEMBER_OF: &str = "MEMBER_OF";
    /// Person to organisation.
    pub const WORKS_AT: &str = "WORKS_AT";
    /// Person or organisation to address.
    pub const HAS_ADDRESS: &str = "HAS_ADDRESS";
    /// Person to message collection.
    pub const OWNS: &str = "OWNS";
    /// Message collection to message.
    pub const CONTAINS: &str = "CONTAINS";
    /// Message to its sender.
    pub const SENT_BY: &str = "SENT_BY";
    /// Message to its recipient.
    pub const SENT_TO: &str = "SENT_TO";
    /// Reply to the message it answers.
    pub const IN_REPLY_TO: &str = "IN_REPLY_TO";
    /// Person to own activity.
    pub const PERFORMED: &str = "PERFORMED";
    /// Activity to attached media.
    pub const HAS_MEDIA: &str = "HAS_MEDIA";
    /// Person to an activity they liked.
    pub const LIKES: &str = "LIKES";
}

/// Property keys.
pub mod key {
    /// External id (Int), indexed per label.
    pub const ID: &str = "id";
    /// Person: full display name.
    pub const DISPLAY_NAME: &str = "displayName";
    /// Person: given name.
    pub const GIVEN_NAME: &str = "givenName";
    /// Person: family name.
    pub const FAMILY_NAME: &str = "familyName";
    /// Person: e-mail address.
    pub const EMAIL: &str = "email";
    /// Person: phone number.
    pub const PHONE_NUMBER: &str = "phoneNumber";
    /// Person: date of birth (DateTime).
    pub const BIRTHDAY: &str = "birthday";
    /// Person: "female" / "male".
    pub const GENDER: &str = "gender";
    /// Person: free text.
    pub const ABOUT_ME: &str = "aboutMe";
    /// Person: List<String> of interests.
    pub const INTERESTS: &str = "interests";
    /// Person: current job title.
    pub const JOB_TITLE: &str = "jobTitle";
    /// Person and collections: last update (DateTime).
    pub const UPDATED: &str = "updated";
    /// Group, message, activity and collection title.
    pub const TITLE: &str = "title";
    /// Group description.
    pub const DESCRIPTION: &str = "description";
    /// Organisation name.
    pub const NAME: &str = "name";
    /// Organisation industry.
    pub const INDUSTRY: &str = "industry";
    /// Organisation web site.
    pub const WEBSITE: &str = "website";
    /// WORKS_AT: department.
    pub const DEPARTMENT: &str = "department";
    /// WORKS_AT: start date (DateTime).
    pub const START_DATE: &str = "startDate";
    /// Address: street and number.
    pub const STREET_ADDRESS: &str = "streetAddress";
    /// Address: city.
    pub const LOCALITY: &str = "locality";
    /// Address: region or state.
    pub const REGION: &str = "region";
    /// Address: postal code.
    pub const POSTAL_CODE: &str = "postalCode";
    /// Address: country.
    pub const COUNTRY: &str = "country";
    /// Address ("home" / "work") and media item ("image" / "video" / "audio") type.
    pub const TYPE: &str = "type";
    /// Message and activity text.
    pub const BODY: &str = "body";
    /// Message send time (DateTime).
    pub const TIMESTAMP: &str = "timestamp";
    /// Message: "read" / "unread".
    pub const STATUS: &str = "status";
    /// Activity post time (DateTime).
    pub const POSTED_TIME: &str = "postedTime";
    /// Media item MIME type.
    pub const MIME_TYPE: &str = "mimeType";
    /// Media item location.
    pub const URL: &str = "url";
}

/// Titles of the three collections every person owns.
pub mod collection {
    /// Received messages.
    pub const INBOX: &str = "Inbox";
    /// Sent messages.
    pub const SENT: &str = "Sent";
    /// Received messages filed away.
    pub const ARCHIVE: &str = "Archive";
}
