//! The rule set of one game: board size, line length, overline, and the hands.

use super::cell::Player;
use super::error::GameError;
use super::opening::Opening;

/// The largest board side: `m` and `n` are at most 64.
pub const MAX_SIDE: usize = 64;
/// The most special pieces of one kind a player may hold.
pub const MAX_PIECES: u8 = 64;

/// The special pieces one player still holds. Marks are unlimited and not counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    /// Blocks: a neutral piece on an empty cell.
    pub block: u8,
    /// Removes: clears an opponent mark or a block.
    pub remove: u8,
    /// Bombs: clears the 3x3 area around a cell that holds a piece.
    pub bomb: u8,
}

impl Hand {
    /// A hand with these counts (checked against [`MAX_PIECES`] by [`Rules::new`]).
    pub fn new(block: u8, remove: u8, bomb: u8) -> Hand {
        Hand {
            block,
            remove,
            bomb,
        }
    }

    /// True when the hand holds no special piece at all.
    pub fn is_empty(&self) -> bool {
        self.block == 0 && self.remove == 0 && self.bomb == 0
    }
}

/// Which family of rules decides what wins and what may be played.
///
/// # Adding a rule variant
///
/// The rule questions are answered here, by `match`es with no wildcard, so the compiler
/// lists what a new variant must answer: its place in [`Variant::ALL`] and its name
/// ([`Variant::as_str`]), its Gomocup rule mask ([`Variant::gomocup_rule`],
/// [`Variant::from_gomocup_rule`]) and its Gomocup rule name ([`Variant::gomocup_name`]),
/// the line length it fixes ([`Variant::fixed_k`]), whose marks may be forbidden
/// ([`Variant::has_forbidden_cells`]), whether a line blocked at both ends wins
/// ([`Variant::blocked_line_wins`]), whether it plays on plain lines as freestyle does
/// ([`Variant::plain_lines`]), what [`Rules::with_variant`] accepts, who wins with an
/// overline ([`Rules::overline_wins`]), and in this crate's board its wins and forbidden
/// cells (`renju.rs`, `lines.rs`). The game's test `every_variant_answers_every_rule_question`
/// fails to compile until the variant has its place and its answers. The other crates
/// compare no variant: they ask these questions (the engine's learned weights, opening
/// tables, threat shortcut and bit-set solvers [`Variant::plain_lines`], its board
/// [`Variant::has_forbidden_cells`], the lab's Gomocup names and fixed line lengths), and
/// the API names the variants of [`Variant::ALL`] by [`Variant::as_str`], so a new variant
/// then needs only openapi/ regenerated (the server's OpenAPI test says how).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// k in a row wins; a longer line wins too unless `overline` is off (exactly k).
    #[default]
    Free,
    /// Renju (k = 5): x wins only with exactly five, and x may not make an overline,
    /// two fours or two open threes with one mark (unless it also makes five); o has no
    /// restriction and wins with five or more.
    Renju,
    /// Caro: exactly k wins (an overline does not), and only when the line is not
    /// blocked at both ends by the opponent's marks; the board's edge blocks nothing.
    Caro,
}

impl Variant {
    /// Every variant, the default first.
    pub const ALL: [Variant; 3] = [Variant::Free, Variant::Renju, Variant::Caro];

