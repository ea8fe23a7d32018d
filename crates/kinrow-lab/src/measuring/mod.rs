//! The measuring room: the commands that say how strong, fast and steady the engines are.
//!
//! - [`arena`] (`kinrow arena`): matches between engines, kinrow's or external Gomocup
//!   brains, with SPRTs, swap2 openings and resumable records;
//! - [`judge`] (`kinrow judge`, entered by [`judge_main`]): the quiet moves of recorded
//!   games, judged by an external engine (an average eval loss per contestant); with
//!   `--turning`, the arena's `turning.rs`: where lost games turned;
//! - [`bench`] (`kinrow bench`): node rates and search digests; with `--replay`,
//!   [`replay`]'s digests of recorded positions, which show a refactoring keeps the
//!   engines' behaviour;
//! - [`value_suite`] (`kinrow value-suite`): per-move values against an external judge's
//!   forced results;
//! - [`turning_suite`] (`kinrow turning-suite`): the tactical turns of lost games;
//! - [`steady`] (`kinrow steadiness`): how often values reverse in self-play.

pub mod arena;
pub mod bench;
pub mod judge;
pub mod replay;
pub mod steady;
pub mod turning_suite;
pub mod value_suite;

/// Runs `kinrow judge`: the quiet-move judgement, or with `--turning` where lost games
/// turned (`arena/turning.rs`, which reads judge's arguments: the choice is made here,
/// above both); returns the exit code.
pub fn judge_main(args: judge::JudgeArgs) -> i32 {
    if args.turning {
        arena::turning::main(&args)
    } else {
        judge::main(args)
    }
}
