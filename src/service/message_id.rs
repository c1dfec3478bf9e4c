//! The Message-ID herald gives each mail it sends, made and read in one place: a bounce
//! counts only when it names an ID that [`OutboxIds::make`] wrote (see `store::bounces`).

/// Makes and reads `outbox-<row>.<instance>@<domain>`: the outbox row a mail was sent
/// from, this database's instance mark, and the domain of the judge's address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OutboxIds {
    instance: String,
    domain: String,
}

impl OutboxIds {
    /// The IDs of one database's mails, sent from `judge_address` (its domain is used;
    /// `localhost` for an address without one).
    pub(crate) fn new(instance: &str, judge_address: &str) -> Self {
        OutboxIds {
            instance: instance.to_string(),
            domain: judge_address
                .split_once('@')
                .map_or("localhost", |(_, domain)| domain)
                .to_string(),
        }
    }

    /// The Message-ID (without angle brackets) of the mail in outbox row `row`.
    pub(crate) fn make(&self, row: i64) -> String {
        format!("outbox-{row}.{}@{}", self.instance, self.domain)
    }

    /// The outbox row `message_id` names, if this database wrote it: another instance's
    /// IDs, another domain's and anything malformed name no row.
    pub(crate) fn row(&self, message_id: &str) -> Option<i64> {
        let (row, rest) = message_id.trim().strip_prefix("outbox-")?.split_once('.')?;
        let (instance, domain) = rest.split_once('@')?;
        if instance != self.instance || !domain.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        row.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::OutboxIds;

    #[test]
    fn an_id_made_reads_back_as_its_row() {
        let ids = OutboxIds::new("a1b2", "judge@herald.test");
        assert_eq!(ids.make(7), "outbox-7.a1b2@herald.test");
        assert_eq!(ids.row(&ids.make(7)), Some(7));
        assert_eq!(ids.row(" outbox-7.a1b2@HERALD.test "), Some(7));
    }

    #[test]
    fn ids_of_another_instance_or_domain_or_shape_name_no_row() {
        let ids = OutboxIds::new("a1b2", "judge@herald.test");
        assert_eq!(ids.row("outbox-7.ffff@herald.test"), None);
        assert_eq!(ids.row("outbox-7.a1b2@example.org"), None);
        assert_eq!(ids.row("outbox-x.a1b2@herald.test"), None);
        assert_eq!(ids.row("outbox-7@herald.test"), None);
        assert_eq!(ids.row("other-7.a1b2@herald.test"), None);
        let bare = OutboxIds::new("a1b2", "judge");
        assert_eq!(bare.make(3), "outbox-3.a1b2@localhost");
    }
}
