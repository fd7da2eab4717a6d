//! The word lists the generator draws from, compiled into the binary so generation
//! never touches the network or the file system.

use std::sync::OnceLock;

use rand::Rng;

/// One list: lines of a file under `words/`.
pub(crate) struct Words(Vec<&'static str>);

impl Words {
    fn parse(text: &'static str) -> Words {
        Words(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect(),
        )
    }

    /// A uniformly random entry.
    pub(crate) fn pick<R: Rng>(&self, rng: &mut R) -> &'static str {
        self.0[rng.gen_range(0..self.0.len())]
    }

    /// Entry `i` modulo the length, for names that must cycle deterministically.
    pub(crate) fn nth(&self, i: usize) -> &'static str {
        self.0[i % self.0.len()]
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

macro_rules! lists {
    ($($name:ident => $file:literal),* $(,)?) => {
        /// All lists, parsed once.
        pub(crate) struct Lists { $(pub(crate) $name: Words,)* }

        pub(crate) fn lists() -> &'static Lists {
            static LISTS: OnceLock<Lists> = OnceLock::new();
            LISTS.get_or_init(|| Lists {
                $($name: Words::parse(include_str!(concat!("../../words/", $file))),)*
            })
        }
    };
}

lists! {
    first_names => "first_names.txt",
    last_names => "last_names.txt",
    streets => "streets.txt",
    street_suffixes => "street_suffixes.txt",
    cities => "cities.txt",
    organisations => "organisations.txt",
    industries => "industries.txt",
    departments => "departments.txt",
    job_titles => "job_titles.txt",
    interests => "interests.txt",
    group_topics => "group_topics.txt",
    words => "words.txt",
    message_subjects => "message_subjects.txt",
    activity_templates => "activity_templates.txt",
}

/// A random number (in `words`) of random words joined by spaces, first letter
/// capitalised, with a full stop.
pub(crate) fn sentence<R: Rng>(rng: &mut R, words: std::ops::Range<usize>) -> String {
    let count = rng.gen_range(words);
    let words = &lists().words;
    let mut out = String::with_capacity(count * 8);
    for i in 0..count {
        let w = words.pick(rng);
        if i == 0 {
            let mut chars = w.chars();
            if let Some(c) = chars.next() {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
        } else {
            out.push(' ');
            out.push_str(w);
        }
    }
    out.push('.');
    out
}

/// Fills `#` with digits and `A` with capital letters.
pub(crate) fn fill_pattern<R: Rng>(rng: &mut R, pattern: &str) -> String {
    pattern
        .chars()
        .map(|c| match c {
            '#' => char::from(b'0' + rng.gen_range(0..10u8)),
            'A' => char::from(b'A' + rng.gen_range(0..26u8)),
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_is_present_and_cities_are_well_formed() {
        let l = lists();
        for (name, list) in [
            ("first_names", &l.first_names),
            ("last_names", &l.last_names),
            ("words", &l.words),
            ("activity_templates", &l.activity_templates),
        ] {
            assert!(list.len() >= 50, "{name} has only {} entries", list.len());
        }
        for i in 0..l.cities.len() {
            assert_eq!(
                l.cities.nth(i).split('|').count(),
                4,
                "bad city line {}",
                l.cities.nth(i)
            );
        }
    }
}
