//! Adjudication test cases in jDip's DATC format (see `../shared/CASES.md` in the design
//! notes): read a case file, play each case's phase, compare the board with the expected one.

mod file;
mod run;

pub use file::{parse_cases, Case, CaseFileError};
pub use run::{prepare, run_case, run_case_in, CaseFailure, LineError, Prepared};
