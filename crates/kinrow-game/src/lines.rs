//! Lines on the board: the four directions, win detection through a cell, and the
//! k-windows (every run of `k` cells in a line) that heuristics and solvers count.

use std::sync::{Arc, Mutex, OnceLock};

use super::cell::{Cell, Coord, Player};
use super::rules::Variant;

/// One of the four line directions, as a step in rows and columns.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a row: `(0, +1)`.
    Horizontal,
    /// Along a column: `(+1, 0)`.
    Vertical,
    /// Down and right: `(+1, +1)`.
    Diagonal,
    /// Down and left: `(+1, -1)`.
    AntiDiagonal,
}

/// The four directions, in a fixed order.
pub const DIRECTIONS: [Direction; 4] = [
    Direction::Horizontal,
    Direction::Vertical,
    Direction::Diagonal,
    Direction::AntiDiagonal,
];

impl Direction {
    /// The `(row, col)` step of one cell along this direction.
    #[inline]
    pub fn step(self) -> (isize, isize) {
        match self {
            Direction::Horizontal => (0, 1),
            Direction::Vertical => (1, 0),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }

    /// A small index 0..4.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A run of `k` consecutive cells along one direction: the unit every line
/// heuristic counts. `cells` lists their indices in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The direction the window runs in.
    pub direction: Direction,
    /// Its `k` cells' indices, from its start along `direction`.
    pub cells: Box<[u16]>,
}

/// The k-windows of a board, with the windows through every cell.
#[derive(Debug)]
pub struct Windows {
    /// Every k-window of the board.
    pub all: Vec<Window>,
    offsets: Vec<u32>,
    through: Vec<u32>,
}

impl Windows {
    /// Indices (into `all`) of the windows that contain `cell`.
    #[inline]
    pub fn through(&self, cell: usize) -> &[u32] {
        &self.through[self.offsets[cell] as usize..self.offsets[cell + 1] as usize]
    }
}

/// The board shapes [`Geometry::shared`] keeps.
pub const SHARED_SHAPES: usize = 32;

/// The fixed shape of a game: board size, `k`, overline, and precomputed line data.
/// Shared (behind an `Arc`) by every position of one game.
#[derive(Debug)]
pub struct Geometry {
    /// Columns.
    pub m: usize,
    /// Rows.
    pub n: usize,
    /// The marks in a line that win.
    pub k: u32,
    /// Whether a line longer than `k` wins too (under the free variant).
    pub overline: bool,
    /// The rule family, which decides which lines win.
    pub variant: Variant,
    /// For every cell, its up-to-8 neighbours (the 3x3 area a bomb clears, minus the cell).
    neighbours: Vec<[u16; 8]>,
    neighbour_counts: Vec<u8>,
    windows: OnceLock<Windows>,
}

impl Geometry {
    /// One number for the board's size and rules (m, n, k, overline, variant): what a
    /// table of positions kept between searches must match.
    pub fn key(&self) -> u64 {
        ((self.variant as u64) << 56)
            | ((self.m as u64) << 40)
            | ((self.n as u64) << 20)
            | ((self.k as u64) << 1)
            | self.overline as u64
    }

    /// The geometry of an `m` x `n` board with these rules, shared by every position of
    /// that shape: its windows are built once per shape rather than once per position (a
    /// server answers many requests on the same board). The last [`SHARED_SHAPES`] shapes
    /// are kept.
    pub fn shared(m: usize, n: usize, k: u32, overline: bool, variant: Variant) -> Arc<Geometry> {
        static KEPT: Mutex<Vec<Arc<Geometry>>> = Mutex::new(Vec::new());
        let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
        let same = |g: &Arc<Geometry>| {
            (g.m, g.n, g.k, g.overline, g.variant) == (m, n, k, overline, variant)
        };
        if let Some(g) = kept.iter().find(|g| same(g)) {
            return Arc::clone(g);
        }
        let g = Arc::new(Geometry::new(m, n, k, overline, variant));
        if kept.len() >= SHARED_SHAPES {
            kept.remove(0);
        }
        kept.push(Arc::clone(&g));
        g
    }

