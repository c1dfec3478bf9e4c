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
    let mut backoff = poll;
    info!(inbox = %service.inbox.root().display(), outbox = %service.outbox.root().display(), "herald is running");
    loop {
        let now = Utc::now();
        let round = async {
            let read = service.poll_inbox(now).await?;
            let ticked = service.tick(now).await?;
            let sent = service.deliver(now).await?;
            Ok::<_, crate::service::ServiceError>((read, ticked, sent))
        };
        let pause = match round.await {
            Ok((read, ticked, sent)) => {
                if read + ticked + sent > 0 {
                    info!(read, ticked, sent, "round done");
                }
                backoff = poll;
                poll
            }
            Err(e) => {
                error!(error = %e, "round failed; retrying");
                backoff = (backoff * 2).min(Duration::from_secs(60));
                backoff
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = &mut shutdown => {
                info!("herald stops");
                return;
            }
        }
    }
}