    /// The API name: `free`, `renju`, `caro`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Free => "free",
            Variant::Renju => "renju",
            Variant::Caro => "caro",
        }
    }

    /// Finds a variant by its API name (any case).
    pub fn parse(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(name))
    }

    /// True when some marks of `player` may be forbidden on an empty cell: renju's x (an
    /// overline, two fours or two open threes without a five), so a search asks the board
    /// before it marks. False for every mark of the other variants.
    #[inline]
    pub fn has_forbidden_cells(self, player: Player) -> bool {
        match self {
            Variant::Free | Variant::Caro => false,
            Variant::Renju => player == Player::X,
        }
    }

    /// True when a line of k wins even with the opponent's marks at both its ends; false
    /// under caro (the board's edge blocks nothing there).
    #[inline]
    pub fn blocked_line_wins(self) -> bool {
        match self {
            Variant::Free | Variant::Renju => true,
            Variant::Caro => false,
        }
    }

    /// True when the variant plays on plain lines as freestyle does: k in a row wins for
    /// whoever makes it (longer lines as the rules' `overline` says), whatever lies at its
    /// ends, and every empty cell may be marked by either side. What was learned or proved
    /// for freestyle holds exactly there: the engine's learned weights and opening tables,
    /// its three-ply threat shortcut and its bit-set solvers ask this.
    #[inline]
    pub fn plain_lines(self) -> bool {
        match self {
            Variant::Free => true,
            Variant::Renju | Variant::Caro => false,
        }
    }

    /// The Gomocup protocol's `INFO rule` bit mask for this variant: 0 freestyle (1 when
    /// `overline` is off: exactly five), 4 renju, 8 caro. Both ends of the protocol (the
    /// engine asking an external brain, the lab's brain answering) read it from here.
    pub fn gomocup_rule(self, overline: bool) -> u32 {
        match self {
            Variant::Free => u32::from(!overline),
            Variant::Renju => 4,
            Variant::Caro => 8,
        }
    }

    /// The variant and whether only exactly k wins (bit 1) of a Gomocup `INFO rule` mask
    /// (bits 1 exactly five, 2 continuous, 4 renju, 8 caro); an error names a mask with
    /// unknown bits or two variants at once.
    pub fn from_gomocup_rule(mask: u32) -> Result<(Variant, bool), String> {
        const KNOWN: u32 = 1 | 2 | 4 | 8;
        if mask & !KNOWN != 0 {
            return Err(format!(
                "rule {mask} has bits this brain does not know (1 exactly five, 2 continuous, 4 renju, 8 caro)"
            ));
        }
        let variant = match (mask & 4 != 0, mask & 8 != 0) {
            (true, true) => return Err(format!("rule {mask} asks for renju and caro at once")),
            (true, false) => Variant::Renju,
            (false, true) => Variant::Caro,
            (false, false) => Variant::Free,
        };
        Ok((variant, mask & 1 != 0))
    }

    /// The line length the variant is played with where it fixes one (renju: five);
    /// `None` where any k goes.
    pub fn fixed_k(self) -> Option<u32> {
        match self {
            Variant::Free | Variant::Caro => None,
            Variant::Renju => Some(5),
        }
    }

    /// The rule's name in Gomocup's tournaments and Rapfi's databases: `Freestyle`,
    /// `Standard` (freestyle with exactly five), `Renju`; `None` where it has none
    /// (caro).
    pub fn gomocup_name(self, overline: bool) -> Option<&'static str> {
        match self {
            Variant::Free if overline => Some("Freestyle"),
            Variant::Free => Some("Standard"),
            Variant::Renju => Some("Renju"),
            Variant::Caro => None,
        }
    }

    /// The variant and whether only exactly five wins of a Gomocup rule name
    /// ([`Variant::gomocup_name`]); `None` for another name.
    pub fn from_gomocup_name(name: &str) -> Option<(Variant, bool)> {
        Variant::ALL
            .into_iter()
            .flat_map(|v| [(v, true), (v, false)])
            .find(|&(v, overline)| v.gomocup_name(overline) == Some(name))
            .map(|(v, overline)| (v, !overline))
    }
}

/// A validated rule set: `m` columns, `n` rows, `k` in a row to win, whether a line
/// longer than `k` wins (`overline`), the variant, and the special pieces each player
/// still holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    m: usize,
    n: usize,
    k: u32,
    overline: bool,
    variant: Variant,
    gravity: bool,
    opening: Opening,
    hands: [Hand; 2],
}

impl Rules {
    /// Checks and builds a rule set. `m` and `n` must lie in `1..=64`, `k >= 1`,
    /// and every piece count at most 64. A `k` longer than the board is legal:
    /// such a game is always drawn.
    pub fn new(
        m: u64,
        n: u64,
        k: u64,
        overline: bool,
        hands: [Hand; 2],
    ) -> Result<Rules, GameError> {
        for (name, side) in [("m", m), ("n", n)] {
            if side == 0 || side > MAX_SIDE as u64 {
                return Err(GameError::rules(
                    format!("rules.{name}"),
                    format!("{name} is {side}, but it must be between 1 and {MAX_SIDE}"),
                ));
            }
        }
        if k == 0 {
            return Err(GameError::rules(
                "rules.k",
                "k is 0, but it must be at least 1",
            ));
        }
        for p in Player::BOTH {
            let hand = hands[p.index()];
            for (piece, count) in [
                ("block", hand.block),
                ("remove", hand.remove),
                ("bomb", hand.bomb),
            ] {
                if count > MAX_PIECES {
                    return Err(GameError::rules(
                        format!("rules.pieces.{p}.{piece}"),
                        format!("{p} holds {count} {piece} pieces, but at most {MAX_PIECES} are allowed"),
                    ));
                }
            }
        }
        Ok(Rules {
            m: m as usize,
            n: n as usize,
            // Any k beyond the longest line behaves the same: nobody can win.
            k: k.min(MAX_SIDE as u64 + 1) as u32,
            overline,
            variant: Variant::Free,
            gravity: false,
            opening: Opening::Free,
            hands,
        })
    }

    /// These rules under `variant`. Renju is defined for k = 5 only; renju and caro are
    /// played with marks only (a block, remove or bomb would break the shapes their
    /// rules are about), and both decide overlines themselves, so `overline` is set
    /// off: under caro no overline wins, under renju x's is forbidden and o's wins.
    pub fn with_variant(mut self, variant: Variant) -> Result<Rules, GameError> {
        if variant == Variant::Free {
            self.variant = variant;
            return Ok(self);
        }
        if self.gravity {
            return Err(GameError::rules(
                "rules.variant",
                format!(
                    "{} is not played with gravity (rules.gravity)",
                    variant.as_str()
                ),
            ));
        }
        if variant == Variant::Renju && self.k != 5 {
            return Err(GameError::rules(
                "rules.variant",
                format!("renju is played with k = 5, but k is {}", self.k),
            ));
        }
        if self.has_special_pieces() {
            return Err(GameError::rules(
                "rules.variant",
                format!(
                    "{} is played with marks only, but a player holds special pieces (rules.pieces)",
                    variant.as_str()
                ),
            ));
        }
        self.variant = variant;
        self.overline = false;
        Ok(self)
    }

