//! What the command-line tools print: their results on standard output ([`print_line`]),
//! shared by `cli` and the tools it runs without any of them importing another, and the
//! progress line of the long commands (`arena`, `selfplay`, `tune`, `steadiness`) on
//! standard error ([`Progress`]): how much is done, the rate and the time left, so that
//! standard output keeps the machine-readable results.

use std::sync::Mutex;
use std::time::Instant;

/// Writes `text` and a newline to standard output. A reader that went away (`kinrow
/// arena ... | head -2`) is not an error worth a panic: the rest is dropped quietly.
pub fn print_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

/// The `--out` file of a command that writes its results once, created (emptied) now;
/// `None` without `--out`.
pub fn out_file(path: Option<&std::path::Path>) -> Result<Option<std::fs::File>, String> {
    path.map(|path| {
        std::fs::File::create(path)
            .map_err(|e| format!("--out: cannot write {}: {e}", path.display()))
    })
    .transpose()
}

/// A suite file's `#` comments and its JSON lines (blank lines skipped), each line read as
/// a `T`; an error names the line.
pub fn read_commented_lines<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<(Vec<String>, Vec<T>), String> {
    let mut comments = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            comments.push(c.trim().to_string());
            continue;
        }
        lines.push(serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok((comments, lines))
}

/// The whole lines of a long command's results file `path`, to go on from (an empty
/// text when it does not exist yet). A last line cut short by a stopped run is dropped,
/// from the file too, so that appending goes on after whole lines.
pub fn whole_lines(path: &std::path::Path) -> Result<String, String> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    if whole != text.len() {
        text.truncate(whole);
        std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(text)
}

/// Progress of a run of `total` units, `done` of them finished before it started.
pub struct Progress {
    what: &'static str,
    unit: &'static str,
    total: usize,
    state: Mutex<(usize, usize)>,
    start: Instant,
}

impl Progress {
    /// A run of `total` `unit`s (e.g. "games") of which `done` are already finished.
    pub fn new(what: &'static str, unit: &'static str, done: usize, total: usize) -> Progress {
        Progress {
            what,
            unit,
            total,
            state: Mutex::new((done, 0)),
            start: Instant::now(),
        }
    }

    /// One more unit finished, without a line.
    pub fn skip(&self) {
        let mut s = self.state.lock().expect("no panic holding it");
        s.0 += 1;
        s.1 += 1;
    }

    /// One more unit finished: prints the line, with `extra` at its end.
    pub fn advance(&self, extra: &str) {
        let (done, this_run) = {
            let mut s = self.state.lock().expect("no panic holding it");
            s.0 += 1;
            s.1 += 1;
            *s
        };
        let secs = self.start.elapsed().as_secs_f64();
        let rate = this_run as f64 / secs.max(1e-9);
        let left = self.total.saturating_sub(done) as f64 / rate.max(1e-9);
        eprintln!(
            "{}: {done}/{} {} ({:.1}%), {:.2} {}/min, {} left; {extra}",
            self.what,
            self.total,
            self.unit,
            100.0 * done as f64 / self.total.max(1) as f64,
            rate * 60.0,
            self.unit,
            duration(left),
        );
    }
}

/// `1h05m`, `3m20s`, `42s`.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s / 60 % 60),
    }
}
