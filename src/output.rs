//! What the command-line tools (`arena`, `bench`, `openapi`, `state`) print: the one
//! place that writes their results to standard output, shared by `cli` and the tools it
//! runs without any of them importing another.

/// Writes `text` and a newline to standard output. A reader that went away (`kinrow
/// arena ... | head -2`) is not an error worth a panic: the rest is dropped quietly.
pub fn print_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}
