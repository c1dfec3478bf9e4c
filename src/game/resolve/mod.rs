//! Adjudication of the three kinds of phase.

pub mod adjust;
pub mod afloat;
mod csr;
pub mod movement;
pub mod retreat;

pub use adjust::{resolve_adjustments, AdjustError, Adjustment};
pub use movement::{
    resolve_movement, resolve_movement_in, resolve_movement_with_dips, Backup, Clash,
    MovementResult, OrderResult, Outcome,
};
pub use retreat::{
    resolve_retreats, retreat_options, screen_retreats, Blocked, RetreatError, RetreatOutcome,
};
