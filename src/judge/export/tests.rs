//! Tests of the exports: a standard game played by mail through a year (a dislodgement, a
//! retreat, a standoff, builds), then exported in every form.

use chrono::Duration;

use super::{atom, datc_case, export_json};
use crate::judge::testkit::{judge, mail, reply, start, started, GM, SEVEN};
use crate::judge::{Games, Judge};

mod feeds;

/// The orders of each power (by letter) for each phase, processed by the Master one hour
/// after the other.
const YEAR: [&[(char, &str)]; 4] = [
    // Spring 1901.
    &[
        ('F', "A Mar-Bur\nA Par-Gas\nF Bre-Mao"),
        ('G', "A Mun-Ruh\nA Ber-Mun\nF Kie-Den"),
        ('E', "F Lon-Nth\nF Edi-Nwg\nA Lvp-Yor"),
    ],
    // Fall 1901: the French army in Burgundy is dislodged from the Ruhr; Austria and
    // Italy stand off in Tyrolia.
    &[
        ('F', "A Bur H\nA Gas-Spa\nF Mao H"),
        ('G', "A Ruh-Bur\nA Mun S A Ruh-Bur\nF Den H"),
        ('I', "A Ven-Tyr"),
        ('A', "A Vie-Tyr"),
        ('E', "F Nth-Nwy\nF Nwg H\nA Yor H"),
    ],
    // Fall 1901 retreat.
    &[('F', "A Bur-Par")],
    // Winter 1901: builds.
    &[
        ('F', "Build F Bre"),
        ('G', "Build A Ber"),
        ('E', "Build F Lon"),
    ],
];

/// The address of the player of a power letter.
fn player(letter: char) -> &'static str {
    SEVEN
        .iter()
        .find(|(_, l)| *l == letter)
        .map(|(a, _)| *a)
        .unwrap()
}

/// The standard game `g` played through 1901 by mail, with France's orders for Spring
/// 1902 on file (not yet processed).
pub(super) fn a_year_played(j: &Judge) -> Games {
    let mut games = started(j);
    for (k, phase) in YEAR.iter().enumerate() {
        let now = start() + Duration::hours(k as i64 + 1);
        for (letter, orders) in phase.iter() {
            let body = format!("SIGNON {letter}g pw{letter}\n{orders}");
            let h = mail(j, &mut games, player(*letter), &body, now);
            let text = &reply(&h, player(*letter)).body;
            assert!(!text.contains("***"), "{text}");
        }
        mail(j, &mut games, GM, "SIGNON Mg gmpass\nPROCESS!", now);
    }
    let now = start() + Duration::hours(5);
    mail(j, &mut games, player('F'), "SIGNON Fg pwF\nA Par-Pic", now);
    let g = &games["g"];
    let cal = &j.variant(g).calendar;
    let codes: Vec<String> = g.history.iter().map(|h| cal.code(h.phase())).collect();
    assert_eq!(codes, ["S1901M", "F1901M", "F1901R", "W1901A"]);
    games
}

/// Checks a value against `docs/export.schema.json` with boon: the errors, none if valid.
pub(super) fn schema_errors(value: &serde_json::Value) -> Option<String> {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../../docs/export.schema.json")).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    let url = "https://herald.invalid/schemas/herald-game-1.json";
    compiler.add_resource(url, schema).unwrap();
    let index = compiler.compile(url, &mut schemas).unwrap();
    schemas
        .validate(value, index)
        .err()
        .map(|e| format!("{e:#}"))
}

