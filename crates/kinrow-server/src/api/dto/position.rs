//! The pieces of positions in requests and answers (sides, pieces, hands, rules, cells,
//! moves) and their conversions into the game's types. Every conversion error names its
//! field.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::forms::{optional_object, string_enum, BoardInput, Shape};
use super::opening_rule::OpeningName;
use crate::api::error::{ApiError, ErrorCode};
use kinrow_game::{Coord, Hand, Move, Opening, Piece, Player, Position, Rules, Variant, MAX_SIDE};

/// Integer fields: JSON Schema counts `3.0` as an integer, so these accept integral
/// floats as well as integers; anything outside `i64` is an error.
pub mod int {
    use serde::de::{self, Deserializer, Visitor};
    use std::fmt;

    struct Int;

    impl Visitor<'_> for Int {
        type Value = i64;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an integer like 3")
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }

        fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
            // 2^63 is exactly representable; every integral float below it fits.
            if v.fract() == 0.0 && v >= -(2f64.powi(63)) && v < 2f64.powi(63) {
                Ok(v as i64)
            } else {
                Err(E::invalid_value(de::Unexpected::Float(v), &self))
            }
        }
    }

    /// A required integer field.
    pub fn required<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        d.deserialize_any(Int)
    }

    struct OptInt;

    impl<'de> Visitor<'de> for OptInt {
        type Value = Option<i64>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an integer like 3, or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Option<i64>, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Option<i64>, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<i64>, D::Error> {
            required(d).map(Some)
        }
    }

    /// An optional integer field (null or absent is `None`).
    pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_option(OptInt)
    }
}

// ----- pieces of positions -----

/// A player: `x` (moves first) or `o`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "x")]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

string_enum!(Side, "\"x\" or \"o\"", { "x" | "X" => Side::X, "o" | "O" => Side::O });

impl From<Side> for Player {
    fn from(s: Side) -> Player {
        match s {
            Side::X => Player::X,
            Side::O => Player::O,
        }
    }
}

impl From<Player> for Side {
    fn from(p: Player) -> Side {
        match p {
            Player::X => Side::X,
            Player::O => Side::O,
        }
    }
}

/// What a move plays: `mark` (own mark on an empty cell), `block` (a neutral block on an
/// empty cell), `remove` (clears an opponent mark or a block), `bomb` (clears the 3x3 area
/// around the target, which must hold at least one piece).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PieceName {
    /// The mover's own mark on an empty cell.
    Mark,
    /// A neutral block on an empty cell.
    Block,
    /// Clears an opponent mark or a block.
    Remove,
    /// Clears the 3x3 area around a cell that holds a piece.
    Bomb,
}

string_enum!(PieceName, "one of \"mark\", \"block\", \"remove\", \"bomb\"", {
    "mark" => PieceName::Mark,
    "block" => PieceName::Block,
    "remove" => PieceName::Remove,
    "bomb" => PieceName::Bomb,
});

impl From<PieceName> for Piece {
    fn from(p: PieceName) -> Piece {
        match p {
            PieceName::Mark => Piece::Mark,
            PieceName::Block => Piece::Block,
            PieceName::Remove => Piece::Remove,
            PieceName::Bomb => Piece::Bomb,
        }
    }
}

impl From<Piece> for PieceName {
    fn from(p: Piece) -> PieceName {
        match p {
            Piece::Mark => PieceName::Mark,
            Piece::Block => PieceName::Block,
            Piece::Remove => PieceName::Remove,
            Piece::Bomb => PieceName::Bomb,
        }
    }
}

/// The special pieces one player still holds. Omitted counts are 0; each is at most 64.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Hand)]
#[serde(deny_unknown_fields)]
pub struct HandDto {
    /// Blocks held.
    #[schema(minimum = 0, maximum = 64)]
    #[serde(default, deserialize_with = "int::optional")]
    pub block: Option<i64>,
    /// Removes held.
    #[schema(minimum = 0, maximum = 64)]
    #[serde(default, deserialize_with = "int::optional")]
    pub remove: Option<i64>,
    /// Bombs held.
    #[schema(minimum = 0, maximum = 64)]
    #[serde(default, deserialize_with = "int::optional")]
    pub bomb: Option<i64>,
}

impl Shape for HandDto {
    const EXPECTING: &'static str = "an object like {\"block\": 1, \"remove\": 1, \"bomb\": 0}";
}

/// What each player STILL holds (the request is a snapshot). Omitted players hold nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Pieces)]
#[serde(deny_unknown_fields)]
pub struct PiecesDto {
    /// What x holds.
    #[serde(default, deserialize_with = "optional_object")]
    pub x: Option<HandDto>,
    /// What o holds.
    #[serde(default, deserialize_with = "optional_object")]
    pub o: Option<HandDto>,
}

