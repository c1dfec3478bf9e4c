//! Variants as files: each built-in variant built from its file in `variants/` is the variant
//! herald played before variants were files, and a keeper's variant file is loaded, played
//! and, when wrong, refused with its file and what is wrong.

// Test code throughout, helpers included: a panic is a failed test with its line.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::unreachable)]

use std::path::PathBuf;

use herald::cases::{parse_cases, run_case_in};
use herald::catalog::Catalog;
use herald::game::calendar::{Calendar, Phase, PhaseKind, YearStyle};
use herald::game::map::builtin;
use herald::game::rules::{BuildSites, Edition, Rules};
use herald::game::turn;
use herald::game::variant::Variant;

/// The phase codes and displays of the first `n` phases from the start.
fn phases(cal: &Calendar, n: usize) -> Vec<(String, String)> {
    let mut p = cal.start;
    let mut out = Vec::new();
    for _ in 0..n {
        out.push((cal.code(p), cal.show(p)));
        p = cal.next(p);
    }
    out
}

/// What each built-in variant was before it came from a file: its calendar and rules as the
/// code's constructors built them (`Calendar::classical()`, `Rules::deluge()`, ...), which
/// the files replace.
fn before(name: &str) -> (Calendar, Rules) {
    let standard = Rules::standard();
    match name {
        "standard" => (Calendar::standard(1901), standard),
        "portage" => (
            Calendar::standard(1901),
            Rules {
                portage: true,
                // Since issue 15: "The February 1982 rules of Diplomacy apply".
                edition: Edition::Rules1982,
                ..standard
            },
        ),
        "classical" => (
            Calendar {
                years: YearStyle::BeforeChrist { epoch: 323 },
                ..Calendar::standard(50)
            },
            Rules {
                build_sites: BuildSites::AnyOwnedWhileHomeHeld,
                ..standard
            },
        ),
        "deluge" => (
            Calendar {
                start: Phase {
                    year: 1900,
                    season: 2,
                    kind: PhaseKind::Adjustment,
                },
                ..Calendar::standard(1901)
            },
            Rules {
                build_sites: BuildSites::AnyOwned,
                conversion: true,
                army_fleets: true,
                fast_ferry_only: true,
                last_year: Some(1908),
                survivors_share: true,
                // Since issue 15: rule 1's Winter 1900 chooses the types of the first units,
                // and a home centre left without a build gets the standard game's unit.
                unit_choice: true,
                ..standard
            },
        ),
        "world1880" => (
            Calendar {
                start: Phase {
                    year: 1879,
                    season: 2,
                    kind: PhaseKind::Adjustment,
                },
                ..Calendar::standard(1880)
            },
            Rules {
                free_oceans: true,
                ocean_network: true,
                unit_choice: true,
                victory_majority: true,
                several_powers: true,
                dip_points: true,
                last_year: Some(1900),
                // More than half of the map's 70 centres.
                victory_centres: 36,
                ..standard
            },
        ),
        _ => unreachable!("{name}"),
    }
}

const BUILTIN: [(&str, &str, usize, usize, usize); 5] = [
    // (variant, map, provinces, centres, scheduled map changes)
    ("standard", "standard", 76, 34, 0),
    ("portage", "standard", 76, 34, 0),
    ("classical", "classical", 117, 35, 0),
    ("deluge", "deluge", 77, 34, 7),
    ("world1880", "world1880", 201, 70, 0),
];

#[test]
fn each_builtin_variant_from_its_file_is_the_variant_played_before() {
    for (name, map, provinces, centres, changes) in BUILTIN {
        let v = Variant::builtin(name).unwrap();
        let (calendar, rules) = before(name);
        assert_eq!(v.name, name);
        assert_eq!(v.map.name, map, "{name}");
        assert_eq!(
            (v.map.province_count(), v.map.centres().count()),
            (provinces, centres),
            "{name}"
        );
        assert_eq!(v.schedule.len(), changes, "{name}");
        assert_eq!(v.calendar, calendar, "{name}");
        assert_eq!(v.rules, rules, "{name}");
        assert_eq!(phases(&v.calendar, 12), phases(&calendar, 12), "{name}");
    }
}

