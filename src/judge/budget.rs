//! The bounds on the reply to one mail (issue 24, point 1: "Every mail costs bounded CPU,
//! memory and output: a limit on the reply (bytes, lines, attachments, with a notice saying
//! what was cut), repeated info commands answered once, one picture per distinct map").
//!
//! The work is bounded before the output is made, not cut afterwards: an information
//! command (HELP, GET, GET MAP, VERSION, LIST, HISTORY, SUMMARY) asked again in the same
//! mail is not run again, and once the reply is full no information command runs at all.
//! Other commands (orders, the Master's settings) are still applied; only their lines are
//! left out of a full reply. A picture is drawn once per map and format, and only while the
//! reply has room for another file. The reply says what was left out.

use std::collections::HashSet;

/// The bounds on the reply to one mail (`[limits] reply_bytes`, `reply_lines`,
/// `reply_attachments`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplyLimits {
    /// The text of a reply, in bytes, at most.
    pub bytes: usize,
    /// The text of a reply, in lines, at most.
    pub lines: usize,
    /// Files (pictures of the board) attached to a reply, at most.
    pub attachments: usize,
    /// The reply goes to an address that has not confirmed (issue 36: "An address that has
    /// not confirmed gets text only, at most 16 KB, no attachments"): its notices say why.
    pub unconfirmed: bool,
    /// The mail confirms the address its answer goes to, and the service's gate adds to the
    /// answer that it is now confirmed: a mail of no command is then answered without "held
    /// no command it knows" (issue 37: a confirming reply is a mail with a purpose).
    pub confirms: bool,
}

/// The most text an answer to an address that has not confirmed holds, in bytes, the
/// service's request to confirm included (issue 36, point 1).
pub const STRANGER_BYTES: usize = 16 * 1024;
/// The most lines such an answer holds, the request included.
pub const STRANGER_LINES: usize = 400;

impl Default for ReplyLimits {
    fn default() -> Self {
        ReplyLimits {
            bytes: 256 * 1024,
            lines: 5_000,
            attachments: 4,
            unconfirmed: false,
            confirms: false,
        }
    }
}

impl ReplyLimits {
    /// The limits of an answer to an address that has not confirmed: text only, within
    /// [`STRANGER_BYTES`] and [`STRANGER_LINES`] (or these limits, when smaller). Nothing
    /// is drawn for it, so such answers cost little to make.
    pub fn unconfirmed(self) -> ReplyLimits {
        ReplyLimits {
            bytes: self.bytes.min(STRANGER_BYTES),
            lines: self.lines.min(STRANGER_LINES),
            attachments: 0,
            unconfirmed: true,
            confirms: self.confirms,
        }
    }
}

/// Room kept in a reply for the notice of what was cut (at most four lines) and for what the
/// service's gate adds to an answer after the judge (`templates/confirm.txt`: the request to
/// an address that has not confirmed, 12 lines and about 600 bytes with the address and code).
const NOTICE_BYTES: usize = 2048;
const NOTICE_LINES: usize = 20;

/// What the reply to one mail has used of its limits, and what was left out.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    /// The reply's lines counted so far (the first `counted` of them).
    counted: usize,
    /// Their bytes, each with its line end.
    bytes: usize,
    /// The reply reached a limit: no more information commands run, no more lines are kept.
    full: bool,
    /// Lines left out.
    cut_lines: usize,
    /// Information commands not run because the reply was full.
    skipped: usize,
    /// Pictures not drawn because the reply carried as many files as it may.
    pub(crate) no_room_for_files: usize,
    /// The information commands answered, as written (upper case, single spaces) with who
    /// asked (the role and game signed on to, which change what some of them show).
    answered: HashSet<String>,
    /// The pictures drawn: (game or variant, with the SVG).
    pictured: HashSet<(String, bool)>,
}