impl Shape for PiecesDto {
    const EXPECTING: &'static str =
        "an object like {\"x\": {\"block\": 1}, \"o\": {\"remove\": 1}}";
}

/// The rule family by its API name, [`Variant::as_str`] (read in any case): the names
/// are the game's [`Variant::ALL`], so the API follows a new variant without naming it
/// here (the schema's enum is built from them; regenerate openapi/ as its test says).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VariantName(pub Variant);

/// The schema's description of the rule families.
const VARIANT_DESCRIPTION: &str =
    "The rule family: `free` (k in a row, `overline` as given), `renju` (k = 5; x wins
only with exactly five and may not make an overline, two fours or two open threes;
o wins with five or more) or `caro` (exactly k, not blocked at both ends by the
opponent; the board's edge blocks nothing). Read in any case.";

impl PartialSchema for VariantName {
    fn schema() -> RefOr<Schema> {
        let names = Variant::ALL.map(Variant::as_str);
        let b = ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(VARIANT_DESCRIPTION))
            .enum_values(Some(names));
        RefOr::T(Schema::Object(b.build()))
    }
}

impl ToSchema for VariantName {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Variant")
    }
}

impl Serialize for VariantName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.as_str())
    }
}

impl<'de> Deserialize<'de> for VariantName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<VariantName, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = VariantName;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                let names = Variant::ALL.map(|v| format!("\"{}\"", v.as_str()));
                write!(f, "one of {}", names.join(", "))
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<VariantName, E> {
                Variant::parse(s)
                    .map(VariantName)
                    .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(s), &self))
            }
        }
        d.deserialize_any(V)
    }
}

/// The rule set: `m` columns, `n` rows, `k` in a row wins, under a `variant`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Rules)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"m": 3, "n": 3, "k": 3, "overline": true}))]
pub struct RulesDto {
    /// Columns, 1 to 64.
    #[schema(minimum = 1, maximum = 64, example = 3)]
    #[serde(deserialize_with = "int::required")]
    pub m: i64,
    /// Rows, 1 to 64.
    #[schema(minimum = 1, maximum = 64, example = 3)]
    #[serde(deserialize_with = "int::required")]
    pub n: i64,
    /// Marks in an unbroken line needed to win, at least 1. A `k` longer than both sides is
    /// legal: such a game is always drawn.
    #[schema(minimum = 1, example = 3)]
    #[serde(deserialize_with = "int::required")]
    pub k: i64,
    /// True (the default): a line longer than `k` wins too (freestyle). False: only exactly `k`.
    pub overline: Option<bool>,
    /// The special pieces each player still holds; none when omitted.
    #[serde(default, deserialize_with = "optional_object")]
    pub pieces: Option<PiecesDto>,
    /// `free` when omitted. `renju` needs `k` = 5; `renju` and `caro` are played with
    /// marks only (special pieces are refused with 422 `invalid_rules` at `rules.variant`)
    /// and decide overlines themselves: answers write `overline` back as false.
    pub variant: Option<VariantName>,
    /// False when omitted. True: a mark drops to the lowest empty cell of its column
    /// (Connect Four is m 7, n 6, k 4 with gravity); row 0 stays the top row. Marks only,
    /// under the free variant: special pieces, renju and caro are refused with 422
    /// `invalid_rules` at `rules.gravity` / `rules.variant`. The board may then also be
    /// given as the Connect Four move sequence, 1-based column digits (`"4453"`; `""`
    /// is the empty board, and any string without `/` is read as a sequence).
    pub gravity: Option<bool>,
    /// `free` when omitted; see `OpeningRule`. Refused with 422 `invalid_rules` at
    /// `rules.opening` with gravity, special pieces, a board too small for pro's
    /// distance, or `k` below 4 under swap and swap2.
    pub opening: Option<OpeningName>,
}

impl Shape for RulesDto {
    const EXPECTING: &'static str = "an object like {\"m\": 15, \"n\": 15, \"k\": 5}";
}

/// The count `v` of `player`'s `piece` (the field's name is only written out for an
/// error: this runs on every request).
fn count(v: Option<i64>, player: &str, piece: &str) -> Result<u8, ApiError> {
    let v = v.unwrap_or(0);
    u8::try_from(v).map_err(|_| {
        ApiError::at(
            ErrorCode::InvalidRules,
            format!("rules.pieces.{player}.{piece}"),
            format!("{v} is not a piece count; counts go from 0 to 64"),
        )
    })
}

