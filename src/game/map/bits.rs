//! A fixed-size bit matrix: one row of bits per space, for O(1) adjacency tests.

/// Rows of bits, each `cols` wide; `get(r, c)` says whether cell (r, c) is set.
#[derive(Clone, Debug, Default)]
pub struct BitMatrix {
    words_per_row: usize,
    bits: Vec<u64>,
}

impl BitMatrix {
    /// An all-clear matrix of `rows` rows and `cols` columns.
    pub fn new(rows: usize, cols: usize) -> BitMatrix {
        let words_per_row = cols.div_ceil(64).max(1);
        BitMatrix {
            words_per_row,
            bits: vec![0; rows * words_per_row],
        }
    }

    /// Sets cell (row, col).
    pub fn set(&mut self, row: usize, col: usize) {
        self.bits[row * self.words_per_row + col / 64] |= 1 << (col % 64);
    }

    /// Whether cell (row, col) is set.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> bool {
        self.bits[row * self.words_per_row + col / 64] >> (col % 64) & 1 == 1
    }
}

#[cfg(test)]
mod tests {
    use super::BitMatrix;

    #[test]
    fn set_cells_read_back_and_others_stay_clear() {
        let mut m = BitMatrix::new(3, 130);
        m.set(2, 129);
        m.set(0, 64);
        assert!(m.get(2, 129));
        assert!(m.get(0, 64));
        assert!(!m.get(1, 129));
        assert!(!m.get(0, 63));
    }
}