/// A command line as compared with the earlier ones: upper case, one space between words.
fn normal(line: &str) -> String {
    line.split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a picture may be drawn.
pub(crate) enum Picture {
    /// Draw it.
    Draw,
    /// This mail's reply has it already.
    Attached,
    /// The reply carries as many files as it may.
    NoRoom,
}

impl Budget {
    /// Whether an information command is to run: not once the reply is full (counted for
    /// the notice, `None`), nor when the same command (`line`, asked by `who`) was answered
    /// earlier in this mail (`Some(false)`: the reply says so in a short line).
    pub(crate) fn info_may_run(&mut self, who: &str, line: &str) -> Option<bool> {
        if self.full {
            self.skipped += 1;
            return None;
        }
        Some(self.answered.insert(format!("{who} {}", normal(line))))
    }

    /// Whether a picture of `name` (a game or variant, resolved) may be drawn and attached
    /// as `files` more files to a reply that has `attached` already; `Draw` records it.
    pub(crate) fn picture(
        &mut self,
        name: &str,
        svg: bool,
        files: usize,
        attached: usize,
        limits: ReplyLimits,
    ) -> Picture {
        let key = (name.to_ascii_lowercase(), svg);
        if self.pictured.contains(&key) {
            return Picture::Attached;
        }
        if attached + files > limits.attachments {
            self.no_room_for_files += 1;
            return Picture::NoRoom;
        }
        self.pictured.insert(key);
        Picture::Draw
    }

    /// Counts the lines the last command added to the reply's `lines`; past a limit, the
    /// lines over it are left out and the reply is full. Linear in the lines added.
    pub(crate) fn tally(&mut self, lines: &mut Vec<String>, limits: ReplyLimits) {
        if self.full {
            self.cut_lines += lines.len().saturating_sub(self.counted);
            lines.truncate(self.counted);
            return;
        }
        let keep = keep_within(
            lines,
            self.counted,
            &mut self.bytes,
            limits.bytes,
            limits.lines,
        );
        if keep < lines.len() {
            self.full = true;
            self.cut_lines += lines.len() - keep;
            lines.truncate(keep);
        }
        self.counted = lines.len();
    }
    /// Fits a reply's `lines` into `limits` with the rest of the reply around them
    /// (`frame_bytes` and `frame_lines`: the header, the orders on file, the deadline) and
    /// adds the notice of what was cut, if anything was.
    pub(crate) fn fit(
        &mut self,
        lines: &mut Vec<String>,
        limits: ReplyLimits,
        frame_bytes: usize,
        frame_lines: usize,
    ) {
        let mut bytes = 0;
        let keep = keep_within(
            lines,
            0,
            &mut bytes,
            limits.bytes.saturating_sub(frame_bytes + NOTICE_BYTES),
            limits.lines.saturating_sub(frame_lines + NOTICE_LINES),
        );
        self.cut_lines += lines.len() - keep;
        lines.truncate(keep);
        if self.cut_lines == 0 && self.skipped == 0 && self.no_room_for_files == 0 {
            return;
        }
        lines.push(String::new());
        if limits.unconfirmed {
            lines.push(format!(
                "*** This reply was cut: until this address confirms (see below), herald's answers to it are text only, at most {} bytes and {} lines. Once it has confirmed, ask again for the whole answer and the pictures.",
                limits.bytes, limits.lines
            ));
        } else {
            lines.push(format!(
                "*** This reply was cut: herald's replies hold at most {} bytes, {} lines and {} attached files.",
                limits.bytes, limits.lines, limits.attachments
            ));
        }
        let mut cut = Vec::new();
        if self.cut_lines > 0 {
            cut.push(format!("{} lines of it were left out", self.cut_lines));
        }
        if self.skipped > 0 {
            cut.push(format!(
                "{} information commands (HELP, GET, LIST, HISTORY, SUMMARY, ...) were not answered",
                self.skipped
            ));
        }
        if self.no_room_for_files > 0 {
            cut.push(format!(
                "{} pictures were not attached",
                self.no_room_for_files
            ));
        }
        lines.push(format!("*** {}.", cut.join("; ")));
        lines.push(
            "*** Everything else in your mail was read and done; ask for what is missing in a mail of its own."
                .into(),
        );
    }
}

/// How many of `lines` fit in `max_bytes` and `max_lines`, counting on from `from` (whose
/// bytes `bytes` holds, and is updated).
fn keep_within(
    lines: &[String],
    from: usize,
    bytes: &mut usize,
    max_bytes: usize,
    max_lines: usize,
) -> usize {
    let mut keep = from;
    for line in lines.iter().skip(from) {
        let cost = line.len() + 1;
        if keep + 1 > max_lines || *bytes + cost > max_bytes {
            break;
        }
        *bytes += cost;
        keep += 1;
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_kept_while_they_fit() {
        let lines: Vec<String> = ["ab", "cd", "ef"].map(String::from).to_vec();
        let mut bytes = 0;
        assert_eq!(keep_within(&lines, 0, &mut bytes, 100, 100), 3);
        assert_eq!(bytes, 9);
        let mut bytes = 0;
        assert_eq!(keep_within(&lines, 0, &mut bytes, 6, 100), 2);
        let mut bytes = 0;
        assert_eq!(keep_within(&lines, 0, &mut bytes, 100, 1), 1);
        // Counting on from a line already counted.
        let mut bytes = 3;
        assert_eq!(keep_within(&lines, 1, &mut bytes, 7, 100), 2);
        assert_eq!(
            normal(" get   map\tworld1880 svg "),
            "GET MAP WORLD1880 SVG"
        );
    }
}