    /// Precomputes the neighbourhoods of an `m` x `n` board; windows are built on first use.
    pub fn new(m: usize, n: usize, k: u32, overline: bool, variant: Variant) -> Geometry {
        let mut neighbours = vec![[0u16; 8]; m * n];
        let mut neighbour_counts = vec![0u8; m * n];
        for r in 0..n {
            for c in 0..m {
                let cell = r * m + c;
                let mut count = 0;
                for dr in -1isize..=1 {
                    for dc in -1isize..=1 {
                        if dr == 0 && dc == 0 {
                            continue;
                        }
                        let (rr, cc) = (r as isize + dr, c as isize + dc);
                        if rr >= 0 && cc >= 0 && (rr as usize) < n && (cc as usize) < m {
                            neighbours[cell][count] = (rr as usize * m + cc as usize) as u16;
                            count += 1;
                        }
                    }
                }
                neighbour_counts[cell] = count as u8;
            }
        }
        Geometry {
            m,
            n,
            k,
            overline,
            variant,
            neighbours,
            neighbour_counts,
            windows: OnceLock::new(),
        }
    }

    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.m * self.n
    }

    /// The row and column of cell index `cell`.
    #[inline]
    pub fn coord(&self, cell: usize) -> Coord {
        Coord::new(cell / self.m, cell % self.m)
    }

    /// The index of `c` (row-major).
    #[inline]
    pub fn index(&self, c: Coord) -> usize {
        c.row * self.m + c.col
    }

    /// The neighbour of `cell` one step along `(dr, dc)`, if it is on the board.
    #[inline]
    pub fn offset(&self, cell: usize, dr: isize, dc: isize) -> Option<usize> {
        let r = (cell / self.m) as isize + dr;
        let c = (cell % self.m) as isize + dc;
        if r >= 0 && c >= 0 && (r as usize) < self.n && (c as usize) < self.m {
            Some(r as usize * self.m + c as usize)
        } else {
            None
        }
    }

    /// The up-to-8 cells around `cell`.
    #[inline]
    pub fn neighbours(&self, cell: usize) -> &[u16] {
        &self.neighbours[cell][..self.neighbour_counts[cell] as usize]
    }

    /// Every k-window of the board and the windows through each cell (built once).
    pub fn windows(&self) -> &Windows {
        self.windows.get_or_init(|| self.build_windows())
    }

    fn build_windows(&self) -> Windows {
        let k = self.k as usize;
        let mut all = Vec::new();
        if k <= self.m.max(self.n) {
            for start in 0..self.cells() {
                for direction in DIRECTIONS {
                    let (dr, dc) = direction.step();
                    let mut cells = Vec::with_capacity(k);
                    let mut at = Some(start);
                    while let Some(cell) = at {
                        cells.push(cell as u16);
                        if cells.len() == k {
                            break;
                        }
                        at = self.offset(cell, dr, dc);
                    }
                    if cells.len() == k {
                        all.push(Window {
                            direction,
                            cells: cells.into_boxed_slice(),
                        });
                    }
                }
            }
        }
        let mut counts = vec![0u32; self.cells() + 1];
        for w in &all {
            for &c in w.cells.iter() {
                counts[c as usize + 1] += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let offsets = counts.clone();
        let mut fill = counts;
        let mut through = vec![0u32; *offsets.last().unwrap_or(&0) as usize];
        for (i, w) in all.iter().enumerate() {
            for &c in w.cells.iter() {
                through[fill[c as usize] as usize] = i as u32;
                fill[c as usize] += 1;
            }
        }
        Windows {
            all,
            offsets,
            through,
        }
    }
}

/// A winning line: `len` marks of `player` starting at `start` along `direction`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinLine {
    /// Whose marks they are.
    pub player: Player,
    /// The line's first cell (the others follow along `direction`).
    pub start: Coord,
    /// The direction the line runs in from `start`.
    pub direction: Direction,
    /// How many marks: `k`, or more for an overline where it wins.
    pub len: usize,
}

impl WinLine {
    /// The line of `player` from `a` to `b` (either end first), which must lie on one
    /// row, column or diagonal.
    pub fn between(player: Player, a: Coord, b: Coord) -> WinLine {
        // The upper end first (the left one on a row): every direction steps down or right.
        let (a, b) = if (b.row, b.col) < (a.row, a.col) {
            (b, a)
        } else {
            (a, b)
        };
        let (dr, dc) = (
            b.row as isize - a.row as isize,
            b.col as isize - a.col as isize,
        );
        let direction = match (dr, dc.signum()) {
            (0, _) => Direction::Horizontal,
            (_, 0) => Direction::Vertical,
            (_, 1) => Direction::Diagonal,
            _ => Direction::AntiDiagonal,
        };
        WinLine {
            player,
            start: a,
            direction,
            len: dr.unsigned_abs().max(dc.unsigned_abs()) + 1,
        }
    }

