//! IU1–IU8: the workload's inserts, each one transaction of write operations. They
//! name existing nodes by external id (`NodeRef::ById`), so the writer checks that
//! every endpoint exists when the transaction commits, and a missing one fails it
//! whole.

use std::sync::Arc;

use kith_core::ldbc_schema::{key, label, rel};
use kith_core::write_op::{Name, NodeRef, WriteOp};
use kith_core::Value;

use crate::{ParamSpec, ParamType, Params, ProcedureError, UpdateProcedure};

fn name(s: &str) -> Name {
    Arc::from(s)
}

fn by_id(l: &str, id: i64) -> NodeRef {
    NodeRef::ById { label: name(l), id }
}

fn rel_op(rel_type: &str, src: NodeRef, dst: NodeRef, properties: Vec<(Name, Value)>) -> WriteOp {
    WriteOp::CreateRel {
        rel_type: name(rel_type),
        src,
        dst,
        properties,
    }
}

/// The node the transaction's first `CreateNode` made.
const CREATED: NodeRef = NodeRef::Created(0);

/// A property from a String parameter, left out when empty (as the loader does).
fn optional_text(
    p: &Params,
    param: &str,
    k: &str,
    into: &mut Vec<(Name, Value)>,
) -> Result<(), ProcedureError> {
    let v = p.string(param)?;
    if !v.is_empty() {
        into.push((name(k), Value::string(v)));
    }
    Ok(())
}

fn tags(p: &Params, src: &NodeRef, ops: &mut Vec<WriteOp>) -> Result<(), ProcedureError> {
    for t in p.int_list("tagIds")? {
        ops.push(rel_op(
            rel::HAS_TAG,
            src.clone(),
            by_id(label::TAG, t),
            vec![],
        ));
    }
    Ok(())
}

fn iu1(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    let mut props = vec![
        (name(key::ID), Value::Int(p.int("personId")?)),
        (
            name(key::FIRST_NAME),
            Value::string(p.string("personFirstName")?),
        ),
        (
            name(key::LAST_NAME),
            Value::string(p.string("personLastName")?),
        ),
        (name(key::GENDER), Value::string(p.string("gender")?)),
        (name(key::BIRTHDAY), Value::Int(p.int("birthday")?)),
        (name(key::CREATION_DATE), Value::Int(p.int("creationDate")?)),
        (
            name(key::LOCATION_IP),
            Value::string(p.string("locationIP")?),
        ),
        (
            name(key::BROWSER_USED),
            Value::string(p.string("browserUsed")?),
        ),
    ];
    for (param, k) in [("languages", key::SPEAKS), ("emails", key::EMAIL)] {
        let list = p.string_list(param)?;
        if !list.is_empty() {
            props.push((name(k), Value::List(list)));
        }
    }
    let mut ops = vec![WriteOp::CreateNode {
        labels: vec![name(label::PERSON)],
        properties: props,
    }];
    ops.push(rel_op(
        rel::IS_LOCATED_IN,
        CREATED,
        by_id(label::PLACE, p.int("cityId")?),
        vec![],
    ));
    for t in p.int_list("tagIds")? {
        ops.push(rel_op(
            rel::HAS_INTEREST,
            CREATED,
            by_id(label::TAG, t),
            vec![],
        ));
    }
    for (org, year) in p.int_pairs("studyAt")? {
        ops.push(rel_op(
            rel::STUDY_AT,
            CREATED,
            by_id(label::ORGANISATION, org),
            vec![(name(key::CLASS_YEAR), Value::Int(year))],
        ));
    }
    for (org, year) in p.int_pairs("workAt")? {
        ops.push(rel_op(
            rel::WORK_AT,
            CREATED,
            by_id(label::ORGANISATION, org),
            vec![(name(key::WORK_FROM), Value::Int(year))],
        ));
    }
    Ok(ops)
}

fn like(
    p: &Params,
    target_param: &str,
    target_label: &str,
) -> Result<Vec<WriteOp>, ProcedureError> {
    Ok(vec![rel_op(
        rel::LIKES,
        by_id(label::PERSON, p.int("personId")?),
        by_id(target_label, p.int(target_param)?),
        vec![(name(key::CREATION_DATE), Value::Int(p.int("creationDate")?))],
    )])
}

fn iu2(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    like(p, "postId", label::POST)
}

fn iu3(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    like(p, "commentId", label::COMMENT)
}

fn iu4(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    let mut ops = vec![WriteOp::CreateNode {
        labels: vec![name(label::FORUM)],
        properties: vec![
            (name(key::ID), Value::Int(p.int("forumId")?)),
            (name(key::TITLE), Value::string(p.string("forumTitle")?)),
            (name(key::CREATION_DATE), Value::Int(p.int("creationDate")?)),
        ],
    }];
    ops.push(rel_op(
        rel::HAS_MODERATOR,
        CREATED,
        by_id(label::PERSON, p.int("moderatorPersonId")?),
        vec![],
    ));
    tags(p, &CREATED, &mut ops)?;
    Ok(ops)
}

