//! The `herald` command: adjudication cases, map checks, and (with later issues) the daemon.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use herald::cases::{parse_cases, run_case_in};
use herald::catalog::Catalog;
use herald::game::map::check::check_map;

#[derive(Parser)]
#[command(name = "herald", version, about = "A play-by-email Diplomacy judge")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs adjudication case files (jDip's DATC format) and ends with 'N passed, N failed'.
    Datc {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print each case's name as it passes too.
        #[arg(long)]
        verbose: bool,
        /// A directory of extra map files (`*.map`): they add variants, or replace the map
        /// of the built-in variant of the same name.
        #[arg(long, value_name = "DIR")]
        maps: Option<PathBuf>,
    },
    /// Map files: check one for mistakes.
    Map {
        #[command(subcommand)]
        command: MapCommand,
    },
}

#[derive(Subcommand)]
enum MapCommand {
    /// Lints a map file: one-way adjacency, unknown or duplicate names, unreachable spaces,
    /// fleet coasts that border nothing. Exits non-zero if anything is wrong.
    Check {
        /// The map files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("herald: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Datc {
            files,
            verbose,
            maps,
        } => {
            let catalog = match maps {
                Some(dir) => Catalog::with_maps_dir(&dir)?,
                None => Catalog::builtin(),
            };
            datc(&catalog, &files, verbose)
        }
        Command::Map {
            command: MapCommand::Check { files },
        } => map_check(&files),
    }
}

fn map_check(files: &[PathBuf]) -> Result<ExitCode> {
    let mut bad = false;
    for file in files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let problems = check_map(&text);
        for p in &problems {
            println!("{}: {p}", file.display());
        }
        if problems.is_empty() {
            println!("{}: ok", file.display());
        } else {
            println!("{}: {} problem(s)", file.display(), problems.len());
            bad = true;
        }
    }
    Ok(if bad {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn datc(catalog: &Catalog, files: &[PathBuf], verbose: bool) -> Result<ExitCode> {
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let cases = match parse_cases(&text) {
            Ok(c) => c,
            Err(e) => {
                println!("FAIL {}: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        for case in &cases {
            match run_case_in(catalog, case) {
                Ok(()) => {
                    passed += 1;
                    if verbose {
                        println!("ok   {} ({}:{})", case.name, file.display(), case.line);
                    }
                }
                Err(f) => {
                    failed += 1;
                    println!("FAIL {} ({}:{})", case.name, file.display(), case.line);
                    for line in f.lines {
                        println!("     {line}");
                    }
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
