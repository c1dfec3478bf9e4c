//! The help herald mails (`templates/help/`) and the README tell the truth (issue 18, point
//! 7): every command, spelling, rule switch and variant the judge reads is in them, and
//! nothing they name as a command, a setting, a switch or a variant is unknown to it. The
//! judge's side comes from its own tables: the commands' rows (`herald::judge::cmd::keywords`), the rule
//! switches' `SWITCHES` and the built-in variants.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use herald::game::rules::{Rules, Scope, SWITCHES};
use herald::game::variant::Variant;
use herald::judge::cmd::keywords;
use herald::judge::render::TOPICS;

use crate::support;

use support::{to, World};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each help file by name (`index` for HELP, then GET's topics), its text.
fn help_files() -> Vec<(String, String)> {
    std::iter::once("index")
        .chain(TOPICS.iter().copied())
        .map(|name| {
            let text = std::fs::read_to_string(format!("{ROOT}/templates/help/{name}.txt"))
                .unwrap_or_else(|e| panic!("templates/help/{name}.txt: {e}"));
            (name.to_string(), text)
        })
        .collect()
}

fn help(name: &str) -> String {
    help_files()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t)
        .unwrap()
}

fn all_help() -> String {
    help_files()
        .into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A file of the repository by its path from the root.
fn file(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The guides to the mail language, by path: every command herald reads is in one of them.
const LANGUAGE: [&str; 2] = ["docs/players.md", "docs/masters.md"];

/// The players' and the Masters' guides together: the reference of the mail language.
fn language() -> String {
    LANGUAGE.map(file).join("\n")
}

/// The README and every guide under `docs/`, by path: none may name a command, setting,
/// switch or variant herald does not read.
fn manual() -> Vec<(String, String)> {
    let mut paths: Vec<String> = std::fs::read_dir(format!("{ROOT}/docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    paths.sort();
    // The guides are all there: a guide renamed or gone fails here, not silently.
    for want in LANGUAGE.iter().chain(&["docs/variants.md"]) {
        assert!(paths.iter().any(|p| p == want), "{want} is missing");
    }
    paths.insert(0, "README.md".into());
    paths.into_iter().map(|p| (p.clone(), file(&p))).collect()
}

/// Whether `text` has `words` as whole words (any run of spaces, line breaks or backticks
/// between them, none of `[A-Za-z0-9_=]` right before or after).
fn mentions(text: &str, words: &str) -> bool {
    let flat: String = text
        .chars()
        .map(|c| {
            if c == '`' || c.is_whitespace() {
                ' '
            } else {
                c
            }
        })
        .collect();
    let flat = flat
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '=';
    flat.match_indices(words).any(|(at, _)| {
        let before = flat[..at].chars().next_back();
        let after = flat[at + words.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

fn spellings() -> impl Iterator<Item = &'static str> {
    keywords().flat_map(|k| k.spellings())
}

/// The spellings to look for: each command's name and the aliases that differ from it by
/// more than spaces (`SET NO DRAW` is `SET NODRAW` as herald reads it).
fn distinct_spellings() -> impl Iterator<Item = &'static str> {
    let squash = |s: &str| s.split_whitespace().collect::<String>();
    keywords().flat_map(move |k| {
        let name = squash(k.name);
        std::iter::once(k.name).chain(k.aliases.iter().copied().filter(move |a| squash(a) != name))
    })
}

#[test]
fn every_command_and_each_of_its_spellings_is_in_the_help_and_the_guides() {
    let (help, guides) = (all_help(), language());
    let mut missing = Vec::new();
    for spelling in distinct_spellings() {
        if !mentions(&help, spelling) {
            missing.push(format!("{spelling} (help)"));
        }
        if !mentions(&guides, spelling) {
            missing.push(format!("{spelling} (docs/players.md or docs/masters.md)"));
        }
    }
    assert!(missing.is_empty(), "not mentioned: {}", missing.join(", "));
}

/// A variant's switches are described in the variants' guide, a Master's in the Masters';
/// both in GET variants, a Master's in GET master too, and every one in the table of
/// `variants/FORMAT.md`, which a keeper writing a variant file reads.
#[test]
fn every_variant_and_rule_switch_is_in_get_master_get_variants_and_the_guides() {
    let (master, variants) = (help("master"), help("variants"));
    let (masters_guide, variants_guide) = (file("docs/masters.md"), file("docs/variants.md"));
    let format = file("variants/FORMAT.md");
    let mut missing = Vec::new();
    for name in Variant::builtin_names() {
        let heading = variants.lines().any(|l| l.trim() == name);
        if !heading {
            missing.push(format!("variant {name} (a section of GET variants)"));
        }
        let places = [
            ("GET master", &master),
            ("docs/masters.md", &masters_guide),
            ("docs/variants.md", &variants_guide),
        ];
        for (file, text) in places {
            if !mentions(text, name) {
                missing.push(format!("variant {name} ({file})"));
            }
        }
    }
    for switch in SWITCHES {
        for name in std::iter::once(&switch.name).chain(switch.aliases) {
            let mut places = vec![("GET variants", &variants)];
            if switch.scope == Scope::Game {
                places.push(("GET master", &master));
                places.push(("docs/masters.md", &masters_guide));
            } else {
                places.push(("docs/variants.md", &variants_guide));
            }
            // The format's table gives each switch once, by its name.
            if *name == switch.name {
                places.push(("variants/FORMAT.md", &format));
            }
            for (file, text) in places {
                if !mentions(text, name) {
                    missing.push(format!("switch {name} ({file})"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "not mentioned: {}", missing.join(", "));
}

/// The run of upper-case words starting at `at` (`SET PRESS WHITE`), up to punctuation
/// (`SET PRESS, SET PARTIAL` are two).
fn caps_run(words: &[&str], at: usize) -> Vec<String> {
    let mut run = Vec::new();
    for raw in &words[at..] {
        let word = raw.trim_start_matches(|c: char| "`*(".contains(c));
        let bare = word.trim_end_matches(|c: char| "`*,.;:)".contains(c));
        let caps = bare.len() >= 2
            && bare
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c == '!');
        if !caps {
            break;
        }
        run.push(bare.to_string());
        if bare.len() < word.len() && !word[bare.len()..].starts_with('`') {
            break;
        }
    }
    run
}

/// Whether some spelling and the run agree as far as the shorter goes (`SET MOVE NEXT` is
/// SET MOVE with an argument; `SET PRESS` names SET PRESS WHITE and the others), spaces
/// left out as herald leaves them out (`SET NO SHOW`).
fn known_run(run: &[String]) -> bool {
    let squash = |words: &[&str]| words.concat();
    spellings().filter(|s| *s != "SET").any(|s| {
        let words: Vec<&str> = s.split_whitespace().collect();
        let prefix = words.iter().zip(run).all(|(a, b)| a == b);
        let run: Vec<&str> = run.iter().map(String::as_str).collect();
        let squashed = (2..=run.len()).any(|k| squash(&run[..k]) == squash(&words));
        prefix || squashed
    })
}

#[test]
fn every_set_the_help_and_the_guides_name_is_a_setting_the_judge_reads() {
    let mut unknown = Vec::new();
    let mut texts = help_files();
    texts.extend(manual());
    for (file, text) in &texts {
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            for at in 0..words.len() {
                let run = caps_run(&words, at);
                if run.first().map(String::as_str) == Some("SET")
                    && run.len() >= 2
                    && !known_run(&run)
                {
                    unknown.push(format!("{file}: '{}' in: {}", run.join(" "), line.trim()));
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "unknown settings:\n{}",
        unknown.join("\n")
    );
}

/// Words in capitals the help uses that are no command: arguments the commands read
/// (press recipients and colours, timing keys, ON/OFF) and plain words.
#[rustfmt::skip]
const NOT_COMMANDS: &[&str] = &[
    // Arguments read by PRESS, SET MOVE and the like, GET MAP, SET ALLOW, world1880's dips,
    // HISTORY, ROLLBACK, SET DRAW.
    "TO", "ALL", "BUT", "GREY", "GRAY", "WHITE", "NONE", "ON", "OFF", "NEXT", "GRACE", "AT",
    "DAYS", "SVG", "FULL", "PLAYER", "DIPS", "MTWTF", "FROM", "LINES", "AFRESH", "SURVIVORS",
    "EVERYONE",
    // Plain words and names.
    "UTC", "DATC", "USA", "II", "GOL", "FF", "AD", "PNG", "IANA", "NMR", "NB",
];

/// The words in capitals of `texts` that are no command's word, no argument of
/// [`NOT_COMMANDS`], no power letters and not accepted by `also`.
fn unknown_capitals(texts: &[(String, String)], also: impl Fn(&str) -> bool) -> Vec<String> {
    let known: Vec<&str> = spellings().flat_map(str::split_whitespace).collect();
    // Power letters as PRESS TO, SET PREFERENCE and the like take them (FEG; GO is Germany
    // and the observers): distinct letters of one variant's powers, M and O.
    let letters = |word: &str| {
        Variant::builtins().any(|v| {
            let mut seen = String::new();
            word.chars().all(|c| {
                let fresh = !seen.contains(c);
                seen.push(c);
                fresh && ("MO".contains(c) || v.map.powers.iter().any(|p| p.letter == c))
            })
        })
    };
    let mut unknown = Vec::new();
    for (file, text) in texts {
        for line in text.lines() {
            for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '!')) {
                let caps = word.len() >= 2
                    && word
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c == '!' || c == '_');
                if caps
                    && !known.contains(&word)
                    && !NOT_COMMANDS.contains(&word)
                    && !letters(word)
                    && !also(word)
                {
                    unknown.push(format!("{file}: '{word}' in: {}", line.trim()));
                }
            }
        }
    }
    unknown
}

#[test]
fn every_word_in_capitals_in_the_help_is_a_command_or_an_argument_the_judge_reads() {
    let unknown = unknown_capitals(&help_files(), |_| false);
    assert!(unknown.is_empty(), "unknown words:\n{}", unknown.join("\n"));
}

/// Words in capitals the guides to the mail language use that are no command: what
/// results print (`SUPPORT`, `(DISBAND)`), a calendar file's fields, a name in the code.
#[rustfmt::skip]
const GUIDE_WORDS: &[&str] = &["SUPPORT", "DISBAND", "RFC", "UID", "SEQUENCE", "DEFS"];

/// The guides name no command herald does not read: every word in capitals in the players'
/// and the Masters' guides is a command's word, an argument, power letters, a province as
/// orders may write it (`A PAR M BUR`), a command with its spaces left out (`SETNOWAIT`), or
/// one of [`GUIDE_WORDS`].
#[test]
fn every_word_in_capitals_in_the_guides_is_a_command_or_an_argument_the_judge_reads() {
    let guides: Vec<(String, String)> = LANGUAGE.iter().map(|p| (p.to_string(), file(p))).collect();
    let squashed: Vec<String> = spellings()
        .map(|s| s.split_whitespace().collect())
        .collect();
    let province = |word: &str| {
        let name = herald::game::map::normalize(word);
        Variant::builtins().any(|v| v.map.lookup(&name).is_some())
    };
    let unknown = unknown_capitals(&guides, |word| {
        GUIDE_WORDS.contains(&word) || squashed.iter().any(|s| s == word) || province(word)
    });
    assert!(unknown.is_empty(), "unknown words:\n{}", unknown.join("\n"));
}

/// Every CREATE the help, the README and the guides show names a variant herald plays and
/// switches it reads, and every switch-like word (`remote_builds`, `victory=20`) in the help
/// and the guides to the mail language is one.
#[test]
fn every_variant_and_switch_the_help_and_the_guides_show_is_one_the_judge_reads() {
    let mut unknown = Vec::new();
    let mut texts = help_files();
    texts.extend(manual());
    let switch = |w: &str| Rules::standard().apply_variant_switch(w).is_ok();
    for (file, text) in &texts {
        // The README and the other guides have snake_case names of their own (keys,
        // functions): their switch-like words are read in the mail language's guides.
        let snake_words_are_switches = !file.ends_with(".md") || LANGUAGE.contains(&file.as_str());
        for line in text.lines() {
            // Each piece of code apart: `CREATE ?g pw standard rules=1982` ends at its `.
            for piece in line.split('`') {
                let words: Vec<&str> = piece
                    .split_whitespace()
                    .map(|w| w.trim_matches(|c: char| "*,.;:()".contains(c)))
                    .collect();
                for at in 0..words.len() {
                    if words[at] != "CREATE"
                        || !words.get(at + 1).is_some_and(|g| g.starts_with('?'))
                    {
                        continue;
                    }
                    let rest: Vec<&str> = words
                        .get(at + 3..)
                        .unwrap_or(&[])
                        .iter()
                        .copied()
                        .take_while(|w| {
                            !w.is_empty()
                                && w.chars().all(|c| {
                                    c.is_ascii_lowercase() || c.is_ascii_digit() || "_=".contains(c)
                                })
                        })
                        .collect();
                    if let Some((variant, switches)) = rest.split_first() {
                        if Variant::builtin(variant).is_err() {
                            unknown
                                .push(format!("{file}: variant '{variant}' in: {}", line.trim()));
                        }
                        for s in switches.iter().filter(|s| !switch(s)) {
                            unknown.push(format!("{file}: switch '{s}' in: {}", line.trim()));
                        }
                    }
                }
                if !snake_words_are_switches {
                    continue;
                }
                for word in &words {
                    let snake = word.starts_with(|c: char| c.is_ascii_lowercase())
                        && word.contains('_')
                        && word.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || "_=".contains(c)
                        });
                    let valued = word.split_once('=').is_some_and(|(k, v)| {
                        !k.is_empty()
                            && !v.is_empty()
                            && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    });
                    if (snake || valued) && !switch(&word.replace("=N", "=20")) {
                        unknown.push(format!("{file}: switch '{word}' in: {}", line.trim()));
                    }
                }
            }
        }
    }
    assert!(unknown.is_empty(), "unknown:\n{}", unknown.join("\n"));
}

/// What a player gets by mail: HELP, GET master and GET variants, as herald sends them,
/// name every variant and every switch a Master may set, and no longer say standard is the
/// only variant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_help_by_mail_names_every_variant_and_every_masters_switch() {
    let mut w = World::new("helptruth").await;
    for (ask, file) in [
        ("GET master", "master"),
        ("GET variants", "variants"),
        ("HELP", "index"),
    ] {
        let sent = w.mail("ann@example.org", "help", ask).await;
        let body = &to(&sent, "ann@example.org").body;
        assert!(!body.contains("only one so far"), "{ask}");
        // The help file itself, whole (its first line is its title).
        let title = help(file).lines().next().unwrap().to_string();
        assert!(body.contains(&title), "{ask}: {body}");
        if file == "index" {
            continue;
        }
        for name in Variant::builtin_names() {
            assert!(mentions(body, name), "{ask} lacks the variant {name}");
        }
        for switch in SWITCHES.iter().filter(|s| s.scope == Scope::Game) {
            assert!(
                mentions(body, switch.name),
                "{ask} lacks the switch {}",
                switch.name
            );
        }
    }
}