fn iu5(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    Ok(vec![rel_op(
        rel::HAS_MEMBER,
        by_id(label::FORUM, p.int("forumId")?),
        by_id(label::PERSON, p.int("personId")?),
        vec![(name(key::JOIN_DATE), Value::Int(p.int("joinDate")?))],
    )])
}

fn iu6(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    let mut props = vec![(name(key::ID), Value::Int(p.int("postId")?))];
    optional_text(p, "imageFile", key::IMAGE_FILE, &mut props)?;
    props.push((name(key::CREATION_DATE), Value::Int(p.int("creationDate")?)));
    props.push((
        name(key::LOCATION_IP),
        Value::string(p.string("locationIP")?),
    ));
    props.push((
        name(key::BROWSER_USED),
        Value::string(p.string("browserUsed")?),
    ));
    optional_text(p, "language", key::LANGUAGE, &mut props)?;
    optional_text(p, "content", key::CONTENT, &mut props)?;
    props.push((name(key::LENGTH), Value::Int(p.int("length")?)));
    let mut ops = vec![WriteOp::CreateNode {
        labels: vec![name(label::MESSAGE), name(label::POST)],
        properties: props,
    }];
    ops.push(rel_op(
        rel::HAS_CREATOR,
        CREATED,
        by_id(label::PERSON, p.int("authorPersonId")?),
        vec![],
    ));
    ops.push(rel_op(
        rel::CONTAINER_OF,
        by_id(label::FORUM, p.int("forumId")?),
        CREATED,
        vec![],
    ));
    ops.push(rel_op(
        rel::IS_LOCATED_IN,
        CREATED,
        by_id(label::PLACE, p.int("countryId")?),
        vec![],
    ));
    tags(p, &CREATED, &mut ops)?;
    Ok(ops)
}

fn iu7(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    let mut props = vec![
        (name(key::ID), Value::Int(p.int("commentId")?)),
        (name(key::CREATION_DATE), Value::Int(p.int("creationDate")?)),
        (
            name(key::LOCATION_IP),
            Value::string(p.string("locationIP")?),
        ),
        (
            name(key::BROWSER_USED),
            Value::string(p.string("browserUsed")?),
        ),
    ];
    optional_text(p, "content", key::CONTENT, &mut props)?;
    props.push((name(key::LENGTH), Value::Int(p.int("length")?)));
    let mut ops = vec![WriteOp::CreateNode {
        labels: vec![name(label::MESSAGE), name(label::COMMENT)],
        properties: props,
    }];
    ops.push(rel_op(
        rel::HAS_CREATOR,
        CREATED,
        by_id(label::PERSON, p.int("authorPersonId")?),
        vec![],
    ));
    ops.push(rel_op(
        rel::IS_LOCATED_IN,
        CREATED,
        by_id(label::PLACE, p.int("countryId")?),
        vec![],
    ));
    let (post, comment) = (p.int("replyToPostId")?, p.int("replyToCommentId")?);
    let parent = match (post, comment) {
        (-1, -1) | (0.., 0..) => {
            return Err(ProcedureError::ParameterOutOfRange {
                procedure: "ldbc.iu7".into(),
                parameter: "replyToPostId".into(),
                reason: format!(
                    "and replyToCommentId must name exactly one parent (the other -1); got {post} and {comment}"
                ),
            })
        }
        (-1, c) => by_id(label::COMMENT, c),
        (p, _) => by_id(label::POST, p),
    };
    ops.push(rel_op(rel::REPLY_OF, CREATED, parent, vec![]));
    tags(p, &CREATED, &mut ops)?;
    Ok(ops)
}

fn iu8(p: &Params) -> Result<Vec<WriteOp>, ProcedureError> {
    Ok(vec![rel_op(
        rel::KNOWS,
        by_id(label::PERSON, p.int("person1Id")?),
        by_id(label::PERSON, p.int("person2Id")?),
        vec![(name(key::CREATION_DATE), Value::Int(p.int("creationDate")?))],
    )])
}

const fn req(name: &'static str, ty: ParamType, doc: &'static str) -> ParamSpec {
    ParamSpec::required(name, ty, doc)
}

use ParamType::{Int, IntList, IntPairList, String as Str, StringList};

