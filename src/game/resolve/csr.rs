//! A compact one-to-many index (compressed sparse rows), built once per phase so the
//! resolver's hot loop never scans all orders or allocates.

/// For each key `0..n`, a slice of items.
#[derive(Clone, Debug, Default)]
pub struct Csr {
    start: Vec<u16>,
    items: Vec<u16>,
}

impl Csr {
    /// Builds the index from (key, item) pairs; items keep their order within a key.
    pub fn build(keys: usize, pairs: &[(u16, u16)]) -> Csr {
        let mut start = vec![0u16; keys + 1];
        for &(k, _) in pairs {
            start[k as usize + 1] += 1;
        }
        for i in 0..keys {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut items = vec![0u16; pairs.len()];
        for &(k, item) in pairs {
            items[fill[k as usize] as usize] = item;
            fill[k as usize] += 1;
        }
        Csr { start, items }
    }

    /// The positions of a key's items, for use with [`Csr::item`].
    #[inline]
    pub fn range(&self, key: usize) -> std::ops::Range<usize> {
        self.start[key] as usize..self.start[key + 1] as usize
    }

    /// The item at a position.
    #[inline]
    pub fn item(&self, i: usize) -> u16 {
        self.items[i]
    }

    /// The items of a key.
    #[inline]
    pub fn get(&self, key: usize) -> &[u16] {
        &self.items[self.start[key] as usize..self.start[key + 1] as usize]
    }
}
