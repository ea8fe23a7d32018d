//! The forgiving input forms of the requests, each refused with a message that names the
//! field and shows the expected shape:
//! - [`BoardInput`]: the board as row strings, as rows of one-character strings, or as
//!   one `/`-separated string;
//! - [`IncludeName`]: the parts of a suggestion that `include` keeps;
//! - [`AnswerOnly`]: the fields an answer carries that a request ignores, so that an
//!   answer's `after` can be sent back as it is.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, value::MapAccessDeserializer, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// `Deserialize` for an enum written as one of a few strings, refusing anything else with
/// `expecting` (serde_json's derived enums answer a number with a bare "expected value").
macro_rules! string_enum {
    ($ty:ty, $expecting:expr, { $($($name:literal)|+ => $value:expr),+ $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$ty, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = $ty;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($expecting)
                    }
                    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<$ty, E> {
                        match s {
                            $($($name)|+ => Ok($value),)+
                            _ => Err(E::invalid_value(serde::de::Unexpected::Str(s), &self)),
                        }
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}
pub(crate) use string_enum;

/// A request object, with what it must be (read after "rules must be"), for [`object`].
pub trait Shape {
    /// An example of the object, for the error message.
    const EXPECTING: &'static str;
}

/// `deserialize_with` for a field holding an object: only a JSON object is read (serde's
/// derive would read a struct from an array too, element by element).
pub fn object<'de, D: Deserializer<'de>, T: Deserialize<'de> + Shape>(d: D) -> Result<T, D::Error> {
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de> + Shape> Visitor<'de> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

/// [`object`] for an optional field (null is `None`).
pub fn optional_object<'de, D: Deserializer<'de>, T: Deserialize<'de> + Shape>(
    d: D,
) -> Result<Option<T>, D::Error> {
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de> + Shape> Visitor<'de> for V<T> {
        type Value = Option<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
            Ok(None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Option<T>, A::Error> {
            T::deserialize(MapAccessDeserializer::new(map)).map(Some)
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

/// What `board` must be; reads after "board must be".
const BOARD_SHAPE: &str = "an array of rules.n strings of rules.m characters like \
[\"x..\", \".o.\", \"...\"] ('.' empty, 'x', 'o', '#' block), an array of rules.n arrays of \
one-character strings like [[\"x\", \".\", \".\"], [\".\", \"o\", \".\"], [\".\", \".\", \".\"]], \
or one string with the rows separated by '/' like \"x../.o./...\"";

/// What one row of an array `board` must be.
const ROW_SHAPE: &str = "a row: a string of rules.m characters like \"x.o\", or an array of \
rules.m one-character strings like [\"x\", \".\", \"o\"]";

/// The board of a request in any of its three notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardInput {
    /// One string per row (a row given as an array of characters is joined).
    Rows(Vec<String>),
    /// One string, rows separated by `/`.
    Slashed(String),
}

impl BoardInput {
    /// The rows, one string each.
    pub fn rows(&self) -> Vec<&str> {
        match self {
            BoardInput::Rows(rows) => rows.iter().map(String::as_str).collect(),
            BoardInput::Slashed(s) => s.split('/').collect(),
        }
    }
}

impl<'de> Deserialize<'de> for BoardInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BoardInput, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = BoardInput;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(BOARD_SHAPE)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<BoardInput, E> {
                Ok(BoardInput::Slashed(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoardInput, A::Error> {
                let mut rows = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
                while let Some(Row(row)) = seq.next_element()? {
                    rows.push(row);
                }
                Ok(BoardInput::Rows(rows))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for BoardInput {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BoardInput::Rows(rows) => rows.serialize(s),
            BoardInput::Slashed(text) => text.serialize(s),
        }
    }
}

/// One row of an array board.
struct Row(String);

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Row, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Row;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(ROW_SHAPE)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Row, E> {
                Ok(Row(s.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Row, A::Error> {
                let mut row = String::new();
                while let Some(OneChar(c)) = seq.next_element()? {
                    row.push(c);
                }
                Ok(Row(row))
            }
        }
        d.deserialize_any(V)
    }
}

/// One cell of a row given as an array: a one-character string.
struct OneChar(char);

impl<'de> Deserialize<'de> for OneChar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OneChar, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = OneChar;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a one-character string like \"x\", \"o\", \".\" or \"#\"")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<OneChar, E> {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Ok(OneChar(c)),
                    _ => Err(E::invalid_value(de::Unexpected::Str(s), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

impl PartialSchema for BoardInput {
    fn schema() -> RefOr<Schema> {
        let rows = ArrayBuilder::new()
            .items(ObjectBuilder::new().schema_type(Type::String))
            .max_items(Some(64))
            .description(Some(
                "One string per row (rules.n strings of rules.m characters).",
            ));
        let cells = ArrayBuilder::new()
            .items(
                ArrayBuilder::new()
                    .items(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .min_length(Some(1))
                            .max_length(Some(1)),
                    )
                    .max_items(Some(64)),
            )
            .max_items(Some(64))
            .description(Some(
                "One array per row of one-character strings (rules.n arrays of rules.m cells).",
            ));
        let slashed = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "One string, the rows separated by '/' (\"x../.o./...\").",
            ));
        RefOr::T(Schema::OneOf(
            OneOfBuilder::new()
                .item(rows)
                .item(cells)
                .item(slashed)
                .description(Some(
                    "The board: `rules.n` rows of `rules.m` cells, `.` (or `-`, `_`) empty, \
`x`/`X`, `o`/`O`, `#` block; row 0 first. Three notations: an array of row strings \
(`[\"x..\", \".o.\", \"...\"]`, what answers write), an array of arrays of one-character \
strings, or one string with the rows separated by `/` (`\"x../.o./...\"`).",
                ))
                .examples([serde_json::json!(["x..", ".o.", "..."])])
                .build(),
        ))
    }
}

impl ToSchema for BoardInput {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Board")
    }
}

/// A part of a suggestion that `include` keeps (`move` is always kept).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum IncludeName {
    /// `move`, the chosen move.
    Move,
    /// `to_move`.
    ToMove,
    /// `engine`.
    Engine,
    /// `evaluation`.
    Evaluation,
    /// `scores`, the board-shaped grid.
    Scores,
    /// `moves`, every evaluated move.
    Moves,
    /// `pv`, the principal variation.
    Pv,
    /// `after`, the position after the move.
    After,
    /// `stats`.
    Stats,
    /// `limits`.
    Limits,
}

/// True when an answer trimmed by `include` shows the other cells' values (`scores` or
/// `moves`, or the whole answer): only then does the search value every cell.
pub fn shows_every_cell(include: Option<&[IncludeName]>) -> bool {
    include.is_none_or(|keep| {
        keep.iter()
            .any(|n| matches!(n, IncludeName::Scores | IncludeName::Moves))
    })
}

string_enum!(IncludeName, "one of \"move\", \"to_move\", \"engine\", \"evaluation\", \"scores\", \"moves\", \"pv\", \"after\", \"stats\", \"limits\"", {
    "move" => IncludeName::Move,
    "to_move" => IncludeName::ToMove,
    "engine" => IncludeName::Engine,
    "evaluation" => IncludeName::Evaluation,
    "scores" => IncludeName::Scores,
    "moves" => IncludeName::Moves,
    "pv" => IncludeName::Pv,
    "after" => IncludeName::After,
    "stats" => IncludeName::Stats,
    "limits" => IncludeName::Limits,
});

impl IncludeName {
    /// The field of the answer it keeps.
    pub fn key(self) -> &'static str {
        match self {
            IncludeName::Move => "move",
            IncludeName::ToMove => "to_move",
            IncludeName::Engine => "engine",
            IncludeName::Evaluation => "evaluation",
            IncludeName::Scores => "scores",
            IncludeName::Moves => "moves",
            IncludeName::Pv => "pv",
            IncludeName::After => "after",
            IncludeName::Stats => "stats",
            IncludeName::Limits => "limits",
        }
    }
}

/// Keeps only `move` and the fields `include` names of a serialized suggestion; all of it
/// when `include` is absent.
pub fn trim(answer: serde_json::Value, include: Option<&[IncludeName]>) -> serde_json::Value {
    match (answer, include) {
        (serde_json::Value::Object(mut map), Some(keep)) => {
            map.retain(|k, _| k == "move" || keep.iter().any(|i| i.key() == k));
            serde_json::Value::Object(map)
        }
        (answer, _) => answer,
    }
}

/// An answer-only field in a request (`status`, `winner`, ...): accepted whatever it holds,
/// and ignored.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerOnly;

impl<'de> Deserialize<'de> for AnswerOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnswerOnly, D::Error> {
        de::IgnoredAny::deserialize(d).map(|_| AnswerOnly)
    }
}

/// `skip_serializing_if` for the answer-only fields: a request never writes them back.
pub fn never(_: &Option<AnswerOnly>) -> bool {
    true
}

impl Serialize for AnswerOnly {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

impl PartialSchema for AnswerOnly {
    fn schema() -> RefOr<Schema> {
        RefOr::T(Schema::Object(
            ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
                .description(Some(
                    "Answer-only: a field of an earlier answer (its `after`, or a `/v1/state` \
answer), accepted with any value and ignored, so that an answer can be sent back as it is.",
                ))
                .build(),
        ))
    }
}

impl ToSchema for AnswerOnly {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("AnswerOnly")
    }
}
