// Throwaway (not committed): values by depth and setting for chosen positions.
use kinrow_engine::search::auto::{alpha_beta_value, Defences, Tactics, PATTERN_MATE};
fn kind(v: Option<i64>) -> String {
    match v {
        None => "?".into(),
        Some(v) if v >= PATTERN_MATE => format!("W{}", (1i64 << 50) - v),
        Some(v) if v <= -PATTERN_MATE => format!("L{}", (1i64 << 50) + v),
        Some(v) => format!("{v}"),
    }
}
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let ps = kinrow_lab::replay::positions(&text).unwrap();
    let off = Tactics::default();
    let settings = [
        ("off", off),
        (
            "verdicts",
            Tactics {
                verdicts: true,
                ..off
            },
        ),
        (
            "safe",
            Tactics {
                mate_safe: true,
                ..off
            },
        ),
        (
            "add",
            Tactics {
                defences: Defences::Add,
                ..off
            },
        ),
        (
            "only",
            Tactics {
                defences: Defences::Only,
                ..off
            },
        ),
        (
            "all",
            Tactics {
                verdicts: true,
                mate_safe: true,
                defences: Defences::Only,
            },
        ),
    ];
    let wins = args.next().map(|a| a == "wins").unwrap_or(false);
    if wins {
        // every position where verdicts (d0) say W
        for (i, p) in ps.iter().enumerate() {
            let a = alpha_beta_value(p, settings[0].1, 0, 1 << 20);
            let b = alpha_beta_value(p, settings[1].1, 0, 1 << 20);
            let (ka, kb) = (kind(a), kind(b));
            if ka != kb {
                println!("{i} {:?} off={ka} on={kb}", p.to_move());
            }
        }
        return;
    }
    for i in [27usize, 51, 76, 94, 95, 101] {
        let p = &ps[i];
        for (name, t) in settings {
            let row: Vec<String> = (0..=5)
                .map(|d| kind(alpha_beta_value(p, t, d, 5_000_000)))
                .collect();
            println!("{i} {name:9} {}", row.join(" "));
        }
    }
}
