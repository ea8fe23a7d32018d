//! The learned evaluation against the window count it replaced, on games neither was
//! fitted on: `crates/kinrow-lab/tests/lab/data/heldout.jsonl` holds self-play games of their own seed
//! (`kinrow selfplay --seed 777`, see docs/strength.md), and the committed weights must
//! predict their results with a lower log-loss than the window count did under the
//! value mapping `auto` showed with it.

use kinrow_engine::weights;
use kinrow_lab::training::tune::held_out_losses;

#[test]
fn learned_weights_beat_the_window_count_on_held_out_games() {
    let text = include_str!("data/heldout.jsonl");
    let w = weights::gomoku().expect("the committed weights read");
    let (learned, window, samples) = held_out_losses(text, w).unwrap();
    eprintln!(
        "held-out log-loss: learned {learned:.4}, window count {window:.4} ({samples} samples)"
    );
    assert!(samples >= 500, "{samples} samples");
    assert!(
        learned < window,
        "held-out log-loss: learned {learned:.4}, window count {window:.4} ({samples} samples)"
    );
    // And better than knowing nothing (a coin flip's log-loss is ln 2).
    assert!(learned < std::f64::consts::LN_2, "learned {learned:.4}");
}

/// A game record that does not replay is refused with its line.
#[test]
fn broken_records_are_refused() {
    let w = weights::gomoku().unwrap();
    let bad = r#"{"game":0,"rules":"15,15,5","variant":"free","opening":3,"moves":"h8 h8","values":[],"outcomes":"","result":"x"}"#;
    let err = held_out_losses(bad, w).unwrap_err();
    assert!(err.starts_with("line 1"), "{err}");
}
