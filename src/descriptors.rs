//! The process's limit on open files (issue 36): under systemd's default soft limit of
//! 1,024, idle web connections once took every descriptor and the mail workers could not
//! open the inbox or the outbox. The daemon raises its soft limit to the hard one at start
//! where the system allows it; the web caps its connections at a quarter of what it got
//! (`web::serve`).

use tracing::{info, warn};

/// The most the soft limit is raised to: Linux refuses more than `fs.nr_open` (1,048,576 by
/// default), and an unlimited hard limit is not a number to ask for.
const HIGHEST: u64 = 1 << 20;

/// The soft limit on open files, when the system tells it.
pub fn soft_limit() -> Option<u64> {
    limits().map(|(soft, _)| soft)
}

/// Raises the soft limit on open files to the hard one (at most [`HIGHEST`]) and logs what
/// it is; returns the soft limit in force afterwards.
pub fn raise() -> Option<u64> {
    let (soft, hard) = limits()?;
    let wanted = hard.min(HIGHEST);
    if wanted > soft {
        if let Err(e) = set_soft(wanted, hard) {
            warn!(soft, hard, error = %e, "the limit on open files could not be raised");
        }
    }
    let now = soft_limit();
    info!(
        soft = ?now,
        hard,
        "open files: the soft limit the mail and the web share"
    );
    now
}

#[cfg(unix)]
fn limits() -> Option<(u64, u64)> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` through a pointer to a live local.
    let rc = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) };
    if rc != 0 {
        return None;
    }
    // `rlim_t` is not `u64` on every target.
    #[allow(clippy::useless_conversion)]
    let number = |v: libc::rlim_t| {
        if v == libc::RLIM_INFINITY {
            u64::MAX
        } else {
            u64::try_from(v).unwrap_or(u64::MAX)
        }
    };
    Some((number(rl.rlim_cur), number(rl.rlim_max)))
}

#[cfg(unix)]
fn set_soft(soft: u64, hard: u64) -> std::io::Result<()> {
    // `rlim_t` is not `u64` on every target.
    #[allow(clippy::useless_conversion)]
    let value = |v: u64| {
        if v == u64::MAX {
            libc::RLIM_INFINITY
        } else {
            libc::rlim_t::try_from(v).unwrap_or(libc::RLIM_INFINITY)
        }
    };
    let rl = libc::rlimit {
        rlim_cur: value(soft),
        rlim_max: value(hard),
    };
    // SAFETY: setrlimit reads one `rlimit` through a pointer to a live local.
    let rc = unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &rl) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(unix))]
fn limits() -> Option<(u64, u64)> {
    None
}

#[cfg(not(unix))]
fn set_soft(_soft: u64, _hard: u64) -> std::io::Result<()> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let (soft, hard) = super::limits().unwrap();
        let raised = super::raise().unwrap();
        assert_eq!(raised, soft.max(hard.min(super::HIGHEST)));
        assert_eq!(super::soft_limit(), Some(raised));
    }
}
