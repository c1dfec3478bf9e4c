//! The daemon: read the inbox, sweep deadlines, drain the outbox, sleep; stop cleanly when
//! `shutdown` resolves (SIGTERM or Ctrl-C in `main`).

use std::future::Future;
use std::time::Duration;

use chrono::Utc;
use tracing::{error, info};

use crate::service::Service;

/// Runs until `shutdown` completes. A failure in one round is logged and the next round
/// tries again after a pause that doubles up to a minute; the daemon never spins.
pub async fn run(service: &Service, shutdown: impl Future<Output = ()>) {
    tokio::pin!(shutdown);
    let poll = Duration::from_secs(service.config.inbox.poll_seconds.max(1));
    let mut inbox_backoff: Option<Duration> = None;
    info!(inbox = %service.config.inbox.kind, outbox = %service.config.outbox.kind, "herald is running");
    loop {
        let now = Utc::now();
        // Each part goes on when another fails: an IMAP outage does not stop deadlines or
        // sending, and an SMTP outage does not stop reading.
        match service.poll_inbox(now).await {
            Ok(read) => {
                if inbox_backoff.take().is_some() {
                    info!("the inbox is back");
                }
                if read > 0 {
                    info!(read, "mail read");
                }
            }
            Err(e) => {
                let next = inbox_backoff.map_or(poll, |b| (b * 2).min(Duration::from_secs(60)));
                error!(error = %e, retry_in = ?next, "reading the inbox failed");
                inbox_backoff = Some(next);
            }
        }
        match service.tick(now).await {
            Ok(0) => {}
            Ok(ticked) => info!(ticked, "deadlines processed"),
            Err(e) => error!(error = %e, "processing deadlines failed"),
        }
        match service.deliver(now).await {
            Ok(0) => {}
            Ok(sent) => info!(sent, "mail sent"),
            Err(e) => error!(error = %e, "sending failed"),
        }
        let wait = async {
            match inbox_backoff {
                Some(b) => tokio::time::sleep(b).await,
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
            _ = &mut shutdown => {
                info!("herald stops");
                return;
            }
        }
    }
}
