//! Reading a case file into [`Case`]s. Keywords start a line; the lines below belong to the
//! last keyword; `#` starts a comment.

/// One case as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Case {
    /// The text after `CASE`.
    pub name: String,
    /// The line of the `CASE` keyword.
    pub line: usize,
    /// The variant (`VARIANT` or the file's `VARIANT_ALL`), and any rule switches after its
    /// name as CREATE takes them (`standard rules=1982`).
    pub variant: String,
    /// The text after `PRESTATE_SETPHASE`.
    pub phase: String,
    /// `PRESTATE_SUPPLYCENTER_OWNERS` lines, if the section is present.
    pub owners: Option<Vec<String>>,
    /// `PRESTATE` lines.
    pub units: Vec<String>,
    /// `PRESTATE_DISLODGED` lines.
    pub dislodged: Vec<String>,
    /// `PRESTATE_RESULTS` lines: success and the order.
    pub results: Vec<(bool, String)>,
    /// `ORDERS` lines.
    pub orders: Vec<String>,
    /// `POSTSTATE` lines, or None with `POSTSTATE_SAME`.
    pub post_units: Option<Vec<String>>,
    /// `POSTSTATE_DISLODGED` lines.
    pub post_dislodged: Vec<String>,
    /// `POSTSTATE_SUPPLYCENTER_OWNERS` lines, if present.
    pub post_owners: Option<Vec<String>>,
    /// `POSTSTATE_PHASE`, if present.
    pub post_phase: Option<String>,
    /// `POSTSTATE_WINNERS` (comma-separated powers, or `none`), if present.
    pub post_winners: Option<String>,
    /// `POSTSTATE_SURVIVORS` (comma-separated powers, or `none`): the powers sharing the
    /// game when its last year ends (Deluge), if present.
    pub post_survivors: Option<String>,
    /// `PRESTATE_LAST_SEEN`: "Power: prov" lines, the last power to have had a unit in a
    /// province in a Spring or Fall (Deluge's new centres).
    pub last_seen: Vec<String>,
    /// `PRESTATE_DIPS`: "Power: N" lines, the dips a power has left this turn to pay
    /// standing supports with (D.1, D.2); a power not listed has the variant's allowance.
    pub dips: Vec<String>,
    /// Problems met while reading this case; such a case fails.
    pub problems: Vec<String>,
}

/// A case file that could not be read at all.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct CaseFileError {
    /// Where.
    pub line: usize,
    /// What.
    pub message: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    Owners,
    Units,
    Dislodged,
    LastSeen,
    Dips,
    Results,
    Orders,
    PostUnits,
    PostDislodged,
    PostOwners,
}

/// Splits a case file into cases. Problems inside a case are kept on the case (it will fail
/// and say why); only text outside any case that is not a keyword is an error.
pub fn parse_cases(text: &str) -> Result<Vec<Case>, CaseFileError> {
    let mut cases = Vec::new();
    let mut variant_all = String::from("standard");
    let mut current: Option<Case> = None;
    let mut section = Section::None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let is_keyword =
            !word.contains(':') && word.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        if is_keyword {
            match (word, current.as_mut()) {
                ("VARIANT_ALL", _) => variant_all = rest.to_string(),
                ("CASE", _) => {
                    if let Some(mut c) = current.take() {
                        c.problems.push("the case has no END".into());
                        cases.push(c);
                    }
                    current = Some(Case {
                        name: rest.to_string(),
                        line: n,
                        variant: variant_all.clone(),
                        ..Case::default()
                    });
                    section = Section::None;
                }
                ("END", Some(_)) => {
                    cases.extend(current.take());
                    section = Section::None;
                }
                (_, None) => {
                    return Err(CaseFileError {
                        line: n,
                        message: format!("'{word}' outside a case (a case starts with CASE)"),
                    })
                }
                (_, Some(c)) => {
                    section = Section::None;
                    match word {
                        "VARIANT" => c.variant = rest.to_string(),
                        "PRESTATE_SETPHASE" => c.phase = rest.to_string(),
                        "PRESTATE_SUPPLYCENTER_OWNERS" => {
                            c.owners = Some(Vec::new());
                            section = Section::Owners;
                        }
                        "PRESTATE" => section = Section::Units,
                        "PRESTATE_DISLODGED" => section = Section::Dislodged,
                        "PRESTATE_RESULTS" => section = Section::Results,
                        "ORDERS" => section = Section::Orders,
                        "POSTSTATE" => {
                            c.post_units = Some(Vec::new());
                            section = Section::PostUnits;
                        }
                        "POSTSTATE_SAME" => c.post_units = None,
                        "POSTSTATE_DISLODGED" => section = Section::PostDislodged,
                        "POSTSTATE_SUPPLYCENTER_OWNERS" => {
                            c.post_owners = Some(Vec::new());
                            section = Section::PostOwners;
                        }
                        "POSTSTATE_PHASE" => c.post_phase = Some(rest.to_string()),
                        "POSTSTATE_WINNERS" => c.post_winners = Some(rest.to_string()),
                        "POSTSTATE_SURVIVORS" => c.post_survivors = Some(rest.to_string()),
                        "PRESTATE_LAST_SEEN" => section = Section::LastSeen,
                        "PRESTATE_DIPS" => section = Section::Dips,
                        other => c
                            .problems
                            .push(format!("line {n}: unknown keyword '{other}'")),
                    }
                }
            }
            continue;
        }
        let Some(c) = current.as_mut() else {
            return Err(CaseFileError {
                line: n,
                message: format!("'{line}' outside a case"),
            });
        };
        let entry = line.to_string();
        match section {
            Section::Owners => c.owners.get_or_insert_with(Vec::new).push(entry),
            Section::Units => c.units.push(entry),
            Section::Dislodged => c.dislodged.push(entry),
            Section::LastSeen => c.last_seen.push(entry),
            Section::Dips => c.dips.push(entry),
            Section::Results => {
                let (tag, order) = line.split_once(':').unwrap_or(("", line));
                match tag.trim() {
                    "SUCCESS" => c.results.push((true, order.trim().to_string())),
                    "FAILURE" => c.results.push((false, order.trim().to_string())),
                    _ => c.problems.push(format!(
                        "line {n}: a result must start SUCCESS: or FAILURE:"
                    )),
                }
            }
            Section::Orders => c.orders.push(entry),
            Section::PostUnits => c.post_units.get_or_insert_with(Vec::new).push(entry),
            Section::PostDislodged => c.post_dislodged.push(entry),
            Section::PostOwners => c.post_owners.get_or_insert_with(Vec::new).push(entry),
            Section::None => c
                .problems
                .push(format!("line {n}: '{line}' is not under any keyword")),
        }
    }
    if let Some(mut c) = current {
        c.problems.push("the case has no END".into());
        cases.push(c);
    }
    Ok(cases)
}