#[test]
fn the_builtin_calendars_show_their_years() {
    let shown = |name: &str, n: usize| -> Vec<String> {
        let v = Variant::builtin(name).unwrap();
        phases(&v.calendar, n)
            .into_iter()
            .map(|(c, s)| format!("{c} {s}"))
            .collect()
    };
    assert_eq!(
        shown("classical", 6),
        [
            "S50M Spring 273 B.C., Movement",
            "S50R Spring 273 B.C., Retreat",
            "F50M Fall 273 B.C., Movement",
            "F50R Fall 273 B.C., Retreat",
            "W50A Winter 273 B.C., Adjustment",
            "S51M Spring 272 B.C., Movement",
        ]
    );
    assert_eq!(
        shown("deluge", 3),
        [
            "W1900A Winter 1900, Adjustment",
            "S1901M Spring 1901, Movement",
            "S1901R Spring 1901, Retreat",
        ]
    );
    assert_eq!(
        shown("world1880", 2),
        [
            "W1879A Winter 1879, Adjustment",
            "S1880M Spring 1880, Movement",
        ]
    );
    assert_eq!(shown("standard", 1), ["S1901M Spring 1901, Movement"]);
    let classical = &Variant::builtin("classical").unwrap().calendar;
    assert_eq!(
        classical.parse("Spring 273 B.C., Movement").unwrap(),
        classical.start
    );
}

fn temp_dir(name: &str) -> PathBuf {
    crate::support::scratch_dir(name)
}

/// A catalog made from a directory holding these files.
fn catalog_of(name: &str, files: &[(&str, &str)]) -> (Result<Catalog, String>, PathBuf) {
    let dir = temp_dir(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let catalog = Catalog::with_maps_dir(&dir).map_err(|e| e.to_string());
    (catalog, dir)
}

/// Plays `orders` (none: everything holds) and returns the phase codes the board passes.
fn hold_through(v: &Variant, phases: usize) -> Vec<String> {
    let mut pos = v.opening();
    let mut codes = vec![v.calendar.code(pos.phase)];
    for _ in 0..phases {
        let turn = turn::play(v, v.map_at(pos.phase), &pos, &[]);
        pos = turn.position;
        codes.push(v.calendar.code(pos.phase));
    }
    codes
}

const STANDARD_SEASONS: &str = r#"seasons = [
  { name = "Spring", phases = ["movement", "retreat"] },
  { name = "Fall", phases = ["movement", "retreat"], takes_centres = true },
  { name = "Winter", phases = ["adjustment"] },
]"#;