/// Issue 28, point 3: "a JSON export of a game (variant, every phase's position, orders and
/// results) in a documented, versioned schema with a JSON Schema file"; "the JSON export
/// validate[s] (the JSON against its schema, in a test)".
#[test]
fn the_json_export_of_a_played_game_meets_its_schema() {
    let j = judge();
    let games = a_year_played(&j);
    let g = &games["g"];
    let v = export_json(&j, g);
    assert_eq!(schema_errors(&v), None, "{v:#}");
    assert_eq!(v["schema"], "herald-game/1");
    assert_eq!(v["variant"], "standard");
    let phases = v["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 4);
    assert_eq!(phases[0]["code"], "S1901M");
    assert_eq!(phases[0]["processed_at"], "2026-12-01T11:00:00Z");
    assert_eq!(phases[0]["position"]["units"].as_array().unwrap().len(), 22);
    // The fleet on St Petersburg's south coast keeps its coast.
    let stp = phases[0]["position"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["province"] == "Stp")
        .unwrap();
    assert_eq!(stp["coast"], "sc", "{stp}");
    // Fall 1901: the dislodgement, its attacker, the standoff.
    let fall = &phases[1]["results"]["units"];
    let bur = fall
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["province"] == "Bur")
        .unwrap();
    assert_eq!(bur["power"], "France");
    assert_eq!(bur["order"], "A Bur H");
    assert_eq!(bur["dislodged"], true);
    assert_eq!(bur["success"], false);
    assert_eq!(bur["dislodged_from"], "Ruh");
    let ruh = fall
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["province"] == "Ruh")
        .unwrap();
    assert_eq!(
        (&ruh["outcome"], &ruh["success"]),
        (&"moved".into(), &true.into())
    );
    let retreat = &phases[2]["position"];
    assert_eq!(retreat["dislodged"][0]["attacker_from"], "Ruh");
    assert_eq!(retreat["contested"], serde_json::json!(["Tyr"]));
    assert_eq!(phases[2]["results"]["units"][0]["outcome"], "retreated");
    assert_eq!(phases[2]["results"]["units"][0]["to"], "Par");
    // Winter: the builds.
    let winter = &phases[3]["results"];
    let built: Vec<String> = winter["adjustments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "built")
        .map(|a| format!("{} {}", a["power"], a["unit"]["province"]))
        .collect();
    assert_eq!(
        built,
        [
            "\"England\" \"Lon\"",
            "\"France\" \"Bre\"",
            "\"Germany\" \"Ber\""
        ]
    );
    assert_eq!(winter["void"], serde_json::json!([]), "{winter}");
    let counts = &v["centre_counts"][0];
    assert_eq!(counts["year"], "1901");
    assert_eq!(counts["counts"]["France"], 4);
    let current = &v["current"];
    assert_eq!(current["code"], "S1902M");
    assert!(current["deadline"].is_string(), "{current}");
    // Issue 28, point 5: "no orders before their phase is processed".
    let text = v.to_string();
    assert!(!text.contains("A Par - Pic"), "{text}");
}

/// The schema refuses what it should (so that the test above can fail): an export with an
/// address added, or without its version.
#[test]
fn the_schema_refuses_a_changed_export() {
    let j = judge();
    let games = a_year_played(&j);
    let v = export_json(&j, &games["g"]);
    let mut extra = v.clone();
    extra["powers"][0]["address"] = "ann@example.org".into();
    assert!(schema_errors(&extra).is_some());
    let mut unversioned = v.clone();
    unversioned["schema"] = "herald-game/2".into();
    assert!(schema_errors(&unversioned).is_some());
    let mut bad_outcome = v;
    bad_outcome["phases"][1]["results"]["units"][0]["outcome"] = "vanished".into();
    assert!(schema_errors(&bad_outcome).is_some());
}

/// A game not yet started exports with no phase and no board.
#[test]
fn a_forming_game_exports_without_phases() {
    let j = judge();
    let mut games = Games::new();
    mail(&j, &mut games, GM, "CREATE ?g gmpass", start());
    let v = export_json(&j, &games["g"]);
    assert_eq!(schema_errors(&v), None, "{v:#}");
    assert_eq!(v["status"], "forming");
    assert!(v["current"].is_null() && v["phases"].as_array().unwrap().is_empty());
}

/// Issue 28, point 3: "the orders of a finished game in the DATC case-file form `herald
/// datc` reads (a round-trip test replays an exported game)". Every phase's case is read
/// and run by the code `herald datc` runs, and passes: the engine gives each board the game
/// went on to.
#[test]
fn the_case_file_of_a_game_replays_every_phase() {
    let j = judge();
    let games = a_year_played(&j);
    let g = &games["g"];
    let file = datc_case(&j, g);
    let cases = crate::cases::parse_cases(&file).unwrap();
    assert_eq!(cases.len(), g.history.len(), "{file}");
    for case in &cases {
        assert_eq!(
            crate::cases::run_case(case),
            Ok(()),
            "{}\n{file}",
            case.name
        );
    }
    // The retreat's case says where the attacker came from and where the standoff was.
    assert!(
        file.contains("    SUCCESS: Germany: A Ruh - Bur\n"),
        "{file}"
    );
    assert!(file.contains("    FAILURE: Italy: A Ven - Tyr\n"), "{file}");
    assert!(
        file.contains("POSTSTATE_PHASE Spring 1902, Movement\n"),
        "{file}"
    );
    assert!(!file.contains("A Par - Pic"), "{file}");
}

