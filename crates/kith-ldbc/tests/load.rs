//! The loader on the official LDBC test data set, and on broken copies of it.

use std::path::{Path, PathBuf};

use kith_core::ldbc_schema::{label, rel};
use kith_core::{Direction, GraphView};
use kith_storage::Snapshot;

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/ldbc-snb-interactive-test/vanilla")
}

/// Records in every partition of a table, counted straight from the files.
fn records(dir: &str, stem: &str) -> usize {
    let folder = test_data().join(dir);
    std::fs::read_dir(&folder)
        .expect("data dir")
        .filter_map(Result::ok)
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.strip_suffix("_0_0.csv") == Some(stem)
        })
        .map(|e| {
            std::fs::read_to_string(e.path())
                .expect("reads")
                .lines()
                .skip(1)
                .filter(|l| !l.is_empty())
                .count()
        })
        .sum()
}

fn count_label(g: &Snapshot, name: &str) -> usize {
    let l = g.label_id(name).expect("label exists");
    g.node_ids().filter(|n| g.has_label(*n, l)).count()
}

fn count_rels(g: &Snapshot, name: &str) -> usize {
    let t = g.rel_type_id(name).expect("type exists");
    g.node_ids()
        .map(|n| g.neighbors(n, t, Direction::Out).len())
        .sum()
}

#[test]
fn the_test_data_set_loads_completely() {
    let (raw, stats) = kith_ldbc::load(&test_data()).expect("loads");
    let g = Snapshot::from_raw(raw).expect("builds");
    assert_eq!(count_label(&g, label::PERSON), records("dynamic", "person"));
    assert_eq!(count_label(&g, label::POST), records("dynamic", "post"));
    assert_eq!(
        count_label(&g, label::COMMENT),
        records("dynamic", "comment")
    );
    assert_eq!(
        count_label(&g, label::MESSAGE),
        records("dynamic", "post") + records("dynamic", "comment")
    );
    assert_eq!(count_label(&g, label::PLACE), records("static", "place"));
    assert_eq!(
        count_label(&g, label::CITY)
            + count_label(&g, label::COUNTRY)
            + count_label(&g, label::CONTINENT),
        records("static", "place")
    );
    assert_eq!(
        count_rels(&g, rel::KNOWS),
        records("dynamic", "person_knows_person")
    );
    assert_eq!(
        count_rels(&g, rel::LIKES),
        records("dynamic", "person_likes_post") + records("dynamic", "person_likes_comment")
    );
    assert_eq!(stats.nodes, g.node_count());
    assert_eq!(stats.rels, g.rel_count());
    assert_eq!(stats.tables.len(), 8 + 23);

    // One person, field by field, against its CSV row:
    // 8796093022220|Jose|Alonso|female|558921600000|1284620040602|196.1.135.241|Internet Explorer|es;en|Jose...@gmail.com;Jose...@gmx.com
    let person = g
        .node_by_id(g.label_id(label::PERSON).expect("Person"), 8796093022220)
        .expect("the person");
    let prop = |k: &str| g.node_property(person, g.prop_key_id(k).expect("key"));
    assert_eq!(prop("firstName"), Some(kith_core::Value::string("Jose")));
    // Dates are Int epoch milliseconds, as in the official Cypher schema (`LONG`).
    assert_eq!(prop("birthday"), Some(kith_core::Value::Int(558921600000)));
    assert_eq!(
        prop("creationDate"),
        Some(kith_core::Value::Int(1284620040602))
    );
    // No property anywhere is a DateTime: every date of every node and relationship
    // (birthday, creationDate, KNOWS/LIKES creationDate, HAS_MEMBER joinDate) is an Int.
    let date_keys: Vec<_> = ["birthday", "creationDate", "joinDate"]
        .iter()
        .map(|k| g.prop_key_id(k).expect("key"))
        .collect();
    let (mut node_dates, mut rel_dates) = (0usize, 0usize);
    for n in g.node_ids() {
        for (k, v) in g.node_properties(n) {
            assert!(!matches!(v, kith_core::Value::DateTime(_)), "{v:?}");
            if date_keys.contains(&k) {
                assert!(matches!(v, kith_core::Value::Int(_)), "{v:?}");
                node_dates += 1;
            }
        }
        for t in g.rel_types_at(n, Direction::Out) {
            for e in g.neighbors(n, t, Direction::Out) {
                assert!(g.relationship(e.rel).is_some(), "relationship");
                for (k, v) in g.rel_properties(e.rel) {
                    assert!(!matches!(v, kith_core::Value::DateTime(_)), "{v:?}");
                    if date_keys.contains(&k) {
                        assert!(matches!(v, kith_core::Value::Int(_)), "{v:?}");
                        rel_dates += 1;
                    }
                }
            }
        }
    }
    let person_dates = 2 * records("dynamic", "person");
    assert_eq!(
        node_dates,
        person_dates
            + records("dynamic", "forum")
            + records("dynamic", "post")
            + records("dynamic", "comment")
    );
    assert_eq!(
        rel_dates,
        records("dynamic", "person_knows_person")
            + records("dynamic", "person_likes_post")
            + records("dynamic", "person_likes_comment")
            + records("dynamic", "forum_hasMember_person")
    );
    assert_eq!(
        prop("speaks"),
        Some(kith_core::Value::List(vec![
            kith_core::Value::string("es"),
            kith_core::Value::string("en")
        ]))
    );
    assert_eq!(
        prop("email"),
        Some(kith_core::Value::List(vec![
            kith_core::Value::string("Jose8796093022220@gmail.com"),
            kith_core::Value::string("Jose8796093022220@gmx.com")
        ]))
    );
    // A post without content or language has neither property (not empty strings).
    let post = g
        .node_by_id(g.label_id(label::POST).expect("Post"), 343597383680)
        .expect("the post");
    assert!(g
        .node_property(post, g.prop_key_id("content").expect("key"))
        .is_none());
    assert_eq!(
        g.node_property(post, g.prop_key_id("imageFile").expect("key")),
        Some(kith_core::Value::string("photo343597383680.jpg"))
    );
}