fn hand(h: &Option<HandDto>, player: &str) -> Result<Hand, ApiError> {
    let h = h.clone().unwrap_or_default();
    Ok(Hand::new(
        count(h.block, player, "block")?,
        count(h.remove, player, "remove")?,
        count(h.bomb, player, "bomb")?,
    ))
}

impl TryFrom<&RulesDto> for Rules {
    type Error = ApiError;

    fn try_from(r: &RulesDto) -> Result<Rules, ApiError> {
        let side = |v: i64, name: &str| {
            u64::try_from(v).map_err(|_| {
                ApiError::at(
                    ErrorCode::InvalidRules,
                    format!("rules.{name}"),
                    format!("{name} is {v}, but it must be between 1 and {MAX_SIDE}"),
                )
            })
        };
        let k = u64::try_from(r.k).map_err(|_| {
            ApiError::at(
                ErrorCode::InvalidRules,
                "rules.k",
                format!("k is {}, but it must be at least 1", r.k),
            )
        })?;
        let pieces = r.pieces.clone().unwrap_or_default();
        let hands = [hand(&pieces.x, "x")?, hand(&pieces.o, "o")?];
        let rules = Rules::new(
            side(r.m, "m")?,
            side(r.n, "n")?,
            k,
            r.overline.unwrap_or(true),
            hands,
        )?;
        Ok(rules
            .with_variant(r.variant.map(|v| v.0).unwrap_or_default())?
            .with_gravity(r.gravity.unwrap_or(false))?
            .with_opening(r.opening.map_or(Opening::Free, Opening::from))?)
    }
}

fn hand_dto(h: Hand) -> HandDto {
    HandDto {
        block: Some(h.block.into()),
        remove: Some(h.remove.into()),
        bomb: Some(h.bomb.into()),
    }
}

impl From<&Rules> for RulesDto {
    fn from(r: &Rules) -> RulesDto {
        RulesDto {
            m: r.m() as i64,
            n: r.n() as i64,
            k: r.k() as i64,
            overline: Some(r.overline()),
            pieces: Some(PiecesDto {
                x: Some(hand_dto(r.hand(Player::X))),
                o: Some(hand_dto(r.hand(Player::O))),
            }),
            variant: Some(VariantName(r.variant())),
            gravity: Some(r.gravity()),
            opening: Some(r.opening().into()),
        }
    }
}

/// Builds the position of a request: rules, board (`None` = empty) and side to move.
pub fn position(
    rules: &RulesDto,
    board: &Option<BoardInput>,
    to_move: Option<Side>,
) -> Result<Position, ApiError> {
    let rules = Rules::try_from(rules)?;
    if let Some(digits) = board_sequence(&rules, board) {
        // A Connect Four move sequence; the side to move is checked as for a board.
        let p = Position::from_column_digits(&rules, digits, "board")?;
        let cells = p.cells().to_vec();
        return Ok(Position::from_cells(
            &rules,
            cells,
            to_move.map(Player::from),
        )?);
    }
    let rows = board.as_ref().map(BoardInput::rows);
    Ok(Position::new(
        &rules,
        rows.as_deref(),
        to_move.map(Player::from),
    )?)
}

/// `board` where it is a Connect Four move sequence: under gravity a string of one row
/// where the board has several can only be one (the empty one included), and is read as
/// one so that a bad character is named (`move 3: 'a' is not a column`) rather than the
/// count of rows.
fn board_sequence<'a>(rules: &Rules, board: &'a Option<BoardInput>) -> Option<&'a str> {
    let Some(BoardInput::Slashed(digits)) = board else {
        return None;
    };
    let sequence =
        kinrow_game::is_column_digits(digits) || (!digits.contains('/') && rules.n() > 1);
    (rules.gravity() && sequence).then_some(digits.as_str())
}

/// The order a request's stones were played in, where the request gives one: its
/// `moves`, else a `board` written as a move sequence; `None` when it gives only the
/// board (whose order an answer then finds from the stones). Call it on a request whose
/// position was read without error: the order is not checked again here.
pub fn known_order(
    rules: &RulesDto,
    board: &Option<BoardInput>,
    moves: &Option<String>,
) -> Option<String> {
    if let Some(digits) = moves {
        return Some(digits.clone());
    }
    let rules = Rules::try_from(rules).ok()?;
    board_sequence(&rules, board).map(str::to_string)
}

/// The move sequence `order` continued by `mv`, when the game's order is known and `mv`
/// is a mark in a column a digit names (a block, remove or bomb has no column digit).
pub fn continued_order(order: Option<&str>, mv: &MoveDto) -> Option<String> {
    let order = order?;
    (mv.piece == PieceName::Mark && mv.col < 9).then(|| format!("{order}{}", mv.col + 1))
}