/// The round trip can fail: a case whose recorded board is not what the orders give fails
/// (here the Fall orders are changed after the phase was played: Germany's attack held).
#[test]
fn a_case_whose_board_was_not_played_so_fails() {
    let j = judge();
    let mut games = a_year_played(&j);
    let g = games.get_mut("g").unwrap();
    let map = j.variant(g).map.clone();
    let germany = map.power_by_word("Germany").unwrap();
    let orders = &mut g.history[1].orders.get_mut(&germany.0).unwrap().orders;
    orders.retain(|o| o.canonical(&map) == "F Den H");
    let file = datc_case(&j, g);
    let cases = crate::cases::parse_cases(&file).unwrap();
    let failed: Vec<&str> = cases
        .iter()
        .filter(|c| crate::cases::run_case(c).is_err())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(failed, ["g F1901M"], "{file}");
    // The JSON gives no orders it could not replay.
    let v = export_json(&j, g);
    assert!(v["phases"][1]["orders"].is_null(), "{}", v["phases"][1]);
    assert_eq!(schema_errors(&v), None);
}

/// Classical counts its years B.C.: the case file and the feed name phases as the game
/// does, and the cases replay.
#[test]
fn a_classical_game_exports_in_its_own_calendar() {
    let j = judge();
    let players: Vec<(String, char)> = j
        .catalog
        .variant("classical")
        .unwrap()
        .map
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("p{i}@example.org"), p.letter))
        .collect();
    let mut games = crate::judge::testkit::started_as(&j, "c gmpass classical", &players);
    for k in 1..=2 {
        let now = start() + Duration::hours(k);
        mail(&j, &mut games, GM, "SIGNON Mc gmpass\nPROCESS!", now);
    }
    let g = &games["c"];
    let file = datc_case(&j, g);
    assert!(
        file.contains("PRESTATE_SETPHASE Spring 273 B.C., Movement\n"),
        "{file}"
    );
    for case in crate::cases::parse_cases(&file).unwrap() {
        assert_eq!(crate::cases::run_case(&case), Ok(()), "{file}");
    }
    let feed = atom(&j, g, "https://herald.example.org");
    assert!(
        feed.contains("<title>Spring 273 B.C. Movement results</title>"),
        "{feed}"
    );
    let v = export_json(&j, g);
    assert_eq!(schema_errors(&v), None, "{v:#}");
    assert_eq!(v["phases"][0]["year"], "273 B.C.");
}

/// A game of `variant` (players `p<i>@example.org`) after `phases` phases processed by its
/// Master, all units holding: every phase's case replays, and the JSON meets the schema.
fn replays(variant: &str, phases: i64) -> String {
    let j = judge();
    let players: Vec<(String, char)> = j
        .catalog
        .variant(variant)
        .unwrap()
        .map
        .powers
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("p{i}@example.org"), p.letter))
        .collect();
    let create = format!("v gmpass {variant}");
    let mut games = crate::judge::testkit::started_as(&j, &create, &players);
    for k in 1..=phases {
        let now = start() + Duration::hours(k);
        mail(&j, &mut games, GM, "SIGNON Mv gmpass\nPROCESS!", now);
    }
    let g = &games["v"];
    assert_eq!(g.history.len() as i64, phases, "{variant}");
    let file = datc_case(&j, g);
    let cases = crate::cases::parse_cases(&file).unwrap();
    assert_eq!(cases.len(), g.history.len(), "{variant}");
    for case in &cases {
        assert_eq!(crate::cases::run_case(case), Ok(()), "{variant}: {file}");
    }
    let v = export_json(&j, g);
    assert_eq!(schema_errors(&v), None, "{variant}: {v:#}");
    file
}

/// Deluge's phases replay from their case file: its Winter 1900 start, and the floods and
/// new centres at the end of 1901 (Winter skipped: nobody adjusts), which go by the last
/// power seen in a province (PRESTATE_LAST_SEEN).
#[test]
fn a_deluge_game_s_case_file_replays() {
    let file = replays("deluge", 4);
    assert!(file.contains("PRESTATE_LAST_SEEN\n"), "{file}");
    let fall = &file[file.find("CASE v F1901M").unwrap()..];
    assert!(
        fall.contains("    Germany: A Ruh\n"),
        "the Ruhr becomes German: {fall}"
    );
}

/// The world's phases replay: the unit choice of Winter 1879, fleets in the free oceans.
#[test]
fn a_world_game_s_case_file_replays() {
    let file = replays("world1880", 3);
    assert!(
        file.contains("PRESTATE_SETPHASE Winter 1879, Adjustment\n"),
        "{file}"
    );
}