    /// These rules with gravity on or off. Under gravity a mark drops to the lowest
    /// empty cell of its column (row `n - 1` is the bottom). Gravity is played with
    /// marks only under the free variant: a block, remove or bomb would leave stones
    /// floating, and renju's and caro's shapes are about free placement.
    pub fn with_gravity(mut self, gravity: bool) -> Result<Rules, GameError> {
        if gravity && self.has_special_pieces() {
            return Err(GameError::rules(
                "rules.gravity",
                "gravity is played with marks only, but a player holds special pieces (rules.pieces)",
            ));
        }
        if gravity && self.variant != Variant::Free {
            return Err(GameError::rules(
                "rules.gravity",
                format!(
                    "gravity is played under the free variant only, but rules.variant is {}",
                    self.variant.as_str()
                ),
            ));
        }
        if gravity && self.opening != Opening::Free {
            return Err(GameError::rules(
                "rules.opening",
                format!(
                    "{} is not played with gravity (rules.gravity)",
                    self.opening.as_str()
                ),
            ));
        }
        self.gravity = gravity;
        Ok(self)
    }

    /// These rules under the opening rule `opening` (see [`Opening`]). Every opening rule
    /// but `free` is played with marks only and without gravity (a block or a removal
    /// would undo what the opening placed; under gravity the centre is out of reach).
    /// Pro and long pro need a cell far enough from the centre; swap and swap2 need
    /// `k` of at least 4 (with a shorter line the placed stones could already win) and
    /// room for their stones.
    pub fn with_opening(mut self, opening: Opening) -> Result<Rules, GameError> {
        let refuse = |why: String| {
            Err(GameError::rules(
                "rules.opening",
                format!("{} {why}", opening.as_str()),
            ))
        };
        if opening == Opening::Free {
            self.opening = opening;
            return Ok(self);
        }
        if self.gravity {
            return refuse("is not played with gravity (rules.gravity)".into());
        }
        if self.has_special_pieces() {
            return refuse(
                "is played with marks only, but a player holds special pieces (rules.pieces)"
                    .into(),
            );
        }
        if let Some(d) = opening.distance() {
            let room = (self.m / 2).max(self.n / 2);
            if room < d {
                return refuse(format!(
                    "puts x's second stone at least {d} cells from the centre, but on a {}x{} board no cell is more than {room} away",
                    self.m, self.n
                ));
            }
        }
        if opening.has_phase() {
            if self.k < 4 {
                return refuse(format!(
                    "needs k of at least 4 (the placed stones must not decide the game), but k is {}",
                    self.k
                ));
            }
            if self.cells() <= opening.phase_stones() {
                return refuse(format!(
                    "places {} stones before the game goes on, but the board has {} cells",
                    opening.phase_stones(),
                    self.cells()
                ));
            }
        }
        self.opening = opening;
        Ok(self)
    }

    /// The classic rule set `m,n,k` with overline allowed and no special pieces.
    pub fn mnk(m: u64, n: u64, k: u64) -> Result<Rules, GameError> {
        Rules::new(m, n, k, true, [Hand::default(); 2])
    }

    /// Number of columns.
    pub fn m(&self) -> usize {
        self.m
    }
    /// Number of rows.
    pub fn n(&self) -> usize {
        self.n
    }
    /// Marks in a row needed to win (values past 65 are stored as 65: nobody can win either way).
    pub fn k(&self) -> u32 {
        self.k
    }
    /// True when a line longer than `k` also wins (freestyle); false for "exactly k".
    pub fn overline(&self) -> bool {
        self.overline
    }
    /// The variant ([`Variant::Free`] unless [`Rules::with_variant`] said otherwise).
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// True when a line of more than `k` marks of `player` wins.
    pub fn overline_wins(&self, player: Player) -> bool {
        match self.variant {
            Variant::Free => self.overline,
            Variant::Renju => player == Player::O,
            Variant::Caro => false,
        }
    }
    /// The opening rule ([`Opening::Free`] unless [`Rules::with_opening`] said otherwise).
    pub fn opening(&self) -> Opening {
        self.opening
    }
    /// True when a mark drops to the lowest empty cell of its column.
    pub fn gravity(&self) -> bool {
        self.gravity
    }
    /// What `player` holds at the start of the position.
    pub fn hand(&self, player: Player) -> Hand {
        self.hands[player.index()]
    }
    /// Both hands, `x` first.
    pub fn hands(&self) -> [Hand; 2] {
        self.hands
    }
    /// Total number of cells.
    pub fn cells(&self) -> usize {
        self.m * self.n
    }
    /// True when either player holds any special piece.
    pub fn has_special_pieces(&self) -> bool {
        self.hands.iter().any(|h| !h.is_empty())
    }
}
