//! `kinrow opening-table`: makes a table of balanced three-stone openings for the swap and
//! swap2 proposals ([`crate::engine::opening::table`]), judged by `auto`'s own search.
//! The table is printed on stdout with a header naming the command line.

use std::io::Write;
use std::time::Duration;

use crate::engine::opening::table::{make, TableSpec};
use crate::engine::Limits;
use crate::game::Rules;

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
        limits: Limits {
            time: Duration::from_secs(600),
            nodes: Some(args.nodes),
            ..Limits::default()
        },
        seed: args.seed,
    };
    println!(
        "# made by: kinrow opening-table --size {} {}--count {} --tries {} --radius {} --band {} --nodes {} --seed {}",
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
        "# three-stone openings (x, o, x as column,row) that auto's own search values within +-{} of even, before and after its best reply",
        args.band
    );
    let m = args.size as usize;
    let kept = make(&rules, &spec, |e| {
        println!("{}", e.line(m));
        let _ = std::io::stdout().flush();
    });
    eprintln!("kinrow opening-table: kept {} openings", kept.len());
    0
}
