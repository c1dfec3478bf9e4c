//! The links a picture draws between spaces: every adjacency of the map, army, fleet or
//! both, between the regions it joins.

use crate::game::ids::RegionId;
use crate::game::map::Map;

/// How two spaces are linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkKind {
    /// Armies only.
    Army,
    /// Fleets only.
    Fleet,
    /// Armies and fleets.
    Both,
}

impl LinkKind {
    /// The word in `data-kind`.
    pub fn word(self) -> &'static str {
        match self {
            LinkKind::Army => "army",
            LinkKind::Fleet => "fleet",
            LinkKind::Both => "both",
        }
    }
}

/// Every link the picture draws: two regions (the lower index first) and their kind. An
/// army move joins two provinces' main regions; a fleet move joins the two regions it
/// names (a coast where the map gives one); where both run between the same two main
/// regions they are one link.
pub fn links(map: &Map) -> Vec<(RegionId, RegionId, LinkKind)> {
    let mut out: Vec<(RegionId, RegionId, LinkKind)> = Vec::new();
    for p in map.province_ids() {
        for &q in map.army_neighbours(p) {
            let (a, b) = (map.province(p).main, map.province(q).main);
            if a < b {
                out.push((a, b, LinkKind::Army));
            }
        }
    }
    for (i, _) in map.regions.iter().enumerate() {
        let r = RegionId(i as u16);
        for &s in map.fleet_neighbours(r) {
            if r < s {
                match out.iter_mut().find(|(a, b, _)| (*a, *b) == (r, s)) {
                    Some(link) => link.2 = LinkKind::Both,
                    None => out.push((r, s, LinkKind::Fleet)),
                }
            }
        }
    }
    out.sort();
    out
}
