//! `kinrow opening-check`: both tasks write one JSON line per item, print a summary, and
//! a rerun with the same file goes on from it.

fn kinrow() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_kinrow"))
}

fn check(args: &[&str], out: &std::path::Path) -> (String, Vec<serde_json::Value>) {
    let run = kinrow()
        .arg("opening-check")
        .args(args)
        .args(["--judge-ms", "100", "--propose-ms", "100", "--out"])
        .arg(out)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&run.stdout).to_string();
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let items = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (text, items)
}

#[test]
fn balance_items_are_judged_and_a_rerun_goes_on() {
    let out = std::env::temp_dir().join(format!("kinrow-check-{}.jsonl", std::process::id()));
    std::fs::remove_file(&out).ok();
    let (text, items) = check(&["--task", "balance", "--count", "1"], &out);
    assert!(text.contains("even within +-0.15: by auto"), "{text}");
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["seed"], 1);
    assert_eq!(items[0]["stones"].as_str().unwrap().split(' ').count(), 3);
    let v = items[0]["own_value"].as_f64().unwrap();
    assert_eq!(items[0]["own_even"], v.abs() <= 0.15);
    let (_, items) = check(&["--task", "balance", "--count", "2"], &out);
    assert_eq!(items.len(), 2);
    assert_eq!(items[1]["seed"], 2);
    std::fs::remove_file(&out).ok();
}

#[test]
fn choice_items_keep_the_lopsided_positions_and_say_whether_the_side_was_right() {
    let out = std::env::temp_dir().join(format!("kinrow-choice-{}.jsonl", std::process::id()));
    std::fs::remove_file(&out).ok();
    let args = [
        "--task",
        "choice",
        "--count",
        "1",
        "--lopsided",
        "0.2",
        "--opening",
        "swap",
    ];
    let (text, items) = check(&args, &out);
    assert!(text.contains("lopsided of"), "{text}");
    let kept: Vec<&serde_json::Value> = items.iter().filter(|i| i["kept"] == true).collect();
    assert_eq!(kept.len(), 1, "{items:?}");
    let k = kept[0];
    let favoured = if k["own_value"].as_f64().unwrap() > 0.0 {
        "o"
    } else {
        "x"
    };
    assert_eq!(k["favoured"], favoured);
    assert_eq!(k["right"], k["chosen"] == favoured);
    std::fs::remove_file(&out).ok();
}
