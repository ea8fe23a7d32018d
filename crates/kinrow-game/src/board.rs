//! The position: cells, both hands, the side to move, and how moves change it.
//!
//! Three ways to play a move: [`Position::try_play`] (checked, returns an error that
//! says why a move is illegal), [`Position::play`] (checked, panics on misuse) and
//! [`Position::play_unchecked`] (the search path: only `debug_assert!`s). Each returns
//! an [`Undo`] token, a small `Copy` value that [`Position::undo`] takes back: no
//! allocation per move.

mod gravity;
mod image;
mod opening;

use std::sync::Arc;

use super::cell::{Cell, Coord, Player};
use super::error::{GameError, GameErrorKind};
use super::lines::{win_through, Geometry, WinLine};
use super::moves::{Move, Piece};
use super::notation;
use super::opening::check_board as check_opening;
use super::rules::{Hand, Rules};
use super::setup::{check_floating, check_marks_only, decide_side_to_move, find_win, full_hash};
use super::zobrist::{cell_key, hand_key, SIDE_KEY};

/// Whether the game goes on, and if not, how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move has a legal move and nobody has won.
    InProgress,
    /// `line` is a winning line of `winner`.
    Won {
        /// Who has the line.
        winner: Player,
        /// The line's cells, in order.
        line: Vec<Coord>,
    },
    /// Nobody has won and the side to move has no legal move.
    Draw,
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Copy, Clone, Debug)]
pub struct Undo {
    mv: Move,
    /// Contents before the move: the target first, then (for a bomb) its neighbours
    /// in [`Geometry::neighbours`] order.
    before: [Cell; 9],
    hash: u64,
    win: Option<WinLine>,
}

/// A position of an m,n,k-game: the board, what each player still holds, and whose
/// turn it is. Built only through [`Position::new`] (or its siblings), which checks
/// everything; past that, engines can trust it.
#[derive(Clone, Debug)]
pub struct Position {
    geo: Arc<Geometry>,
    rules: Rules,
    cells: Vec<Cell>,
    hands: [Hand; 2],
    to_move: Player,
    hash: u64,
    marks: [u32; 2],
    blocks: u32,
    empties: u32,
    win: Option<WinLine>,
    ply: u32,
}

impl Position {
    /// The empty board of `rules`, `x` to move.
    pub fn empty(rules: &Rules) -> Position {
        let cells = vec![Cell::Empty; rules.cells()];
        Position::from_cells(rules, cells, Some(Player::X))
            .expect("the empty board is always valid")
    }

    /// Parses `board` (the API notation, one string per row; `None` = the empty board)
    /// and checks it against `rules` and `to_move` as the API contract says.
    pub fn new<S: AsRef<str>>(
        rules: &Rules,
        board: Option<&[S]>,
        to_move: Option<Player>,
    ) -> Result<Position, GameError> {
        let cells = match board {
            Some(rows) => notation::parse_board(rows, rules.m(), rules.n())?,
            None => vec![Cell::Empty; rules.cells()],
        };
        Position::from_cells(rules, cells, to_move)
    }

    /// Builds a position from row-major cell contents, inferring or checking the side
    /// to move and finding any winning line already on the board.
    ///
    /// Side to move: when no special piece is in play (no hand holds one and no block
    /// is on the board) it follows from the counts, `x` when equal and `o` when `x` has
    /// one more, and a given `to_move` must agree. When special pieces are in play the
    /// counts prove nothing: a given `to_move` is taken as it is; without one, the
    /// counts are used if only blocks (no held pieces) are involved and they fit, and
    /// otherwise `to_move` is required.
    pub fn from_cells(
        rules: &Rules,
        cells: Vec<Cell>,
        to_move: Option<Player>,
    ) -> Result<Position, GameError> {
        assert_eq!(
            cells.len(),
            rules.cells(),
            "cell count must match the rules"
        );
        let geo = Geometry::shared(
            rules.m(),
            rules.n(),
            rules.k(),
            rules.overline(),
            rules.variant(),
        );
        let mut marks = [0u32; 2];
        let mut blocks = 0;
        for &c in &cells {
            match c {
                Cell::Mark(p) => marks[p.index()] += 1,
                Cell::Block => blocks += 1,
                Cell::Empty => {}
            }
        }
        let empties = (cells.len() as u32) - marks[0] - marks[1] - blocks;
        check_floating(rules, &cells)?;
        check_marks_only(rules, &cells)?;
        check_opening(rules.opening(), rules.m(), rules.n(), &cells)?;
        let win = find_win(&geo, &cells)?;
        let to_move = decide_side_to_move(rules, marks, blocks, to_move)?;
        if let Some(w) = win {
            if w.player == to_move {
                return Err(GameError::turn(format!(
                    "{} already has {} in a row, so {} moved last and {} is to move",
                    w.player,
                    rules.k(),
                    w.player,
                    w.player.opponent()
                )));
            }
        }
        let hands = rules.hands();
        let hash = full_hash(&cells, hands, to_move);
        Ok(Position {
            geo,
            rules: rules.clone(),
            cells,
            hands,
            to_move,
            hash,
            marks,
            blocks,
            empties,
            win,
            ply: 0,
        })
    }

