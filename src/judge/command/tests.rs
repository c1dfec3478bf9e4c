//! The command parser's tests: each command's spellings.

use super::*;

#[test]
fn keywords_any_case_and_spacing() {
    assert_eq!(parse_command("set nowait"), Command::Wait(false));
    assert_eq!(parse_command("SET NO WAIT"), Command::Wait(false));
    assert_eq!(parse_command("setnowait"), Command::Wait(false));
    assert_eq!(parse_command("Sign Off"), Command::Signoff);
    assert_eq!(
        parse_command("process!"),
        Command::Process {
            phase: None,
            force: true
        }
    );
    assert_eq!(
        parse_command("PROCESS S1901M"),
        Command::Process {
            phase: Some("S1901M".into()),
            force: false
        }
    );
}

#[test]
fn signon_forms() {
    assert_eq!(
        parse_command("signon Fwar1901 secret"),
        Command::Signon {
            who: SignonAs::Power('F'),
            game: "war1901".into(),
            password: "secret".into()
        }
    );
    assert_eq!(
        parse_command("SIGNON ?war1901 pw"),
        Command::Signon {
            who: SignonAs::Join,
            game: "war1901".into(),
            password: "pw".into()
        }
    );
    assert_eq!(
        parse_command("signon mwar1901 pw"),
        Command::Signon {
            who: SignonAs::Master,
            game: "war1901".into(),
            password: "pw".into()
        }
    );
    assert_eq!(
        parse_command("CREATE ?war1901 pw classical"),
        Command::Create {
            game: "war1901".into(),
            password: "pw".into(),
            variant: Some("classical".into()),
            options: vec![]
        }
    );
    assert_eq!(
        parse_command("create ?g pw standard remote_builds victory=20"),
        Command::Create {
            game: "g".into(),
            password: "pw".into(),
            variant: Some("standard".into()),
            options: vec!["remote_builds".into(), "victory=20".into()]
        }
    );
    assert_eq!(
        parse_command("SET RULE remote_builds"),
        Command::Rule("remote_builds".into())
    );
}

#[test]
fn press_headers() {
    assert_eq!(
        parse_command("PRESS"),
        Command::Press {
            to: Recipients::Nobody,
            grey: None
        }
    );
    assert_eq!(
        parse_command("press to fg grey"),
        Command::Press {
            to: Recipients::To("FG".into()),
            grey: Some(true)
        }
    );
    assert_eq!(
        parse_command("PRESS TO ALL BUT GO"),
        Command::Press {
            to: Recipients::AllBut("GO".into()),
            grey: None
        }
    );
    assert_eq!(
        parse_command("broadcast"),
        Command::Press {
            to: Recipients::All,
            grey: None
        }
    );
}

#[test]
fn master_settings_and_orders() {
    assert_eq!(
        parse_command("SET MOVE NEXT 3d AT 18:00"),
        Command::Timing(
            PhaseKind::Movement,
            vec!["NEXT".into(), "3d".into(), "AT".into(), "18:00".into()]
        )
    );
    assert_eq!(
        parse_command("set press grey"),
        Command::PressPolicy(PressPolicy::Grey)
    );
    assert_eq!(parse_command("BECOME f"), Command::Become('F'));
    assert_eq!(
        parse_command("A Par-Bur"),
        Command::Other("A Par-Bur".into())
    );
    assert_eq!(
        parse_command("SET COLOUR red"),
        Command::UnknownSet("SET COLOUR red".into())
    );
}

/// Every spelling in the table is read as its command: a whole-line one as itself, one with
/// arguments with none, one or two of them.
#[test]
fn every_spelling_in_the_table_is_read() {
    for k in KEYWORDS {
        for spelling in std::iter::once(k.name).chain(k.aliases.iter().copied()) {
            match k.read {
                Read::Line(command) => {
                    assert_eq!(parse_command(spelling), command(), "{spelling}");
                    assert_eq!(
                        parse_command(&spelling.to_ascii_lowercase().replace(' ', "")),
                        command(),
                        "{spelling}"
                    );
                }
                Read::Args(_) if spelling == "SET" => {}
                Read::Args(_) => {
                    let read = ["", " x", " x y"].map(|a| parse_command(&format!("{spelling}{a}")));
                    assert!(
                        read.iter()
                            .any(|c| !matches!(c, Command::Other(_) | Command::UnknownSet(_))),
                        "{spelling}: {read:?}"
                    );
                }
            }
        }
    }
    assert_eq!(
        parse_command("SET FLY"),
        Command::UnknownSet("SET FLY".into())
    );
    assert_eq!(parse_command("HISTORY"), Command::Other("HISTORY".into()));
    assert_eq!(
        parse_command("SET PASSWORD a b"),
        Command::UnknownSet("SET PASSWORD a b".into())
    );
}