const IU1: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu1",
    description: "LDBC IU1: add a person with city, interests, universities and companies",
    params: &[
        req("personId", Int, "new person id"),
        req("personFirstName", Str, "first name"),
        req("personLastName", Str, "last name"),
        req("gender", Str, "gender"),
        req("birthday", Int, "epoch ms"),
        req("creationDate", Int, "epoch ms"),
        req("locationIP", Str, "IP address"),
        req("browserUsed", Str, "browser"),
        req("cityId", Int, "the city (Place id)"),
        req("languages", StringList, "languages spoken"),
        req("emails", StringList, "e-mail addresses"),
        req("tagIds", IntList, "interests"),
        req("studyAt", IntPairList, "[universityId, classYear] pairs"),
        req("workAt", IntPairList, "[companyId, workFrom] pairs"),
    ],
    build: iu1,
};

const IU2: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu2",
    description: "LDBC IU2: a person likes a post",
    params: &[
        req("personId", Int, "the person"),
        req("postId", Int, "the post"),
        req("creationDate", Int, "epoch ms"),
    ],
    build: iu2,
};

const IU3: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu3",
    description: "LDBC IU3: a person likes a comment",
    params: &[
        req("personId", Int, "the person"),
        req("commentId", Int, "the comment"),
        req("creationDate", Int, "epoch ms"),
    ],
    build: iu3,
};

const IU4: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu4",
    description: "LDBC IU4: add a forum with its moderator and tags",
    params: &[
        req("forumId", Int, "new forum id"),
        req("forumTitle", Str, "title"),
        req("creationDate", Int, "epoch ms"),
        req("moderatorPersonId", Int, "the moderator"),
        req("tagIds", IntList, "tags"),
    ],
    build: iu4,
};

const IU5: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu5",
    description: "LDBC IU5: a person joins a forum",
    params: &[
        req("forumId", Int, "the forum"),
        req("personId", Int, "the person"),
        req("joinDate", Int, "epoch ms"),
    ],
    build: iu5,
};

const IU6: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu6",
    description: "LDBC IU6: add a post to a forum",
    params: &[
        req("postId", Int, "new post id"),
        req("imageFile", Str, "image file, or empty"),
        req("creationDate", Int, "epoch ms"),
        req("locationIP", Str, "IP address"),
        req("browserUsed", Str, "browser"),
        req("language", Str, "language, or empty"),
        req("content", Str, "text, or empty"),
        req("length", Int, "content length"),
        req("authorPersonId", Int, "the author"),
        req("forumId", Int, "the forum"),
        req("countryId", Int, "the country (Place id)"),
        req("tagIds", IntList, "tags"),
    ],
    build: iu6,
};

const IU7: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu7",
    description: "LDBC IU7: add a comment replying to a post or a comment",
    params: &[
        req("commentId", Int, "new comment id"),
        req("creationDate", Int, "epoch ms"),
        req("locationIP", Str, "IP address"),
        req("browserUsed", Str, "browser"),
        req("content", Str, "text"),
        req("length", Int, "content length"),
        req("authorPersonId", Int, "the author"),
        req("countryId", Int, "the country (Place id)"),
        req("replyToPostId", Int, "the post replied to, or -1"),
        req("replyToCommentId", Int, "the comment replied to, or -1"),
        req("tagIds", IntList, "tags"),
    ],
    build: iu7,
};

const IU8: UpdateProcedure = UpdateProcedure {
    name: "ldbc.iu8",
    description: "LDBC IU8: two persons become friends",
    params: &[
        req("person1Id", Int, "one person"),
        req("person2Id", Int, "the other"),
        req("creationDate", Int, "epoch ms"),
    ],
    build: iu8,
};

/// IU1..IU8.
pub(crate) fn procedures() -> Vec<UpdateProcedure> {
    vec![IU1, IU2, IU3, IU4, IU5, IU6, IU7, IU8]
}

#[cfg(test)]
mod tests {
    use kith_core::write_op::{NodeRef, WriteOp};
    use kith_core::Value;

    use crate::Registry;

    fn p(k: &str, v: Value) -> (String, Value) {
        (k.to_owned(), v)
    }

    #[test]
    fn a_comment_names_exactly_one_parent() {
        let r = Registry::with_builtins();
        let base = |post: i64, comment: i64| {
            vec![
                p("commentId", Value::Int(9)),
                p("creationDate", Value::Int(1)),
                p("locationIP", Value::string("1.2.3.4")),
                p("browserUsed", Value::string("Firefox")),
                p("content", Value::string("yes")),
                p("length", Value::Int(3)),
                p("authorPersonId", Value::Int(7)),
                p("countryId", Value::Int(1)),
                p("replyToPostId", Value::Int(post)),
                p("replyToCommentId", Value::Int(comment)),
                p("tagIds", Value::List(vec![Value::Int(5)])),
            ]
        };
        let ops = r.build_update("ldbc.iu7", &base(-1, 12)).expect("builds");
        assert!(ops.iter().any(|op| matches!(op,
            WriteOp::CreateRel { rel_type, dst: NodeRef::ById { label, id: 12 }, .. }
                if &**rel_type == "REPLY_OF" && &**label == "Comment")));
        for (post, comment) in [(-1, -1), (3, 12)] {
            let e = r
                .build_update("ldbc.iu7", &base(post, comment))
                .expect_err("refused");
            assert!(
                matches!(e, crate::ProcedureError::ParameterOutOfRange { .. }),
                "{e}"
            );
        }
        // A wrong type is refused before anything is built.
        let mut bad = base(-1, 12);
        bad[10] = p("tagIds", Value::string("5"));
        let e = r.build_update("ldbc.iu7", &bad).expect_err("refused");
        assert!(
            matches!(e, crate::ProcedureError::WrongParameterType { .. }),
            "{e}"
        );
    }