    // ----- reading the position -----

    /// The shared geometry (board size, k, neighbourhoods, windows).
    #[inline]
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geo
    }
    /// Columns.
    #[inline]
    pub fn m(&self) -> usize {
        self.geo.m
    }
    /// Rows.
    #[inline]
    pub fn n(&self) -> usize {
        self.geo.n
    }
    /// Marks in a row needed to win.
    #[inline]
    pub fn k(&self) -> u32 {
        self.geo.k
    }
    /// The rule set with the hands as they are now (what `/v1/play` answers).
    pub fn rules(&self) -> Rules {
        Rules::new(
            self.m() as u64,
            self.n() as u64,
            self.rules.k() as u64,
            self.geo.overline,
            self.hands,
        )
        .and_then(|r| r.with_variant(self.geo.variant))
        .and_then(|r| r.with_gravity(self.rules.gravity()))
        .and_then(|r| r.with_opening(self.rules.opening()))
        .expect("hands only shrink, so the rules stay valid")
    }
    /// Every cell, row-major.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
    /// The content of cell index `cell`.
    #[inline]
    pub fn cell(&self, cell: usize) -> Cell {
        self.cells[cell]
    }
    /// The content of the cell at `c`.
    pub fn cell_at(&self, c: Coord) -> Cell {
        self.cells[self.geo.index(c)]
    }
    /// The player whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    /// The special pieces `player` still holds.
    #[inline]
    pub fn hand(&self, player: Player) -> Hand {
        self.hands[player.index()]
    }
    /// True when either player still holds a special piece.
    #[inline]
    pub fn has_special_pieces(&self) -> bool {
        !self.hands[0].is_empty() || !self.hands[1].is_empty()
    }
    /// The Zobrist hash of cells, hands and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Marks of `player` on the board.
    #[inline]
    pub fn marks(&self, player: Player) -> u32 {
        self.marks[player.index()]
    }
    /// Blocks on the board.
    #[inline]
    pub fn blocks(&self) -> u32 {
        self.blocks
    }
    /// Empty cells.
    #[inline]
    pub fn empties(&self) -> u32 {
        self.empties
    }
    /// Moves played since this position was built.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// The winner, if someone has `k` in a row.
    #[inline]
    pub fn winner(&self) -> Option<Player> {
        self.win.map(|w| w.player)
    }
    /// The winning line, if any.
    #[inline]
    pub fn win_line(&self) -> Option<WinLine> {
        self.win
    }

    /// The board in canonical notation, one string per row.
    pub fn to_rows(&self) -> Vec<String> {
        notation::format_board(&self.cells, self.m())
    }

    /// True when the game is over (a win, or no legal move for the side to move).
    #[inline]
    pub fn is_over(&self) -> bool {
        self.win.is_some() || !self.has_legal_move()
    }

    /// The status of the game, with the winning line when there is one.
    pub fn status(&self) -> Status {
        if let Some(w) = self.win {
            Status::Won {
                winner: w.player,
                line: w.cells(),
            }
        } else if self.has_legal_move() {
            Status::InProgress
        } else {
            Status::Draw
        }
    }

    /// True when the side to move has at least one legal move (ignoring a win on the board).
    pub fn has_legal_move(&self) -> bool {
        if self.empties > 0 {
            // Under renju x may have only forbidden cells left (under pro, never); checked cell by cell,
            // and the first allowed one ends the search.
            return !self.marks_restricted()
                || (0..self.cells.len())
                    .any(|i| self.cells[i] == Cell::Empty && self.forbidden(i).is_none());
        }
        let hand = self.hands[self.to_move.index()];
        let opponent_pieces = self.marks[self.to_move.opponent().index()] + self.blocks;
        (hand.remove > 0 && opponent_pieces > 0) || hand.bomb > 0
    }

    // ----- legality -----

    /// True when `mv` is legal here. Never panics, whatever `mv` holds.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    fn check_move(&self, mv: Move) -> Result<(), GameError> {
        if let Some(w) = self.win {
            return Err(GameError::new(
                GameErrorKind::GameOver,
                "board",
                format!("the game is over: {} has won", w.player),
            ));
        }
        if !self.has_legal_move() {
            return Err(GameError::new(
                GameErrorKind::GameOver,
                "board",
                "the game is over: it is a draw",
            ));
        }
        let cell = mv.cell();
        if cell >= self.cells.len() {
            return Err(GameError::illegal(
                "move",
                format!("cell {cell} is off the {}x{} board", self.m(), self.n()),
            ));
        }
        let me = self.to_move;
        let hand = self.hands[me.index()];
        let held = match mv.piece {
            Piece::Mark => 1,
            Piece::Block => hand.block,
            Piece::Remove => hand.remove,
            Piece::Bomb => hand.bomb,
        };
        if held == 0 {
            return Err(GameError::illegal(
                "move.piece",
                format!("{me} holds no {} piece", mv.piece),
            ));
        }
        let c = self.geo.coord(cell);
        let here = self.cells[cell];
        self.check_landing(c, here)?;
        if mv.piece == Piece::Mark && here == Cell::Empty && self.marks_restricted() {
            if let Some(why) = self.forbidden(cell) {
                let rule = match why.opening_rule() {
                    true => self.opening().as_str(),
                    false => "renju",
                };
                return Err(GameError::new(
                    GameErrorKind::ForbiddenMove,
                    "move",
                    format!(
                        "row {}, column {}: forbidden for x under {rule} ({}): {}",
                        c.row,
                        c.col,
                        why.as_str(),
                        why.describe()
                    ),
                ));
            }
        }
        let ok = match mv.piece {
            Piece::Mark | Piece::Block => here == Cell::Empty,
            Piece::Remove => here == Cell::Block || here == Cell::Mark(me.opponent()),
            Piece::Bomb => {
                here.is_piece()
                    || self
                        .geo
                        .neighbours(cell)
                        .iter()
                        .any(|&nb| self.cells[nb as usize].is_piece())
            }
        };
        if ok {
            return Ok(());
        }
        let why = match mv.piece {
            Piece::Mark | Piece::Block => format!(
                "a {} needs an empty cell, but it holds '{}'",
                mv.piece,
                here.as_char()
            ),
            Piece::Remove => format!(
                "remove needs an opponent mark or a block, but the cell holds '{}'",
                here.as_char()
            ),
            Piece::Bomb => {
                "a bomb needs at least one piece in the 3x3 area around its target".to_string()
            }
        };
        Err(GameError::illegal(
            "move",
            format!("row {}, column {}: {why}", c.row, c.col),
        ))
    }

    /// Appends every legal move to `out` (which is cleared first): marks, then blocks,
    /// removes and bombs, each in cell order. Nothing when the game is over.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.win.is_some() {
            return;
        }
        if self.gravity() {
            return self.landing_cells_into(out);
        }
        let me = self.to_move;
        let hand = self.hands[me.index()];
        let forbidden = self.forbidden_cells();
        let mut next_forbidden = forbidden.iter().map(|&(c, _)| c).peekable();
        for (i, &c) in self.cells.iter().enumerate() {
            if next_forbidden.next_if_eq(&i).is_some() {
                continue;
            }
            if c == Cell::Empty {
                out.push(Move::mark(i));
            }
        }
        if hand.block > 0 {
            for (i, &c) in self.cells.iter().enumerate() {
                if c == Cell::Empty {
                    out.push(Move::new(i, Piece::Block));
                }
            }
        }
        if hand.remove > 0 {
            let theirs = Cell::Mark(me.opponent());
            for (i, &c) in self.cells.iter().enumerate() {
                if c == Cell::Block || c == theirs {
                    out.push(Move::new(i, Piece::Remove));
                }
            }
        }
        if hand.bomb > 0 && self.marks[0] + self.marks[1] + self.blocks > 0 {
            for i in 0..self.cells.len() {
                if self.bomb_hits_something(i) {
                    out.push(Move::new(i, Piece::Bomb));
                }
            }
        }
    }

    /// Every legal move, in the order of [`Position::legal_moves_into`].
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    #[inline]
    fn bomb_hits_something(&self, cell: usize) -> bool {
        self.cells[cell].is_piece()
            || self
                .geo
                .neighbours(cell)
                .iter()
                .any(|&nb| self.cells[nb as usize].is_piece())
    }

    // ----- playing -----

    /// Plays `mv` if it is legal; otherwise says why not (and leaves the position as it was).
    pub fn try_play(&mut self, mv: Move) -> Result<Undo, GameError> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays `mv`, panicking if it is illegal. For tests and callers that know better.
    pub fn play(&mut self, mv: Move) -> Undo {
        match self.try_play(mv) {
            Ok(undo) => undo,
            Err(e) => panic!("illegal move {mv:?}: {e}"),
        }
    }

    /// Plays `mv` without checking it: the fast path for search. `mv` must be legal.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Undo {
        debug_assert!(self.searchable(mv), "illegal move {mv:?}");
        let cell = mv.cell();
        let me = self.to_move;
        let mut undo = Undo {
            mv,
            before: [Cell::Empty; 9],
            hash: self.hash,
            win: self.win,
        };
        undo.before[0] = self.cells[cell];
        match mv.piece {
            Piece::Mark => {
                self.set_cell(cell, Cell::Mark(me));
                self.win = win_through(&self.geo, &self.cells, cell, me);
            }
            Piece::Block => {
                self.take_piece(me, 0);
                self.set_cell(cell, Cell::Block);
            }
            Piece::Remove => {
                self.take_piece(me, 1);
                self.set_cell(cell, Cell::Empty);
            }
            Piece::Bomb => {
                self.take_piece(me, 2);
                self.set_cell(cell, Cell::Empty);
                let geo = Arc::clone(&self.geo);
                for (slot, &nb) in geo.neighbours(cell).iter().enumerate() {
                    undo.before[slot + 1] = self.cells[nb as usize];
                    self.set_cell(nb as usize, Cell::Empty);
                }
            }
        }
        self.to_move = me.opponent();
        self.hash ^= SIDE_KEY;
        self.ply += 1;
        undo
    }

    /// Takes back the move that returned `undo`. Moves must be undone in reverse order.
    #[inline]
    pub fn undo(&mut self, undo: Undo) {
        let me = self.to_move.opponent();
        let cell = undo.mv.cell();
        match undo.mv.piece {
            Piece::Mark => {}
            Piece::Block => self.give_piece(me, 0),
            Piece::Remove => self.give_piece(me, 1),
            Piece::Bomb => {
                self.give_piece(me, 2);
                let geo = Arc::clone(&self.geo);
                for (slot, &nb) in geo.neighbours(cell).iter().enumerate() {
                    self.set_cell(nb as usize, undo.before[slot + 1]);
                }
            }
        }
        self.set_cell(cell, undo.before[0]);
        self.to_move = me;
        self.win = undo.win;
        self.ply -= 1;
        self.hash = undo.hash;
    }

    #[inline]
    fn set_cell(&mut self, cell: usize, content: Cell) {
        let old = self.cells[cell];
        if old == content {
            return;
        }
        match old {
            Cell::Empty => self.empties -= 1,
            Cell::Mark(p) => self.marks[p.index()] -= 1,
            Cell::Block => self.blocks -= 1,
        }
        match content {
            Cell::Empty => self.empties += 1,
            Cell::Mark(p) => self.marks[p.index()] += 1,
            Cell::Block => self.blocks += 1,
        }
        self.hash ^= cell_key(cell, old) ^ cell_key(cell, content);
        self.cells[cell] = content;
    }

    #[inline]
    fn hand_slot(&mut self, player: Player, kind: usize) -> &mut u8 {
        let h = &mut self.hands[player.index()];
        match kind {
            0 => &mut h.block,
            1 => &mut h.remove,
            _ => &mut h.bomb,
        }
    }

    #[inline]
    fn take_piece(&mut self, player: Player, kind: usize) {
        let slot = self.hand_slot(player, kind);
        let old = *slot;
        *slot = old - 1;
        self.hash ^= hand_key(player, kind, old) ^ hand_key(player, kind, old - 1);
    }

    #[inline]
    fn give_piece(&mut self, player: Player, kind: usize) {
        let slot = self.hand_slot(player, kind);
        let old = *slot;
        *slot = old + 1;
        self.hash ^= hand_key(player, kind, old) ^ hand_key(player, kind, old + 1);
    }

    /// True when a mark of `player` on the empty cell `cell` would complete a winning line.
    #[inline]
    pub fn wins_at(&self, cell: usize, player: Player) -> bool {
        debug_assert_eq!(self.cells[cell], Cell::Empty);
        win_through(&self.geo, &self.cells, cell, player).is_some()
    }
}
