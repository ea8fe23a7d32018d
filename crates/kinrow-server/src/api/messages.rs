//! Shape errors in plain words. serde reports a wrong shape in its own terms (`invalid
//! type: sequence, expected a string at line 1 column 9`); [`shape_error`] rewrites such a
//! message into one that names the field and says what it must be
//! (`to_move must be "x" or "o", not the number 1`), using the `expecting` text of the
//! request types, which carry a short example.

/// The field and message of a shape error: `path` is where serde stopped (`rules.k`,
/// `board[3]`; `None` for the body itself), `raw` serde's message.
pub fn shape_error(path: Option<&str>, raw: &str) -> (Option<String>, String) {
    let raw = strip_position(raw);
    let subject = path.unwrap_or("the body");
    if let Some(rest) = raw
        .strip_prefix("invalid type: ")
        .or_else(|| raw.strip_prefix("invalid value: "))
    {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let message = format!(
                "{subject} must be {}, not {}",
                expected_words(expected),
                found_words(found)
            );
            return (path.map(str::to_string), message);
        }
    }
    if let Some(rest) = raw.strip_prefix("invalid length ") {
        // An array where an object goes (serde reads structs from arrays too).
        if let Some((n, expected)) = rest.split_once(", expected ") {
            let message = format!(
                "{subject} must be {}, not an array of {n}",
                expected_words(expected)
            );
            return (path.map(str::to_string), message);
        }
    }
    if let Some(rest) = raw.strip_prefix("unknown variant ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let message = format!(
                "{subject} must be {}, not {}",
                quoted(expected),
                quoted(found)
            );
            return (path.map(str::to_string), message);
        }
    }
    if let Some(rest) = raw.strip_prefix("unknown field ") {
        let (name, known) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let parent = path
            .and_then(|p| p.rsplit_once('.'))
            .map(|(parent, _)| parent);
        let place = match parent {
            Some(p) => format!("{p} has no field {}", quoted(name)),
            None => format!("the request has no field {}", quoted(name)),
        };
        let message = if known.is_empty() {
            place
        } else {
            let known = known.strip_prefix("one of ").unwrap_or(known);
            format!("{place}; its fields are {}", quoted(known))
        };
        return (path.map(str::to_string), message);
    }
    if let Some(rest) = raw.strip_prefix("missing field ") {
        let name = rest.trim_matches('`');
        let field = match path {
            Some(p) => format!("{p}.{name}"),
            None => name.to_string(),
        };
        let message = format!("{field} is required");
        return (Some(field), message);
    }
    (path.map(str::to_string), raw.to_string())
}

/// `raw` without serde_json's trailing ` at line 1 column 9`.
fn strip_position(raw: &str) -> &str {
    match raw.rfind(" at line ") {
        Some(i)
            if raw[i + 9..]
                .split(" column ")
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            &raw[..i]
        }
        _ => raw,
    }
}

/// serde's names of JSON values (`sequence`, `map`, ``integer `5` ``) in JSON's words.
fn found_words(found: &str) -> String {
    let inner = |s: &str| s.trim_matches('`').to_string();
    if let Some(v) = found.strip_prefix("integer ") {
        format!("the number {}", inner(v))
    } else if let Some(v) = found.strip_prefix("floating point ") {
        format!("the number {}", inner(v))
    } else if let Some(v) = found.strip_prefix("boolean ") {
        inner(v)
    } else if let Some(v) = found.strip_prefix("string ") {
        format!("the string {v}")
    } else {
        match found {
            "sequence" => "an array".to_string(),
            "map" => "an object".to_string(),
            "unit value" | "null" => "null".to_string(),
            other => other.to_string(),
        }
    }
}

/// serde's default expectations (`a sequence`, `struct Rules`) in JSON's words; the
/// request types' own `expecting` texts pass unchanged.
fn expected_words(expected: &str) -> String {
    match expected {
        "a sequence" => "an array".to_string(),
        "a map" => "an object".to_string(),
        "a boolean" => "true or false".to_string(),
        e if e.starts_with("struct ") => "an object".to_string(),
        e if e.starts_with("u8") || e.starts_with("u32") || e.starts_with("u64") => {
            "a whole number, 0 or more".to_string()
        }
        e => quoted(e),
    }
}

/// serde's back-quoted names (`` `x` or `o` ``) in double quotes (`"x" or "o"`).
fn quoted(s: &str) -> String {
    s.replace('`', "\"")
}

#[cfg(test)]
mod tests {
    use super::shape_error;

    #[test]
    fn serde_messages_become_plain_words() {
        let cases = [
            (
                Some("to_move"),
                "invalid type: integer `1`, expected \"x\" or \"o\" at line 1 column 40",
                Some("to_move"),
                "to_move must be \"x\" or \"o\", not the number 1",
            ),
            (
                Some("to_move"),
                "unknown variant `z`, expected `x` or `o` at line 1 column 41",
                Some("to_move"),
                "to_move must be \"x\" or \"o\", not \"z\"",
            ),
            (
                Some("rules.extra"),
                "unknown field `extra`, expected one of `m`, `n`, `k` at line 1 column 30",
                Some("rules.extra"),
                "rules has no field \"extra\"; its fields are \"m\", \"n\", \"k\"",
            ),
            (
                None,
                "missing field `rules` at line 1 column 2",
                Some("rules"),
                "rules is required",
            ),
            (
                Some("move"),
                "missing field `col`",
                Some("move.col"),
                "move.col is required",
            ),
            (
                Some("include"),
                "invalid type: map, expected a sequence at line 1 column 3",
                Some("include"),
                "include must be an array, not an object",
            ),
            (
                None,
                "invalid type: sequence, expected struct StateRequest",
                None,
                "the body must be an object, not an array",
            ),
        ];
        for (path, raw, field, message) in cases {
            let (f, m) = shape_error(path, raw);
            assert_eq!(f.as_deref(), field, "{raw}");
            assert_eq!(m, message, "{raw}");
        }
    }
}
