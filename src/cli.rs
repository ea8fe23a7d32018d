//! The command line: `kinrow serve` (the default), `kinrow state`, `kinrow review`, and
//! the tools built on the crates. `main.rs` only parses and calls [`run`].

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use kinrow_game::{parse_board_string, Hand, Player, Position, Rules};
use kinrow_lab::output::print_line;
use kinrow_server::dto::ReviewRequest;
use kinrow_server::parse_body;
use kinrow_server::review_here;
use kinrow_server::ClientErrorsAsInfo;
use kinrow_server::{Config, ServeArgs};

/// kinrow: move suggestions for m,n,k-games over HTTP.
#[derive(Parser, Debug)]
#[command(name = "kinrow", version, about, long_about = None)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// The command; the server when none.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `kinrow` alone runs the server: these are `kinrow serve`'s flags.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The commands of `kinrow`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the HTTP server (the default when no subcommand is given).
    Serve(ServeArgs),
    /// Print the OpenAPI document (what `GET /openapi.json` serves).
    Openapi,
    /// Print the status of a position as JSON (what `POST /v1/state` answers).
    State(StateArgs),
    /// Review a game without a server: a `POST /v1/review` body in, its answer out.
    Review(ReviewArgs),
    /// Play two engines against each other and report the score and Elo difference.
    Arena(kinrow_lab::measuring::arena::ArenaArgs),
    /// Make a balanced opening set for `arena --openings`, judged by an external engine.
    Openings(kinrow_lab::books::openings::OpeningsArgs),
    /// Make the table of balanced three-stone openings that swap and swap2 proposals draw from.
    OpeningTable(kinrow_lab::books::opening_table::OpeningTableArgs),
    /// Measure the swap and swap2 decisions: proposals judged even, sides picked on lopsided positions.
    OpeningCheck(kinrow_lab::books::opening_check::OpeningCheckArgs),
    /// Judge the quiet moves of recorded arena games with an external engine (mean eval loss).
    Judge(kinrow_lab::measuring::judge::JudgeArgs),
    /// Build suites of positions labelled by an external judge, or check an engine's
    /// per-move values against them (wins shown won, losing moves shown lost).
    ValueSuite(kinrow_lab::measuring::value_suite::ValueSuiteArgs),
    /// Build the suite of lost games' tactical turns from `judge --turning --out` files,
    /// or check an engine on it (turning moves avoided, the loss seen after them, why).
    TurningSuite(kinrow_lab::measuring::turning_suite::TurningSuiteArgs),
    /// Speak the Gomocup (piskvork) protocol on stdin/stdout.
    Pbrain(kinrow_lab::pbrain::PbrainArgs),
    /// Measure engine throughput offline (positions/s, nodes/s, µs per call).
    Bench(kinrow_lab::measuring::bench::BenchArgs),
    /// Play an engine against itself from varied even openings: the games `tune` learns from.
    Selfplay(kinrow_lab::training::selfplay::SelfplayArgs),
    /// Have a stronger engine (the teacher) value positions: game records with its values.
    Label(kinrow_lab::training::label::LabelArgs),
    /// Fit the gomoku network to labelled positions (`label`'s); report held-out log-loss.
    Fit(kinrow_lab::training::fit::FitArgs),
    /// Fit the learned evaluation's weights to `selfplay` games; report held-out log-loss.
    Tune(kinrow_lab::training::tune::TuneArgs),
    /// Count value reversals in self-play from balanced openings, as answered and by the last depth alone.
    Steadiness(kinrow_lab::measuring::steady::SteadinessArgs),
    /// Measure perfect on gravity boards: nodes and time per position kind, or per-column answers.
    Connect(kinrow_lab::books::connect::ConnectArgs),
    /// Make an opening book for a gravity board (resumable; JSON summary at the end).
    Book(kinrow_lab::books::book::BookArgs),
    /// Fit each engine's value mapping on self-play games; print Brier scores and reliability.
    Calibrate(kinrow_lab::training::calibrate::CalibrateArgs),
}

/// A position given on the command line.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// The rules as `M,N,K` (columns, rows, line length).
    #[arg(long, value_name = "M,N,K")]
    pub rules: String,
    /// The board, rows separated by `/` (e.g. `x../.o./...`); the empty board when omitted.
    /// With `--gravity`, also the Connect Four move sequence (1-based columns, `4453`).
    #[arg(long)]
    pub board: Option<String>,
    /// Gravity: a stone drops to the lowest empty cell of its column (Connect Four).
    #[arg(long)]
    pub gravity: bool,
    /// The side to move (`x` or `o`); inferred from the counts when no special piece is held.
    #[arg(long, value_name = "x|o")]
    pub to_move: Option<String>,
    /// Only exactly `k` in a row wins (no overlines).
    #[arg(long)]
    pub exact: bool,
    /// Special pieces x holds, as `BLOCK,REMOVE,BOMB`.
    #[arg(long, value_name = "B,R,BOMB")]
    pub x_pieces: Option<String>,
    /// Special pieces o holds, as `BLOCK,REMOVE,BOMB`.
    #[arg(long, value_name = "B,R,BOMB")]
    pub o_pieces: Option<String>,
}

/// The flags of `kinrow state`.
#[derive(clap::Args, Debug)]
pub struct StateArgs {
    /// The position.
    #[command(flatten)]
    pub position: PositionArgs,
}

/// The flags of `kinrow review`.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// A file holding the body of a `POST /v1/review` request (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub request: PathBuf,
}

