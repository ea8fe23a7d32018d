//! One external brain as the operator configures it: `NAME=COMMAND[;key=value]*` read
//! into a [`BrainSpec`] (the command split at whitespace, each option checked and named in
//! its error), and the brain's value scale, a logistic of its eval in the spec's unit.

use std::path::PathBuf;
use std::time::Duration;

/// One external brain as configured: `NAME=COMMAND[;key=value]*`.
#[derive(Clone, Debug, PartialEq)]
pub struct BrainSpec {
    /// Its name in the API.
    pub name: String,
    /// The executable.
    pub program: PathBuf,
    /// Its arguments (the command's words after the first).
    pub args: Vec<String>,
    /// Processes kept running (`pool=N`, 1 to 64; by default the caller's, the
    /// server's search slots).
    pub pool: Option<usize>,
    /// `INFO max_memory`, in bytes (`memory_mb=N`; not sent when omitted).
    pub memory: Option<u64>,
    /// The value scale: the brain's eval `e` maps to the value `tanh(e / (2 * unit))`,
    /// that is `2σ(e / unit) - 1` (`unit=N`; default 200).
    pub unit: f64,
    /// It takes `INFO max_node` (`nodes=yes`): the API's `nodes` is honoured.
    pub takes_nodes: bool,
    /// It takes `INFO max_depth` (`depth=yes`): the API's `depth` is honoured.
    pub takes_depth: bool,
    /// How long it has to answer `START` (`start_ms=N`; default 10000).
    pub start_time: Duration,
    /// The first wait before a brain marked unavailable is tried again (`retry_ms=N`;
    /// default 30000); it doubles with every failed try.
    pub retry: Duration,
}

impl BrainSpec {
    /// Parses `NAME=COMMAND[;key=value]*`; the command is split at whitespace.
    pub fn parse(text: &str) -> Result<BrainSpec, String> {
        let (name, rest) = text
            .split_once('=')
            .ok_or_else(|| format!("external engine {text:?} is not NAME=COMMAND"))?;
        let name = name.trim().to_ascii_lowercase();
        let valid = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
        if name.is_empty() || !name.chars().all(valid) {
            return Err(format!(
                "external engine {text:?}: the name must be letters, digits, '-', '_' or '.'"
            ));
        }
        let mut parts = rest.split(';');
        let mut words = parts.next().unwrap_or_default().split_whitespace();
        let Some(program) = words.next() else {
            return Err(format!("external engine {name:?} has no command"));
        };
        let mut spec = BrainSpec {
            program: PathBuf::from(program),
            args: words.map(str::to_string).collect(),
            name,
            pool: None,
            memory: None,
            unit: 200.0,
            takes_nodes: false,
            takes_depth: false,
            start_time: Duration::from_millis(10_000),
            retry: Duration::from_millis(30_000),
        };
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || {
                format!(
                    "external engine {:?}: {part:?} is not one of pool=N, memory_mb=N, unit=N, \
                     nodes=yes|no, depth=yes|no, start_ms=N, retry_ms=N",
                    spec.name
                )
            };
            let (key, value) = part.split_once('=').ok_or_else(bad)?;
            let number = || value.trim().parse::<u64>().map_err(|_| bad());
            let yes = || match value.trim() {
                "yes" | "true" | "1" => Ok(true),
                "no" | "false" | "0" => Ok(false),
                _ => Err(bad()),
            };
            match key.trim() {
                "pool" => spec.pool = Some(number()?.clamp(1, 64) as usize),
                "memory_mb" => spec.memory = Some(number()? * 1024 * 1024),
                "unit" => {
                    spec.unit = value
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|u| *u > 0.0 && u.is_finite())
                        .ok_or_else(bad)?
                }
                "nodes" => spec.takes_nodes = yes()?,
                "depth" => spec.takes_depth = yes()?,
                "start_ms" => spec.start_time = Duration::from_millis(number()?.max(1)),
                "retry_ms" => spec.retry = Duration::from_millis(number()?.max(1)),
                _ => return Err(bad()),
            }
        }
        Ok(spec)
    }

    /// The brain's value of its eval `e` for the side to move: `2σ(e / unit) - 1`, kept
    /// inside (-1, 1) (only a proof is worth exactly 1).
    pub fn value(&self, eval: f64) -> f64 {
        let v = (eval / (2.0 * self.unit)).tanh();
        v.clamp(-0.999, 0.999)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_reads_its_command_and_options() {
        let s = BrainSpec::parse(
            "Rapfi=/opt/rapfi/pbrain-rapfi --x 1;pool=2;memory_mb=64;unit=300;nodes=yes;retry_ms=500",
        )
        .unwrap();
        assert_eq!(s.name, "rapfi");
        assert_eq!(s.program, PathBuf::from("/opt/rapfi/pbrain-rapfi"));
        assert_eq!(s.args, vec!["--x", "1"]);
        assert_eq!((s.pool, s.memory, s.unit), (Some(2), Some(64 << 20), 300.0));
        assert!(s.takes_nodes && !s.takes_depth);
        assert_eq!(s.retry, Duration::from_millis(500));
        assert!(BrainSpec::parse("rapfi").is_err());
        assert!(BrainSpec::parse("rapfi=").is_err());
        assert!(BrainSpec::parse("a b=/bin/x").is_err());
        assert!(BrainSpec::parse("r=/bin/x;colour=blue").is_err());
    }

    #[test]
    fn the_value_scale_is_a_logistic_of_the_unit() {
        let s = BrainSpec::parse("r=/bin/x").unwrap();
        assert_eq!(s.value(0.0), 0.0);
        // 2σ(1) - 1 = tanh(1/2).
        assert!((s.value(200.0) - 0.5f64.tanh()).abs() < 1e-12);
        assert!(s.value(-1e9) >= -0.999);
    }
}
