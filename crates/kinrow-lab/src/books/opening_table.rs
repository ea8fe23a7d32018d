//! `kinrow opening-table`: makes a table of balanced three-stone openings for the swap and
//! swap2 proposals ([`kinrow_engine::opening_table`]), judged by `auto`'s own search.
//! The table is printed on stdout with a header naming the command line.

use std::io::Write;
use std::time::Duration;

use kinrow_engine::opening_table::{make, TableSpec};
use kinrow_engine::ExternalSpec;
use kinrow_engine::Limits;
use kinrow_game::Rules;

/// `kinrow opening-table` on the command line.
#[derive(clap::Args, Debug)]
pub struct OpeningTableArgs {
    /// The board size (five in a row).
    #[arg(long, default_value_t = 15)]
    pub size: u64,
    /// Only exactly five in a row wins.
    #[arg(long)]
    pub exact: bool,
    /// Openings to keep.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Candidates to try at most.
    #[arg(long, default_value_t = 400)]
    pub tries: usize,
    /// Stones are drawn within this many cells of the centre.
    #[arg(long, default_value_t = 3)]
    pub radius: usize,
    /// The largest |value| (the API's scale, -1 to 1) that counts as even.
    #[arg(long, default_value_t = 0.15)]
    pub band: f64,
    /// Nodes of each search (a node limit: the table replays bit for bit).
    #[arg(long, default_value_t = 1_000_000)]
    pub nodes: u64,
    #[arg(long, default_value_t = 1)]
    /// Seed of the candidate draws and of the searches.
    pub seed: u64,
    /// A second judge, an external engine `pbrain:PATH[:arg=TEXT]*`: a candidate is kept
    /// only when it also values it within the band for o to move.
    #[arg(long)]
    pub judge: Option<String>,
    /// The second judge's time per position, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub judge_ms: u64,
    /// The largest |value| by the second judge that counts as even [default: --band].
    #[arg(long)]
    pub judge_band: Option<f64>,
}

/// Runs `kinrow opening-table`; returns the exit code.
pub fn main(args: OpeningTableArgs) -> i32 {
    let rules = match Rules::new(args.size, args.size, 5, !args.exact, Default::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kinrow opening-table: {e}");
            return 2;
        }
    };
    let spec = TableSpec {
        count: args.count,
        tries: args.tries,
        radius: args.radius,
        band: args.band,
        second_band: args.judge_band.unwrap_or(args.band),
        limits: Limits {
            time: Duration::from_secs(600),
            nodes: Some(args.nodes),
            ..Limits::default()
        },
        seed: args.seed,
    };
    let external = match args.judge.as_deref().map(ExternalSpec::from_pbrain) {
        None => None,
        Some(Ok(spec)) => Some(spec),
        Some(Err(e)) => {
            eprintln!("kinrow opening-table: --judge: {e}");
            return 2;
        }
    };
    let judge_flag = args
        .judge
        .as_ref()
        .map(|j| {
            let band = args
                .judge_band
                .map(|b| format!(" --judge-band {b}"))
                .unwrap_or_default();
            format!(" --judge {j} --judge-ms {}{band}", args.judge_ms)
        })
        .unwrap_or_default();
    println!(
        "# made by: kinrow opening-table --size {} {}--count {} --tries {} --radius {} --band {} --nodes {} --seed {}{judge_flag}",
        args.size,
        if args.exact { "--exact " } else { "" },
        args.count,
        args.tries,
        args.radius,
        args.band,
        args.nodes,
        args.seed
    );
    println!(
        "# three-stone openings (x, o, x as column,row) that auto's own search values within +-{} of even, before and after its best reply{}",
        args.band,
        if external.is_some() { ", and the second judge too" } else { "" }
    );
    let m = args.size as usize;
    let time = Duration::from_millis(args.judge_ms);
    let mut asked = 0usize;
    let mut second = |p: &kinrow_game::Position, moves: &[kinrow_game::Move]| {
        let spec = external.as_ref()?;
        asked += 1;
        match super::opening_check::external_value(spec, p, moves, time) {
            Ok(v) => {
                eprintln!(
                    "kinrow opening-table: candidate {asked}: the judge says {}",
                    v.map_or("nothing".into(), |v| format!("{v:+.3}"))
                );
                v
            }
            Err(e) => {
                eprintln!("kinrow opening-table: the judge failed: {e}");
                None
            }
        }
    };
    let second: Option<kinrow_engine::opening_table::SecondJudge> = if external.is_some() {
        Some(&mut second)
    } else {
        None
    };
    let kept = make(&rules, &spec, second, |e| {
        println!("{}", e.line(m));
        let _ = std::io::stdout().flush();
    });
    eprintln!("kinrow opening-table: kept {} openings", kept.len());
    0
}