    #[test]
    fn a_new_person_keeps_empty_lists_out_and_links_everything() {
        let r = Registry::with_builtins();
        let params = vec![
            p("personId", Value::Int(1)),
            p("personFirstName", Value::string("A")),
            p("personLastName", Value::string("B")),
            p("gender", Value::string("male")),
            p("birthday", Value::Int(0)),
            p("creationDate", Value::Int(1)),
            p("locationIP", Value::string("ip")),
            p("browserUsed", Value::string("Chrome")),
            p("cityId", Value::Int(3)),
            p("languages", Value::List(vec![Value::string("en")])),
            p("emails", Value::List(vec![])),
            p("tagIds", Value::List(vec![Value::Int(4), Value::Int(5)])),
            p(
                "studyAt",
                Value::List(vec![Value::List(vec![Value::Int(6), Value::Int(2001)])]),
            ),
            p("workAt", Value::List(vec![])),
        ];
        let ops = r.build_update("ldbc.iu1", &params).expect("builds");
        let WriteOp::CreateNode { properties, .. } = &ops[0] else {
            panic!("the person first: {ops:?}")
        };
        assert!(properties.iter().any(|(k, _)| &**k == "speaks"));
        assert!(
            !properties.iter().any(|(k, _)| &**k == "email"),
            "no empty list"
        );
        // Dates are Int epoch milliseconds, the official Cypher schema's `LONG`.
        assert!(properties
            .iter()
            .any(|(k, v)| &**k == "birthday" && *v == Value::Int(0)));
        assert!(properties
            .iter()
            .any(|(k, v)| &**k == "creationDate" && *v == Value::Int(1)));
        // city + 2 interests + 1 university.
        assert_eq!(ops.len(), 1 + 1 + 2 + 1);
    }

    #[test]
    fn every_update_writes_its_date_as_an_int() {
        let r = Registry::with_builtins();
        let when = 1_300_000_000_000;
        let ids = |names: &[&str]| -> Vec<(String, Value)> {
            names.iter().map(|n| p(n, Value::Int(3))).collect()
        };
        let text = |n: &str| p(n, Value::string("x"));
        let no_tags = || p("tagIds", Value::List(vec![]));
        let calls = [
            ("ldbc.iu2", "creationDate", ids(&["personId", "postId"])),
            ("ldbc.iu3", "creationDate", ids(&["personId", "commentId"])),
            (
                "ldbc.iu4",
                "creationDate",
                [
                    ids(&["forumId", "moderatorPersonId"]),
                    vec![text("forumTitle"), no_tags()],
                ]
                .concat(),
            ),
            ("ldbc.iu5", "joinDate", ids(&["forumId", "personId"])),
            (
                "ldbc.iu6",
                "creationDate",
                [
                    ids(&["postId", "length", "authorPersonId", "forumId", "countryId"]),
                    [
                        "imageFile",
                        "locationIP",
                        "browserUsed",
                        "language",
                        "content",
                    ]
                    .map(text)
                    .to_vec(),
                    vec![no_tags()],
                ]
                .concat(),
            ),
            (
                "ldbc.iu7",
                "creationDate",
                [
                    ids(&[
                        "commentId",
                        "length",
                        "authorPersonId",
                        "countryId",
                        "replyToPostId",
                    ]),
                    vec![p("replyToCommentId", Value::Int(-1)), no_tags()],
                    ["locationIP", "browserUsed", "content"].map(text).to_vec(),
                ]
                .concat(),
            ),
            ("ldbc.iu8", "creationDate", ids(&["person1Id", "person2Id"])),
        ];
        for (procedure, date, mut params) in calls {
            params.push(p(date, Value::Int(when)));
            let ops = r.build_update(procedure, &params).expect("builds");
            let dates: Vec<&Value> = ops
                .iter()
                .flat_map(|op| match op {
                    WriteOp::CreateNode { properties, .. }
                    | WriteOp::CreateRel { properties, .. } => properties.as_slice(),
                    _ => &[],
                })
                .filter(|(k, _)| &**k == date)
                .map(|(_, v)| v)
                .collect();
            assert_eq!(dates, [&Value::Int(when)], "{procedure}: {ops:?}");
        }
    }
}
