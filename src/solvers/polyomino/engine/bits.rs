//! Fixed-width bit sets `[u64; W]` for boards of up to `64·W` squares. `W` is a const
//! parameter so a 6×10 board compiles down to plain `u64` arithmetic.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Bits<W> {
    pub const ZERO: Self = Bits([0; W]);

    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    #[inline(always)]
    pub fn or(self, o: Self) -> Self {
        let mut r = self;
        for w in 0..W {
            r.0[w] |= o.0[w];
        }
        r
    }

    #[inline(always)]
    pub fn and(self, o: Self) -> Self {
        let mut r = self;
        for w in 0..W {
            r.0[w] &= o.0[w];
        }
        r
    }

    #[inline(always)]
    pub fn and_not(self, o: Self) -> Self {
        let mut r = self;
        for w in 0..W {
            r.0[w] &= !o.0[w];
        }
        r
    }

    #[inline(always)]
    pub fn complement(self) -> Self {
        let mut r = self;
        for w in 0..W {
            r.0[w] = !r.0[w];
        }
        r
    }

    #[inline(always)]
    pub fn intersects(self, o: Self) -> bool {
        let mut acc = 0;
        for w in 0..W {
            acc |= self.0[w] & o.0[w];
        }
        acc != 0
    }

    /// Nonzero exactly when the sets intersect (a word to combine with other tests into one
    /// branch).
    #[inline(always)]
    pub fn overlap(self, o: Self) -> u64 {
        let mut acc = 0;
        for w in 0..W {
            acc |= self.0[w] & o.0[w];
        }
        acc
    }

    #[inline(always)]
    pub fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The lowest set bit, if any.
    #[inline(always)]
    pub fn lowest(self) -> Option<usize> {
        for w in 0..W {
            if self.0[w] != 0 {
                return Some(w * 64 + self.0[w].trailing_zeros() as usize);
            }
        }
        None
    }

    /// Only the lowest set bit (zero stays zero).
    #[inline(always)]
    pub fn lowest_bit(self) -> Self {
        let mut r = Self::ZERO;
        for w in 0..W {
            if self.0[w] != 0 {
                r.0[w] = self.0[w] & self.0[w].wrapping_neg();
                return r;
            }
        }
        r
    }

    /// The 64 bits from index `start` on, as one word (bits past the end read as 0).
    #[inline(always)]
    pub fn window(&self, start: usize) -> u64 {
        let (w, off) = (start / 64, start % 64);
        if w >= W {
            return 0;
        }
        let mut r = self.0[w] >> off;
        if off != 0 && w + 1 < W {
            r |= self.0[w + 1] << (64 - off);
        }
        r
    }

    /// Shift towards higher indices by `n` (1 ≤ n < 64).
    #[inline(always)]
    pub fn shifted_up(self, n: u32) -> Self {
        let mut r = Self::ZERO;
        for w in 0..W {
            r.0[w] = self.0[w] << n;
            if w > 0 {
                r.0[w] |= self.0[w - 1] >> (64 - n);
            }
        }
        r
    }

    /// Shift towards lower indices by `n` (1 ≤ n < 64).
    #[inline(always)]
    pub fn shifted_down(self, n: u32) -> Self {
        let mut r = Self::ZERO;
        for w in 0..W {
            r.0[w] = self.0[w] >> n;
            if w + 1 < W {
                r.0[w] |= self.0[w + 1] << (64 - n);
            }
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_word_boundaries() {
        let mut b = Bits::<2>::ZERO;
        b.set(63);
        assert_eq!(b.shifted_up(1).lowest(), Some(64));
        assert_eq!(b.shifted_up(1).shifted_down(3).lowest(), Some(61));
        let mut c = Bits::<2>::ZERO;
        c.set(70);
        c.set(5);
        assert_eq!(c.lowest_bit().lowest(), Some(5));
        assert_eq!(c.count(), 2);
        assert_eq!(c.complement().complement(), c);
        assert_eq!(c.window(0), 1 << 5);
        assert_eq!(c.window(60), 1 << 10);
        assert_eq!(c.window(70), 1);
        assert_eq!(c.window(71), 0);
        assert_eq!(c.window(128), 0);
    }
}