fn parse_numbers(s: &str, what: &str, count: usize) -> Result<Vec<u64>, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.len() != count {
        return Err(format!(
            "{what}: expected {count} comma-separated numbers, got {s:?}"
        ));
    }
    parts
        .iter()
        .map(|p| {
            p.parse::<u64>()
                .map_err(|_| format!("{what}: {p:?} is not a whole number"))
        })
        .collect()
}

fn parse_hand(s: &Option<String>, what: &str) -> Result<Hand, String> {
    match s {
        None => Ok(Hand::default()),
        Some(s) => {
            let v = parse_numbers(s, what, 3)?;
            let count =
                |x: u64| u8::try_from(x).map_err(|_| format!("{what}: {x} is too many pieces"));
            Ok(Hand::new(count(v[0])?, count(v[1])?, count(v[2])?))
        }
    }
}

impl PositionArgs {
    /// Builds the position, with the rules' and board's own error messages.
    pub fn position(&self) -> Result<Position, String> {
        let v = parse_numbers(&self.rules, "--rules", 3)?;
        let hands = [
            parse_hand(&self.x_pieces, "--x-pieces")?,
            parse_hand(&self.o_pieces, "--o-pieces")?,
        ];
        let rules = Rules::new(v[0], v[1], v[2], !self.exact, hands)
            .and_then(|r| r.with_gravity(self.gravity))
            .map_err(|e| e.to_string())?;
        let to_move = match self.to_move.as_deref() {
            None => None,
            Some(s) => Some(
                s.chars()
                    .next()
                    .filter(|_| s.chars().count() == 1)
                    .and_then(Player::from_char)
                    .ok_or_else(|| format!("--to-move: {s:?} is not x or o"))?,
            ),
        };
        if let Some(digits) = self
            .board
            .as_deref()
            .filter(|b| kinrow_game::is_column_digits(b))
        {
            if rules.gravity() {
                return Position::from_column_digits(&rules, digits, "--board")
                    .map_err(|e| e.to_string());
            }
        }
        let cells = match &self.board {
            Some(b) => parse_board_string(b, rules.m(), rules.n()).map_err(|e| e.to_string())?,
            None => vec![Default::default(); rules.cells()],
        };
        Position::from_cells(&rules, cells, to_move).map_err(|e| e.to_string())
    }
}

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(args) => serve(args),
        Command::Openapi => {
            print_line(&kinrow_server::openapi_json());
            0
        }
        Command::Arena(args) => kinrow_lab::measuring::arena::main(args),
        Command::Openings(args) => kinrow_lab::books::openings::main(args),
        Command::Judge(args) => kinrow_lab::measuring::judge_main(args),
        Command::ValueSuite(args) => kinrow_lab::measuring::value_suite::main(args),
        Command::TurningSuite(args) => kinrow_lab::measuring::turning_suite::main(args),
        Command::OpeningTable(args) => kinrow_lab::books::opening_table::main(args),
        Command::OpeningCheck(args) => kinrow_lab::books::opening_check::main(args),
        Command::Pbrain(args) => kinrow_lab::pbrain::main(args),
        Command::Bench(args) => kinrow_lab::measuring::bench::main(args),
        Command::Connect(args) => kinrow_lab::books::connect::main(args),
        Command::Book(args) => kinrow_lab::books::book::main(args),
        Command::Calibrate(args) => kinrow_lab::training::calibrate::main(args),
        Command::Selfplay(args) => kinrow_lab::training::selfplay::main(args),
        Command::Tune(args) => kinrow_lab::training::tune::main(args),
        Command::Label(args) => kinrow_lab::training::label::main(args),
        Command::Fit(args) => kinrow_lab::training::fit::main(args),
        Command::Steadiness(args) => kinrow_lab::measuring::steady::main(args),
        Command::Review(args) => review(&args),
        Command::State(args) => match args.position.position() {
            Ok(p) => {
                // The same answer as `POST /v1/state`.
                let state = kinrow_server::dto::StateResponse::new(&p);
                print_line(&serde_json::to_string_pretty(&state).expect("json"));
                0
            }
            Err(e) => {
                eprintln!("kinrow state: {e}");
                2
            }
        },
    }
}

/// `kinrow review`: reads the request, reviews the game on this thread under the
/// server's default configuration and prints the answer `POST /v1/review` gives (an
/// error as the API's error body, exit code 2).
fn review(args: &ReviewArgs) -> i32 {
    let body = if args.request.as_os_str() == "-" {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut s).map(|_| s)
    } else {
        std::fs::read(&args.request)
    };
    let body = match body {
        Ok(b) => b,
        Err(e) => {
            eprintln!("kinrow review: {}: {e}", args.request.display());
            return 2;
        }
    };
    let answer =
        parse_body::<ReviewRequest>(&body).and_then(|req| review_here(&req, &Config::default()));
    match answer {
        Ok(answer) => {
            print_line(&serde_json::to_string_pretty(&answer).expect("json"));
            0
        }
        Err(e) => {
            eprintln!(
                "kinrow review: {}",
                serde_json::to_string(&e.body()).expect("json")
            );
            2
        }
    }
}

/// `kinrow serve`: logs to stderr (`RUST_LOG`, default `info`; a client's broken request
/// at INFO, see [`ClientErrorsAsInfo`]) and serves until a signal.
fn serve(args: ServeArgs) -> i32 {
    let logger =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).build();
    let max = logger.filter();
    if log::set_boxed_logger(Box::new(ClientErrorsAsInfo(logger))).is_ok() {
        log::set_max_level(max);
    }
    let config = match args.into_config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("kinrow serve: {e}");
            return 2;
        }
    };
    match kinrow_server::serve(config) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("kinrow serve: {e}");
            1
        }
    }
}
