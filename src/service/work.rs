//! What handling one mail cost, counted rather than timed (issue 24: "the time per mail
//! within a constant factor of the median (counted in operations, not seconds)"), so that
//! `tests/mail_fuzz.rs` can hold every mail to a bound whatever the machine's speed: the
//! bytes it made herald read and write, and the argon2 runs (each a few milliseconds, and
//! megabytes of memory gone through) apart.

/// The work one incoming mail caused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Bytes of the mail read.
    pub read: u64,
    /// Bytes queued because of it: the text and files of every mail it made herald send.
    pub wrote: u64,
    /// argon2 runs it caused (password checks and new hashes).
    pub argon2: u64,
}

impl Work {
    /// The bytes of mails queued: the text of each, and each file once however many copies
    /// share it (a picture is drawn once, stored once, and goes in every player's results).
    pub fn bytes_of(mails: &[crate::envelope::Outgoing]) -> u64 {
        let mut files: Vec<*const u8> = Vec::new();
        let mut bytes = 0;
        for m in mails {
            bytes += m.body.len();
            for a in &m.attachments {
                let at = a.bytes.as_ptr();
                if !files.contains(&at) {
                    files.push(at);
                    bytes += a.bytes.len();
                }
            }
        }
        bytes as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bytes_of_mails_are_their_text_and_files() {
        let mails = [crate::envelope::Outgoing {
            body: "four".into(),
            attachments: vec![crate::envelope::Attachment::new(
                "a.png",
                "image/png",
                vec![0; 6],
            )],
            ..Default::default()
        }];
        assert_eq!(Work::bytes_of(&mails), 10);
    }
}
