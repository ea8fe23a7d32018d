//! The fixed layout `mcts`'s simulation boards share (padded indices, the cells near
//! each cell, the bomb's area, the prior's weights) and the playouts' fast generator.

/// Playout and tree moves stay within this Chebyshev distance of a piece on large boards.
pub(super) const NEAR_RADIUS: isize = 2;
/// Boards with more cells than this restrict moves to cells near pieces.
pub(super) const RESTRICT_ABOVE_CELLS: usize = 64;

/// The fixed shape shared by every copy: sizes, neighbourhoods, weights.
#[derive(Debug)]
pub(super) struct Shape {
    pub m: usize,
    pub n: usize,
    /// Row stride of the padded board (`m + 2`).
    pub w: usize,
    /// True when moves are restricted to cells near pieces.
    pub restrict: bool,
    /// For every padded interior cell: the padded cells within `NEAR_RADIUS` (itself excluded).
    pub near_of: Vec<Vec<u16>>,
    /// For every padded cell: its up-to-8 padded neighbours on the board (the bomb area).
    pub around: Vec<Vec<u16>>,
    /// `4^own` window weights for the prior.
    pub weight: Vec<f32>,
}

impl Shape {
    pub fn new(m: usize, n: usize, k: usize) -> Shape {
        let w = m + 2;
        let total = w * (n + 2);
        let mut near_of = vec![Vec::new(); total];
        let mut around = vec![Vec::new(); total];
        for r in 0..n as isize {
            for c in 0..m as isize {
                let p = Shape::pad_rc(w, r as usize, c as usize);
                for dr in -NEAR_RADIUS..=NEAR_RADIUS {
                    for dc in -NEAR_RADIUS..=NEAR_RADIUS {
                        let (rr, cc) = (r + dr, c + dc);
                        if (dr, dc) == (0, 0) || rr < 0 || cc < 0 {
                            continue;
                        }
                        if rr as usize >= n || cc as usize >= m {
                            continue;
                        }
                        let q = Shape::pad_rc(w, rr as usize, cc as usize) as u16;
                        near_of[p].push(q);
                        if dr.abs() <= 1 && dc.abs() <= 1 {
                            around[p].push(q);
                        }
                    }
                }
            }
        }
        Shape {
            m,
            n,
            w,
            restrict: m * n > RESTRICT_ABOVE_CELLS,
            near_of,
            around,
            weight: (0..=k.max(1))
                .map(|i| 4f32.powi(i.min(20) as i32))
                .collect(),
        }
    }

    #[inline]
    pub fn pad_rc(w: usize, r: usize, c: usize) -> usize {
        (r + 1) * w + c + 1
    }

    /// The padded index of plain cell index `cell`.
    #[inline]
    pub fn pad(&self, cell: usize) -> usize {
        Shape::pad_rc(self.w, cell / self.m, cell % self.m)
    }

    /// The plain cell index of padded index `p`.
    #[inline]
    pub fn plain(&self, p: usize) -> usize {
        (p / self.w - 1) * self.m + (p % self.w - 1)
    }
}

/// A small, fast generator (xorshift64*) for playouts, seeded from the search's RNG.
#[derive(Clone, Debug)]
pub(super) struct FastRng(u64);

impl FastRng {
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed | 1)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}
