//! The daemon: read the inbox, sweep deadlines, drain the outbox, sleep; stop cleanly when
//! `shutdown` resolves (SIGTERM or Ctrl-C in `main`).

use std::future::Future;
use std::time::Duration;

use chrono::Utc;
use tracing::{error, info};

use crate::service::Service;

/// The longest pause after failed rounds.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// Runs until `shutdown` completes. A failure in one round (the inbox unreachable, the
/// database refusing to write) is logged and the next round tries again after a pause that
/// doubles up to a minute; the daemon never spins, and it comes back by itself once the
/// fault is gone.
///
/// `shutdown` is heard at once, in the middle of a round too: everything a round does is
/// safe to cut short (an uncommitted transaction is rolled back, a mail is marked handled
/// only after its commit and read again if it was not). The one thing still done on the way
/// out is recording as sent the mails that went out and whose record failed, so that they
/// are not sent again at the next start.
pub async fn run(service: &Service, shutdown: impl Future<Output = ()>) {
    tokio::pin!(shutdown);
    let poll = Duration::from_secs(service.config.inbox.poll_seconds.max(1));
    let mut backoff: Option<Duration> = None;
    info!(inbox = %service.config.inbox.kind, outbox = %service.config.outbox.kind, "herald is running");
    loop {
        let (failed, read) = tokio::select! {
            biased;
            _ = &mut shutdown => break,
            done = round(service) => done,
        };
        if failed {
            let next = backoff.map_or(poll, |b| (b * 2).min(MAX_BACKOFF));
            error!(retry_in = ?next, "this round failed; trying again after a pause");
            backoff = Some(next);
        } else if backoff.take().is_some() {
            info!("herald is back at work");
        }
        let wait = async {
            match backoff {
                Some(b) => tokio::time::sleep(b).await,
                // More may have come while this round read: look again at once rather than
                // wait to be told (Dovecot tells an IDLE client 500 ms late).
                None if read > 0 => {}
                None => {
                    if let Err(e) = service.wait_for_mail(poll).await {
                        error!(error = %e, "waiting for mail failed");
                        tokio::time::sleep(poll).await;
                    }
                }
            }
        };
        tokio::select! {
            _ = wait => {}
            _ = &mut shutdown => break,
        }
    }
    if let Err(e) = service.record_sent().await {
        error!(error = %e, "mails that went out could not be recorded as sent; they will be sent again at the next start");
    }
    info!("herald stops");
}

/// One round: read the inbox, do what is due, send what is queued. Each part goes on when
/// another fails: an IMAP outage does not stop deadlines or sending, and an SMTP outage does
/// not stop reading. Returns whether a part failed, and how many mails were read.
async fn round(service: &Service) -> (bool, usize) {
    let now = Utc::now();
    let mut failed = false;
    let mut read = 0;
    match service.poll_inbox(now).await {
        Ok(0) => {}
        Ok(n) => {
            read = n;
            info!(read, "mail read");
        }
        Err(e) => {
            error!(error = %e, "reading the inbox failed");
            failed = true;
        }
    }
    match service.tick(now).await {
        Ok(0) => {}
        Ok(ticked) => info!(ticked, "deadlines processed"),
        Err(e) => {
            error!(error = %e, "processing deadlines failed");
            failed = true;
        }
    }
    match service.deliver(now).await {
        Ok(0) => {}
        Ok(sent) => info!(sent, "mail sent"),
        Err(e) => {
            error!(error = %e, "sending failed");
            failed = true;
        }
    }
    (failed, read)
}