/// [`position`] with a request's `moves` (a Connect Four move sequence under gravity):
/// the position where `board` is absent, else checked to reach the same board and turn.
pub fn position_with_moves(
    rules: &RulesDto,
    board: &Option<BoardInput>,
    to_move: Option<Side>,
    moves: &Option<String>,
) -> Result<Position, ApiError> {
    let Some(digits) = moves else {
        return position(rules, board, to_move);
    };
    let by_moves = Position::from_column_digits(&Rules::try_from(rules)?, digits, "moves")?;
    let by_moves = Position::from_cells(
        &by_moves.rules(),
        by_moves.cells().to_vec(),
        to_move.map(Player::from),
    )?;
    if board.is_none() {
        return Ok(by_moves);
    }
    let p = position(rules, board, to_move)?;
    if p.cells() != by_moves.cells() || p.to_move() != by_moves.to_move() {
        return Err(ApiError::at(
            ErrorCode::InvalidBoard,
            "moves",
            format!("the sequence {digits:?} does not reach the board given in `board`"),
        ));
    }
    Ok(p)
}

/// A cell: zero-based `row` (0 is the first board string) and `col`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Cell)]
pub struct CellDto {
    /// Zero-based row.
    #[schema(example = 7)]
    pub row: u32,
    /// Zero-based column.
    #[schema(example = 7)]
    pub col: u32,
}

impl From<Coord> for CellDto {
    fn from(c: Coord) -> CellDto {
        CellDto {
            row: c.row as u32,
            col: c.col as u32,
        }
    }
}

/// A move of an answer: `piece` played on the cell at `row`, `col`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Move)]
pub struct MoveDto {
    /// Zero-based row.
    #[schema(example = 7)]
    pub row: u32,
    /// Zero-based column.
    #[schema(example = 7)]
    pub col: u32,
    /// What is played there.
    pub piece: PieceName,
}

impl MoveDto {
    /// `mv` on a board of `m` columns.
    pub fn new(mv: Move, m: usize) -> MoveDto {
        let c = mv.coord(m);
        MoveDto {
            row: c.row as u32,
            col: c.col as u32,
            piece: mv.piece.into(),
        }
    }
}

/// The move to play: `piece` (default `mark`) on the cell at zero-based `row`, `col`.
/// Under gravity `row` may be left out: the stone lands on the column's lowest empty
/// cell (a given `row` must be that one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"row": 0, "col": 1, "piece": "mark"}))]
pub struct MoveRequest {
    /// Zero-based row (0 is the first board string); under gravity it may be left out.
    #[schema(minimum = 0, maximum = 63, example = 0)]
    #[serde(default, deserialize_with = "int::optional")]
    pub row: Option<i64>,
    /// Zero-based column.
    #[schema(minimum = 0, maximum = 63, example = 1)]
    #[serde(deserialize_with = "int::required")]
    pub col: i64,
    /// Defaults to `mark`.
    pub piece: Option<PieceName>,
}

impl Shape for MoveRequest {
    const EXPECTING: &'static str = "an object like {\"row\": 7, \"col\": 7, \"piece\": \"mark\"}";
}

impl MoveRequest {
    /// The game move on `position`'s board; a cell off the board is an `illegal_move`
    /// naming `move.row` or `move.col`.
    pub fn to_move(&self, position: &Position) -> Result<Move, ApiError> {
        let check = |v: i64, limit: usize, name: &str, what: &str| {
            usize::try_from(v)
                .ok()
                .filter(|&x| x < limit)
                .ok_or_else(|| {
                    ApiError::at(
                        ErrorCode::IllegalMove,
                        format!("move.{name}"),
                        format!(
                            "{name} {v} is off the board: it has {limit} {what}, numbered from 0"
                        ),
                    )
                })
        };
        let col = check(self.col, position.m(), "col", "columns")?;
        let row = match self.row {
            Some(row) => check(row, position.n(), "row", "rows")?,
            None if position.gravity() => position.landing_row(col).ok_or_else(|| {
                ApiError::at(
                    ErrorCode::IllegalMove,
                    "move.col",
                    format!("column {col} is full"),
                )
            })?,
            None => {
                return Err(ApiError::at(
                    ErrorCode::IllegalMove,
                    "move.row",
                    "row is required (only under gravity does a column alone name a cell)",
                ))
            }
        };
        let piece = self.piece.unwrap_or(PieceName::Mark).into();
        Ok(Move::new(row * position.m() + col, piece))
    }
}