#[test]
fn a_keepers_variant_file_is_loaded_and_played() {
    // Classical's board with the standard calendar; the standard board with years B.C.; and
    // a standard board whose year has an Autumn and ends after 1903.
    let ancient = "name = \"ancient\"\nmap = \"classical\"\nrules = [\"remote_builds\"]\n";
    let bc = format!(
        "name = \"before\"\nmap = \"standard\"\n[calendar]\n{STANDARD_SEASONS}\nyears = \"bc\"\nepoch = 2000\nstart = \"Spring 100 B.C., Movement\"\nlast_year = \"98 B.C.\"\n"
    );
    let autumn = r#"
name = "autumnal"
map = "standard"
rules = ["victory=20"]

[calendar]
seasons = [
  { name = "Spring", phases = ["movement"] },
  { name = "Autumn", phases = ["movement", "retreat"], takes_centres = true },
  { name = "Winter", phases = ["adjustment"] },
]
start = "Spring 1901, Movement"
last_year = 1903
"#;
    let (catalog, dir) = catalog_of(
        "variant-ok",
        &[
            ("ancient.variant.toml", ancient),
            ("before.variant.toml", &bc),
            ("autumnal.variant.toml", autumn),
            ("notes.toml", "not = \"a variant\""),
        ],
    );
    let catalog = catalog.unwrap();

    let ancient = catalog.variant("Ancient").unwrap();
    assert_eq!(ancient.map.name, "classical");
    assert_eq!(ancient.calendar, Calendar::standard(1901));
    assert_eq!(ancient.rules.build_sites, BuildSites::AnyOwned);
    assert_eq!(
        hold_through(ancient, 3),
        ["S1901M", "F1901M", "S1902M", "F1902M"]
    );
    let case = "CASE ancient\nVARIANT ancient\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tRome: A bru\nORDERS\n\tRome: A bru-epi\nPOSTSTATE\n\tRome: A epi\nEND\n";
    let cases = parse_cases(case).unwrap();
    assert_eq!(run_case_in(&catalog, &cases[0]), Ok(()));

    let before = catalog.variant("before").unwrap();
    assert_eq!(before.calendar.start.year, 1900);
    assert_eq!(before.rules.last_year, Some(1902));
    assert_eq!(
        before.calendar.show(before.calendar.start),
        "Spring 100 B.C., Movement"
    );
    assert_eq!(hold_through(before, 2), ["S1900M", "F1900M", "S1901M"]);
    assert_eq!(
        before
            .calendar
            .show(before.calendar.parse("S1901M").unwrap()),
        "Spring 99 B.C., Movement"
    );

    let autumnal = catalog.variant("autumnal").unwrap();
    assert_eq!(autumnal.rules.victory_centres, 20);
    assert_eq!(autumnal.rules.last_year, Some(1903));
    let fall = autumnal.calendar.parse("Autumn 1901, Movement").unwrap();
    assert_eq!(autumnal.calendar.code(fall), "A1901M");
    assert_eq!(autumnal.calendar.parse("fall 1901 movement").unwrap(), fall);
    assert_eq!(
        hold_through(autumnal, 4),
        ["S1901M", "A1901M", "S1902M", "A1902M", "S1903M"]
    );

    // The built-in variants are all still there.
    for name in ["standard", "classical", "portage", "deluge", "world1880"] {
        assert_eq!(catalog.variant(name).unwrap().name, name);
    }
    assert_eq!(
        catalog.variant("notes").unwrap_err().to_string(),
        "unknown variant 'notes' (known: standard, classical, portage, deluge, world1880, ancient, autumnal, before)"
    );
    assert_eq!(
        Catalog::builtin().variant("notes").unwrap_err().to_string(),
        "unknown variant 'notes' (known: standard, classical, portage, deluge, world1880)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_keepers_file_replaces_a_builtin_variant_and_a_map_every_variant_on_it() {
    // Classical to 20 centres, and a standard board with Burgundy renamed Bourgogne.
    let classical = include_str!("../variants/classical.variant.toml")
        .replace("\"victory=18\"", "\"victory=20\"");
    let board = builtin::STANDARD.replace("\"Burgundy\"", "\"Bourgogne\"");
    let (catalog, dir) = catalog_of(
        "variant-replace",
        &[
            ("classical.variant.toml", &classical),
            ("standard.map", &board),
        ],
    );
    let catalog = catalog.unwrap();
    let classical = catalog.variant("classical").unwrap();
    assert_eq!(classical.rules.victory_centres, 20);
    assert_eq!(
        classical.calendar,
        Variant::builtin("classical").unwrap().calendar
    );
    for name in ["standard", "portage"] {
        let v = catalog.variant(name).unwrap();
        assert!(v.map.lookup("bourgogne").is_some(), "{name}");
        assert_eq!(v.rules, Variant::builtin(name).unwrap().rules, "{name}");
    }
    assert!(Variant::builtin("standard")
        .unwrap()
        .map
        .lookup("bourgogne")
        .is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The error a directory with this one variant file gives.
fn refusal(name: &str, text: &str) -> String {
    let file = format!("{name}.variant.toml");
    let (catalog, dir) = catalog_of(name, &[(&file, text)]);
    let err = catalog.err().unwrap_or_else(|| panic!("{name}: accepted"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.contains(&file), "{err}");
    err
}

#[test]
fn a_wrong_variant_file_is_refused_with_its_file_line_and_what_is_wrong() {
    let head = "name = \"odd\"\nmap = \"standard\"\n";
    // The line of the Deluge map's first flood block, wherever other lines move it.
    let first_flood = std::fs::read_to_string("maps/deluge.map")
        .unwrap()
        .lines()
        .position(|l| l.starts_with("at Winter"))
        .unwrap()
        + 1;
    let flood_wanted = format!(
        "schedules a change for 'winter' (the map's line {first_flood}), which is not a season of its calendar"
    );
    let cases: &[(&str, String, &str)] = &[
        (
            "switch",
            format!("{head}rules = [\n  \"portage\",\n  \"flying\",\n]\n"),
            "line 5: unknown rule switch 'flying' (remote_builds,",
        ),
        (
            "value",
            format!("{head}rules = [\"victory=many\"]\n"),
            "line 3: 'victory=many': victory=N needs a number of centres",
        ),
        (
            "map",
            "name = \"odd\"\nmap = \"atlantis\"\n".to_string(),
            "unknown map 'atlantis' (the directory's maps: none; herald's: standard",
        ),
        (
            "initials",
            format!("{head}[calendar]\nseasons = [\n  {{ name = \"Spring\", phases = [\"movement\"] }},\n  {{ name = \"Summer\", phases = [\"movement\", \"adjustment\"] }},\n]\n"),
            "line 4: calendar: seasons 'Spring' and 'Summer' begin with the same letter",
        ),
        (
            "order",
            format!("{head}[calendar]\nseasons = [{{ name = \"Spring\", phases = [\"adjustment\", \"movement\"] }}]\n"),
            "calendar: season 'Spring': its phases come in the order movement, retreat, adjustment",
        ),
        (
            "phase",
            format!("{head}[calendar]\nseasons = [{{ name = \"Spring\", phases = [\"movement\", \"parley\"] }}]\n"),
            "line 4: season 'Spring': unknown phase 'parley'",
        ),
        (
            "start",
            format!("{head}[calendar]\nstart = \"Summer 1901, Movement\"\n"),
            "line 4: calendar: start: 'Summer 1901, Movement' is not a phase of this game: unknown season",
        ),
        (
            "epoch",
            format!("{head}[calendar]\nyears = \"bc\"\nstart = \"Spring 200 B.C., Movement\"\n"),
            "line 4: years = \"bc\" needs 'epoch'",
        ),
        (
            "bcyear",
            format!("{head}[calendar]\nyears = \"bc\"\nepoch = 300\nstart = \"Spring 200 B.C., Movement\"\nlast_year = 190\n"),
            "line 7: last_year: the years are counted B.C.",
        ),
        (
            "twice",
            format!("{head}rules = [\"last_year=1910\"]\n[calendar]\nlast_year = 1910\n"),
            "line 5: the last year is given both",
        ),
        (
            "years",
            format!("{head}[calendar]\nyears = \"ce\"\n"),
            "line 4: years 'ce': write \"ad\" (years as they are) or \"bc\"",
        ),
        (
            "key",
            format!("{head}victory = 18\n"),
            "line 3: unknown field `victory`",
        ),
        (
            "toml",
            format!("{head}rules = [\"portage\"\n"),
            "line 4: invalid array, expected `]`",
        ),
        (
            "name",
            "name = \"two words\"\nmap = \"standard\"\n".to_string(),
            "line 1: name 'two words': a variant's name is one word",
        ),
        (
            "floods",
            // Deluge's floods come at the end of a Winter this calendar does not have.
            "name = \"dry\"\nmap = \"deluge\"\n[calendar]\nseasons = [{ name = \"Spring\", phases = [\"movement\", \"retreat\", \"adjustment\"], takes_centres = true }]\n".to_string(),
            &flood_wanted,
        ),
    ];
    for (name, text, wanted) in cases {
        let err = refusal(name, text);
        assert!(err.contains(wanted), "{name}: {err}\nwanted: {wanted}");
    }
}

#[test]
fn two_files_declaring_one_variant_are_refused() {
    let text = "name = \"twin\"\nmap = \"standard\"\n";
    let (catalog, dir) = catalog_of(
        "variant-twins",
        &[("a.variant.toml", text), ("b.variant.toml", text)],
    );
    let err = catalog.err().unwrap();
    assert!(
        err.contains("b.variant.toml: the variant 'twin' is declared already by")
            && err.contains("a.variant.toml"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
