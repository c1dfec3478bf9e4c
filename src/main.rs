//! The `herald` command: adjudication cases, map checks, and (with later issues) the daemon.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use std::io::Read;

use chrono::{DateTime, Utc};
use herald::cases::{parse_cases, run_case_in};
use herald::catalog::Catalog;
use herald::config::{Config, InboxKind, OutboxKind};
use herald::game::map::check::check_map;
use herald::mail::maildir::Maildir;
use herald::service::{LockError, RunLock, Service};

#[derive(Parser)]
#[command(name = "herald", version, about = "A play-by-email Diplomacy judge")]
struct Cli {
    /// The configuration file (every key optional; see config/herald.toml).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs the daemon: reads the inbox, processes deadlines, writes outgoing mail; stops
    /// on Ctrl-C or SIGTERM.
    Run,
    /// Handles one mail read from standard input (for .forward or procmail), then delivers.
    Ingest {
        /// The time to act at (RFC 3339), instead of the clock.
        #[arg(long)]
        now: Option<String>,
    },
    /// Reads the inbox, processes what is due (reminders, deadlines, early processing),
    /// delivers, and exits: one round of what the daemon does continuously.
    Tick {
        /// The time to act at (RFC 3339), instead of the clock.
        #[arg(long)]
        now: Option<String>,
    },
    /// Applies the database migrations, makes the Maildirs (inbox and outbox, when they are
    /// Maildirs) and exits.
    Migrate {
        /// An SQLite database (sqlite:PATH) to copy into the configured one, which must be
        /// empty (moving a judge to PostgreSQL); the copy is checked: every table's rows
        /// counted in both, every game loaded.
        #[arg(long, value_name = "sqlite:PATH")]
        from: Option<PathBuf>,
    },
    /// The configuration file.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// The keeper's view of games.
    Game {
        #[command(subcommand)]
        command: GameCommand,
    },
    /// Writes a game to standard output for readers outside mail (docs/export.md): the
    /// JSON export, its orders as adjudication cases, its Atom feed or its calendar. None
    /// holds an address, a password, press, or the orders of the phase not yet processed.
    Export {
        /// The game's name.
        game: String,
        /// What to write.
        #[arg(long, value_enum, default_value = "json")]
        format: ExportFormat,
        /// Where the judge's web pages are, for the Atom feed's links and ids
        /// (`https://herald.example.org`).
        #[arg(long, value_name = "URL", default_value = "http://localhost")]
        base_url: String,
    },
    /// Runs adjudication case files (jDip's DATC format) and ends with 'N passed, N failed'.
    Datc {
        /// Case files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print each case's name as it passes too.
        #[arg(long)]
        verbose: bool,
        /// A directory of extra map files (`*.map`) and variant files (`*.variant.toml`):
        /// they add variants, or replace the built-in ones of the same name.
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
enum ConfigCommand {
    /// Checks the configuration without connecting anywhere: the file reads, every value is
    /// in range, no password would go in clear text to another machine, the maps and
    /// templates directories load. Exits non-zero with the reason otherwise.
    Check,
}

#[derive(Subcommand)]
enum GameCommand {
    /// One line per game: name, variant, status, phase, deadline.
    List,
    /// One game in full: players, settings, orders on file, history.
    Show {
        /// The game's name.
        game: String,
    },
}

/// The forms of `herald export`.
#[derive(Clone, Copy, clap::ValueEnum)]
enum ExportFormat {
    /// The game as JSON (schema herald-game/1, docs/export.schema.json).
    Json,
    /// Its phases as cases for `herald datc`.
    Datc,
    /// Its results as an Atom feed.
    Atom,
    /// Its deadlines as an iCalendar file.
    Ics,
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
    /// Draws a map file's opening board, or with --phase the board after each case of a
    /// case file played on it (orders drawn): writes OUT.svg and OUT.png (OUT defaults to
    /// the map file's name without `.map`; OUT-2, OUT-3… for a file's later cases), so a
    /// keeper can see a new map's `draw` lines. On a map that frames regions (`draw region`)
    /// OUT is the overview and OUT-<region> each region's picture, as mails show them.
    Draw {
        /// The map file.
        file: PathBuf,
        /// Where to write, without extension.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// A case file (the format of `herald datc`) whose cases to draw.
        #[arg(long, value_name = "CASES")]
        phase: Option<PathBuf>,
        /// Draw this built-in variant's opening on the map (Portage on the standard map).
        #[arg(long, conflicts_with = "phase")]
        variant: Option<String>,
        /// On a map with regions, write only this region's picture (its name, as the
        /// `draw region` line gives it), or with `overview` the overview, as OUT.
        #[arg(long, value_name = "NAME", conflicts_with = "variant")]
        region: Option<String>,
    },
    /// Carves a map's territories from real geography (a keeper's tool, run once): the
    /// land of a TopoJSON file (Natural Earth's `land-50m.json` from the npm package
    /// world-atlas) divided among the spaces by the seeds file; writes the shapes file.
    Shapes {
        /// The map file.
        file: PathBuf,
        /// The seeds file (maps/FORMAT.md, "Shapes").
        #[arg(long)]
        seeds: PathBuf,
        /// The TopoJSON land file.
        #[arg(long)]
        land: PathBuf,
        /// Where to write the shapes.
        #[arg(short, long)]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    use std::io::IsTerminal;
    // Colour codes only for a person at a terminal: a log written to a file, a pipe or the
    // journal stays plain text.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .init();
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("herald: {}", chain(&e));
            ExitCode::FAILURE
        }
    }
}

/// The whole error chain on one line, each cause once: herald's errors already show
/// their source in their own text ("reading the outbox: <the database's error>"), so a
/// cause that the text before it contains is not repeated.
fn chain(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config_path = cli.config.clone();
    let config = || -> Result<Config> {
        let default = PathBuf::from("config/herald.toml");
        let (path, must) = match &config_path {
            Some(p) => (p.clone(), true),
            None => (default, false),
        };
        Ok(Config::load(&path, must)?)
    };
    match cli.command {
        Command::Run => {
            let config = config()?;
            let rt = runtime()?;
            let done = rt.block_on(async {
                // Heard from now on, while the database opens too.
                let shutdown = shutdown_signal();
                tokio::pin!(shutdown);
                // One herald reads and sends for a database; a second would send twice.
                let _lock = lock(&config.storage.database, "run").await?;
                let service = tokio::select! {
                    service = Service::open(config) => std::sync::Arc::new(service?),
                    _ = &mut shutdown => return Ok(ExitCode::SUCCESS),
                };
                herald::daemon::run(&service, shutdown).await;
                Ok(ExitCode::SUCCESS)
            });
            // Work still running on a thread (a DNS lookup, a long render) does not hold
            // the exit up: SIGTERM is obeyed within a second.
            rt.shutdown_timeout(std::time::Duration::from_millis(300));
            done
        }
        Command::Ingest { now } => {
            let now = parse_now(now.as_deref())?;
            let mut raw = Vec::new();
            std::io::stdin()
                .read_to_end(&mut raw)
                .context("reading the mail from standard input")?;
            let config = config()?;
            // While a daemon runs, it sends what this mail queued: two senders would send
            // some replies twice.
            runtime()?.block_on(async {
                let lock = match RunLock::take_any(&config.storage.database, "ingest").await {
                    Ok(lock) => Some(lock),
                    Err(LockError::Held { holder, .. }) => {
                        println!("herald ({holder}) is running and sends the replies");
                        None
                    }
                    Err(e) => return Err(e.into()),
                };
                let service = Service::open(config).await?;
                let outcome = match service.ingest(&raw, now).await? {
                    // The keeper reads how many mails were queued; the work is the fuzz's.
                    herald::service::Ingested::Handled(queued, _) => format!("Handled({queued})"),
                    other => format!("{other:?}"),
                };
                if lock.is_none() {
                    println!("{outcome}; the replies are queued");
                    return Ok(ExitCode::SUCCESS);
                }
                let sent = service.deliver(now).await?;
                println!(
                    "{outcome}; {sent} mail(s) written to {}",
                    service.outbox.root().display()
                );
                Ok(ExitCode::SUCCESS)
            })
        }
        Command::Tick { now } => {
            // A time given with --now is the keeper's on purpose: not an outage of herald.
            let clock = if now.is_some() {
                herald::service::Clock::Set
            } else {
                herald::service::Clock::Wall
            };
            let now = parse_now(now.as_deref())?;
            let config = config()?;
            runtime()?.block_on(async {
                let _lock = lock(&config.storage.database, "tick").await?;
                let service = Service::open(config).await?;
                let read = service.poll_inbox(now).await?;
                let ticked = service.tick_at(now, clock).await?;
                let sent = service.deliver(now).await?;
                println!("{read} mail(s) read, {ticked} game(s) due, {sent} mail(s) written");
                Ok(ExitCode::SUCCESS)
            })
        }
        Command::Config {
            command: ConfigCommand::Check,
        } => {
            let config = config()?;
            Service::check_config(&config)?;
            let path = config_path.unwrap_or_else(|| PathBuf::from("config/herald.toml"));
            println!("{}: the configuration is good", path.display());
            // Where relative paths led (they are read from the file's directory).
            println!("  database  {}", config.storage.database_shown());
            if config.inbox.kind == InboxKind::Maildir {
                println!("  inbox     {}", config.inbox.maildir.display());
            }
            if config.outbox.kind == OutboxKind::Maildir {
                println!("  outbox    {}", config.outbox.maildir.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate { from } => runtime()?.block_on(async {
            let config = config()?;
            Service::migrate(&config).await?;
            println!("{}: schema up to date", config.storage.database_shown());
            if let Some(from) = from {
                let copied = Service::migrate_from(&config, &from).await?;
                for (table, rows, _) in &copied.tables {
                    println!("  {table:<20} {rows} row(s) copied");
                }
                println!(
                    "{} copied into {}: every table's rows counted in both, every game loads",
                    from.display(),
                    config.storage.database_shown()
                );
            }
            // The Maildirs too, as `run` makes them, so that mail can be dropped into the
            // inbox before the daemon first starts.
            let maildirs = [
                (config.inbox.kind == InboxKind::Maildir).then_some(&config.inbox.maildir),
                (config.outbox.kind == OutboxKind::Maildir).then_some(&config.outbox.maildir),
            ];
            for dir in maildirs.into_iter().flatten() {
                Maildir::open(dir)
                    .with_context(|| format!("making the Maildir {}", dir.display()))?;
                println!("{}: Maildir ready (tmp/, new/, cur/)", dir.display());
            }
            Ok(ExitCode::SUCCESS)
        }),
        Command::Game { command } => runtime()?.block_on(async {
            let service = Service::open(config()?).await?;
            match command {
                GameCommand::List => {
                    let games = service.game_list().await?;
                    if games.is_empty() {
                        println!("no games");
                    }
                    for game in games {
                        println!("{game}");
                    }
                }
                GameCommand::Show { game } => match service.game_view(&game).await? {
                    Some(view) => print!("{view}"),
                    None => anyhow::bail!("there is no game '{game}'"),
                },
            }
            Ok(ExitCode::SUCCESS)
        }),
        Command::Export {
            game,
            format,
            base_url,
        } => runtime()?.block_on(async {
            use herald::judge::export;
            let service = Service::open(config()?).await?;
            let Some(g) = service.game(&game).await? else {
                anyhow::bail!("there is no game '{game}'");
            };
            let judge = &service.judge;
            let text = match format {
                ExportFormat::Json => format!("{:#}\n", export::export_json(judge, &g)),
                ExportFormat::Datc => export::datc_case(judge, &g),
                ExportFormat::Atom => export::atom(judge, &g, &base_url),
                ExportFormat::Ics => export::ics(judge, &g, Utc::now()),
            };
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }),
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
        Command::Map {
            command:
                MapCommand::Draw {
                    file,
                    out,
                    phase,
                    variant,
                    region,
                },
        } => map_draw(
            &file,
            out,
            phase.as_deref(),
            variant.as_deref(),
            region.as_deref(),
        ),
        Command::Map {
            command:
                MapCommand::Shapes {
                    file,
                    seeds,
                    land,
                    out,
                },
        } => map_shapes(&file, &seeds, &land, &out),
    }
}

fn map_check(files: &[PathBuf]) -> Result<ExitCode> {
    let mut bad = false;
    for file in files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        let mut problems: Vec<String> = check_map(&text).iter().map(ToString::to_string).collect();
        if problems.is_empty() {
            // The shapes beside the map file (maps/standard.shapes), if any.
            let shapes = std::fs::read_to_string(file.with_extension("shapes")).ok();
            problems = herald::picture::check_drawing(&text, shapes.as_deref());
        }
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

fn map_shapes(file: &Path, seeds: &Path, land: &Path, out: &Path) -> Result<ExitCode> {
    let read =
        |p: &Path| std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()));
    let (text, plan, topo) = (read(file)?, read(seeds)?, read(land)?);
    let made_by = format!(
        "herald map shapes {} --seeds {} --land {}",
        file.display(),
        seeds.display(),
        land.file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned())
    );
    let shapes = herald::picture::carve_map_text(&text, &plan, &topo, &made_by)
        .with_context(|| format!("carving {}", file.display()))?;
    std::fs::write(out, shapes).with_context(|| format!("writing {}", out.display()))?;
    println!("{}: written", out.display());
    Ok(ExitCode::SUCCESS)
}

fn map_draw(
    file: &Path,
    out: Option<PathBuf>,
    phase: Option<&Path>,
    variant: Option<&str>,
    region: Option<&str>,
) -> Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let out = out.unwrap_or_else(|| file.with_extension(""));
    let pictures = match phase {
        None if variant.is_some() => {
            let name = variant.unwrap_or_default();
            let p = herald::picture::opening_of_variant(&text, name)
                .with_context(|| format!("drawing {name} on {}", file.display()))?;
            vec![(out, p.svg, p.png)]
        }
        None => {
            let parts = herald::picture::opening_parts_of_map_text(&text)
                .with_context(|| format!("drawing {}", file.display()))?;
            named_parts(&out, parts, region)?
        }
        Some(cases) => {
            let case_text = std::fs::read_to_string(cases)
                .with_context(|| format!("reading {}", cases.display()))?;
            let cases =
                parse_cases(&case_text).with_context(|| format!("reading {}", cases.display()))?;
            let mut pictures = Vec::new();
            for (i, case) in cases.iter().enumerate() {
                let parts = herald::picture::case_parts_on_map_text(&text, case)
                    .with_context(|| format!("drawing case '{}'", case.name))?;
                let name = match i {
                    0 => out.clone(),
                    _ => PathBuf::from(format!("{}-{}", out.display(), i + 1)),
                };
                pictures.extend(named_parts(&name, parts, region)?);
            }
            pictures
        }
    };
    for (out, svg, png) in pictures {
        for (ext, bytes) in [("svg", svg.as_bytes()), ("png", png.as_slice())] {
            let path = out.with_extension(ext);
            std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
            println!("{}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The files of a board's pictures: the first (the whole board, or a world's overview) as
/// `out`, each region's as `out-<region>`; with `only`, that region's (or the overview's)
/// alone as `out`.
fn named_parts(
    out: &Path,
    parts: Vec<herald::picture::Part>,
    only: Option<&str>,
) -> Result<Vec<(PathBuf, String, Vec<u8>)>> {
    let Some(only) = only else {
        return Ok(parts
            .into_iter()
            .map(|p| {
                let name = match &p.region {
                    None => out.to_path_buf(),
                    Some(r) => PathBuf::from(format!("{}-{r}", out.display())),
                };
                (name, p.picture.svg, p.picture.png)
            })
            .collect());
    };
    let regions: Vec<String> = parts.iter().filter_map(|p| p.region.clone()).collect();
    let wanted = only.to_ascii_lowercase().replace(' ', "-");
    let overview = wanted == "overview" && !regions.is_empty();
    match parts.into_iter().find(|p| match &p.region {
        None => overview,
        Some(r) => *r == wanted,
    }) {
        Some(p) => Ok(vec![(out.to_path_buf(), p.picture.svg, p.picture.png)]),
        None if regions.is_empty() => {
            anyhow::bail!("the map frames no regions ('draw region' lines)")
        }
        None => anyhow::bail!(
            "no region '{only}': the map's regions are {}",
            regions.join(", ")
        ),
    }
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

fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

fn parse_now(now: Option<&str>) -> Result<DateTime<Utc>> {
    match now {
        None => Ok(Utc::now()),
        Some(text) => Ok(DateTime::parse_from_rfc3339(text)
            .with_context(|| {
                format!("--now '{text}': expected an RFC 3339 time like 2026-12-01T18:00:00Z")
            })?
            .with_timezone(&Utc)),
    }
}

/// The database's lock for `command`: a `herald ingest` holding it (a mail handed over by
/// procmail) is waited for, up to half a minute; any other holder is refused at once.
async fn lock(database: &Path, command: &'static str) -> Result<RunLock, LockError> {
    let end = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        match RunLock::take_any(database, command).await {
            Err(e) if e.held_briefly() && tokio::time::Instant::now() < end => {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            taken => return taken,
        }
    }
}

/// Resolves on Ctrl-C or SIGTERM. The handlers are installed when this is called (inside the
/// runtime), not when it is first awaited, so a signal that comes early is not missed.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(term) => {}
                _ = wait(int) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