/// A copy of the test data set with one file's text replaced.
fn broken_copy(file: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in ["static", "dynamic"] {
        std::fs::create_dir(dir.path().join(sub)).expect("mkdir");
        for entry in std::fs::read_dir(test_data().join(sub)).expect("reads") {
            let entry = entry.expect("entry");
            let name = entry.file_name();
            let to = dir.path().join(sub).join(&name);
            if Path::new(sub).join(&name) == Path::new(file) {
                let text = std::fs::read_to_string(entry.path()).expect("reads");
                std::fs::write(to, edit(&text)).expect("writes");
            } else {
                std::fs::copy(entry.path(), to).expect("copies");
            }
        }
    }
    dir
}

fn load_error(dir: &Path) -> String {
    kith_ldbc::load(dir).expect_err("refused").to_string()
}

#[test]
fn malformed_files_are_refused_naming_file_line_and_column() {
    // A date that is not a number, on the third line.
    let d = broken_copy("dynamic/person_0_0.csv", |t| {
        let mut lines: Vec<String> = t.lines().map(str::to_owned).collect();
        let mut fields: Vec<&str> = lines[2].split('|').collect();
        fields[4] = "1987-09-18";
        lines[2] = fields.join("|");
        lines.join("\n") + "\n"
    });
    let e = load_error(d.path());
    assert!(
        e.ends_with(
            "person_0_0.csv, line 3, column 5 (birthday): \"1987-09-18\" is not an integer"
        ),
        "{e}"
    );

    // A row cut short (a truncated file).
    let d = broken_copy("dynamic/forum_0_0.csv", |t| {
        let cut = t.len() - 20;
        t[..cut].to_owned()
    });
    let e = load_error(d.path());
    assert!(e.contains("forum_0_0.csv, line"), "{e}");
    assert!(
        e.contains("fields; expected 3") || e.contains("is not an integer"),
        "{e}"
    );

    // A relationship to a person that does not exist.
    let d = broken_copy("dynamic/person_knows_person_0_0.csv", |t| {
        t.to_owned() + "4398046511192|999|1278777892244\n"
    });
    let e = load_error(d.path());
    assert!(
        e.contains("column 2 (Person.id): no person with id 999"),
        "{e}"
    );

    // The same id twice.
    let d = broken_copy("static/tag_0_0.csv", |t| {
        let second = t.lines().nth(1).expect("a row").to_owned();
        t.to_owned() + &second + "\n"
    });
    let e = load_error(d.path());
    assert!(e.contains("tag id 0 appears twice"), "{e}");

    // Another layout's header.
    let d = broken_copy("static/tagclass_0_0.csv", |t| {
        t.replacen("id|name|url", "id:ID|name|url", 1)
    });
    let e = load_error(d.path());
    assert!(e.contains("tagclass_0_0.csv, line 1: the header is"), "{e}");

    // A missing table.
    let d = broken_copy("static/tag_0_0.csv", |t| t.to_owned());
    std::fs::remove_file(d.path().join("static/tag_0_0.csv")).expect("removes");
    let e = load_error(d.path());
    assert!(e.contains("missing: no tag_*_*.csv"), "{e}");

    // The parent of the data set, with a hint.
    let parent = tempfile::tempdir().expect("tempdir");
    for sub in ["social_network/static", "social_network/dynamic"] {
        std::fs::create_dir_all(parent.path().join(sub)).expect("mkdir");
    }
    let e = load_error(parent.path());
    assert!(
        e.contains("did you mean") && e.contains("social_network"),
        "{e}"
    );
}