    /// The cells of the line, in order.
    pub fn cells(&self) -> Vec<Coord> {
        let (dr, dc) = self.direction.step();
        (0..self.len as isize)
            .map(|i| {
                Coord::new(
                    (self.start.row as isize + i * dr) as usize,
                    (self.start.col as isize + i * dc) as usize,
                )
            })
            .collect()
    }
}

/// How many steps along `(dr, dc)` stay on the board from (`row`, `col`).
#[inline]
fn room(geo: &Geometry, row: usize, col: usize, (dr, dc): (isize, isize)) -> usize {
    let rows = match dr {
        1 => geo.n - 1 - row,
        -1 => row,
        _ => usize::MAX,
    };
    let cols = match dc {
        1 => geo.m - 1 - col,
        -1 => col,
        _ => usize::MAX,
    };
    rows.min(cols)
}

/// Counts the run of cells satisfying `is_own` from `cell` (exclusive) along
/// `(dr, dc)`, stopping at `limit`.
#[inline]
pub(crate) fn run_length(
    geo: &Geometry,
    cell: usize,
    (dr, dc): (isize, isize),
    limit: usize,
    is_own: impl Fn(usize) -> bool,
) -> usize {
    let steps = limit.min(room(geo, cell / geo.m, cell % geo.m, (dr, dc)));
    let delta = dr * geo.m as isize + dc;
    let mut at = cell as isize;
    for len in 0..steps {
        at += delta;
        if !is_own(at as usize) {
            return len;
        }
    }
    steps
}

/// True when the cell `dist` steps from `cell` along `step` holds a mark of `player`'s
/// opponent: what blocks one end of a caro line (the board's edge does not).
#[inline]
fn opponent_at(
    geo: &Geometry,
    cells: &[Cell],
    cell: usize,
    step: (isize, isize),
    dist: usize,
    player: Player,
) -> bool {
    let (dr, dc) = step;
    let (r, c) = ((cell / geo.m) as isize, (cell % geo.m) as isize);
    let (rr, cc) = (r + dr * dist as isize, c + dc * dist as isize);
    if rr < 0 || cc < 0 || rr >= geo.n as isize || cc >= geo.m as isize {
        return false;
    }
    cells[rr as usize * geo.m + cc as usize] == Cell::Mark(player.opponent())
}

/// The winning line through `cell` for `player`, if `player`'s mark at `cell` (whatever
/// `cells[cell]` holds now) completes one under the variant: k or more in a row where overlines win, exactly k
/// where they do not, and under caro only a line that the opponent's marks do not
/// block at both ends.
pub(crate) fn win_through(
    geo: &Geometry,
    cells: &[Cell],
    cell: usize,
    player: Player,
) -> Option<WinLine> {
    let k = geo.k as usize;
    let exact = match geo.variant {
        Variant::Free => !geo.overline,
        Variant::Renju => player == Player::X,
        Variant::Caro => true,
    };
    let own = Cell::Mark(player);
    let is_own = |i: usize| cells[i] == own;
    // Where only exactly k wins, look one past k on each side so an overline is seen as such.
    let limit = if exact { k + 1 } else { k };
    for direction in DIRECTIONS {
        let (dr, dc) = direction.step();
        let back = run_length(geo, cell, (-dr, -dc), limit, is_own);
        let fwd = run_length(geo, cell, (dr, dc), limit, is_own);
        let len = back + 1 + fwd;
        let mut wins = if exact { len == k } else { len >= k };
        if wins && !geo.variant.blocked_line_wins() {
            let blocked_back = opponent_at(geo, cells, cell, (-dr, -dc), back + 1, player);
            let blocked_fwd = opponent_at(geo, cells, cell, (dr, dc), fwd + 1, player);
            wins = !(blocked_back && blocked_fwd);
        }
        if wins {
            let start = geo.coord(cell);
            let start = Coord::new(
                (start.row as isize - back as isize * dr) as usize,
                (start.col as isize - back as isize * dc) as usize,
            );
            return Some(WinLine {
                player,
                start,
                direction,
                len,
            });
        }
    }
    None
}

/// When k marks in a row win for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WinRule {
    /// k or more in a row win.
    Overline,
    /// Exactly k in a row win; more do not.
    Exact,
    /// Exactly k, and not with the opponent's marks at both ends (caro; the board's
    /// edge shuts nothing).
    ExactOpen,
}

impl WinRule {
    /// Each player's rule under `geo`'s variant and overline setting.
    pub fn of(geo: &Geometry) -> [WinRule; 2] {
        let free = if geo.overline {
            WinRule::Overline
        } else {
            WinRule::Exact
        };
        match geo.variant {
            Variant::Free => [free; 2],
            Variant::Renju => [WinRule::Exact, WinRule::Overline],
            Variant::Caro => [WinRule::ExactOpen; 2],
        }
    }
}
