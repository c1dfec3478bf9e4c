//! Colours for everyone (issue 27, point 4): how far apart two colours look (CIEDE2000),
//! also to a reader with red-green colour blindness (protanopia and deuteranopia simulated
//! by Machado, Oliveira and Fernandes' 2009 matrices at full severity), and the contrast of
//! two colours (WCAG 2's ratio). The tests hold every built-in map's powers to the bounds
//! below (the palettes are in [`super::palette`]).

/// The least CIEDE2000 difference between two powers of one map, for normal vision and
/// simulated protanopia and deuteranopia: every two on a map of at most seven powers, two
/// neighbours ([`super::palette::neighbours`]) on a larger one.
pub const MIN_DIFFERENCE: f64 = 14.0;
/// The least difference between two powers of a map of more than seven powers that are not
/// neighbours (the world of 1880's sixteen): sixteen colours at 3:1 contrast cannot all
/// stay 14 apart for a reader without red or green cones; the letter on each unit tells
/// them apart where the colours are close.
pub const MIN_FAR_DIFFERENCE: f64 = 10.0;
/// Maps with more powers than this hold only neighbours to [`MIN_DIFFERENCE`].
pub const ALL_PAIRS_UP_TO: usize = 7;
/// How far apart two colours must look (CIEDE2000), for normal vision and for a reader
/// with simulated protanopia or deuteranopia.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bound {
    /// The least difference in normal vision.
    pub normal: f64,
    /// The least difference under protanopia and under deuteranopia.
    pub colour_blind: f64,
}

impl Bound {
    /// The least difference for a reader with `vision`.
    pub fn at(self, vision: Vision) -> f64 {
        match vision {
            Vision::Normal => self.normal,
            Vision::Protanopia | Vision::Deuteranopia => self.colour_blind,
        }
    }
}

/// How far apart the tints of the land two powers hold must look on a picture of at most
/// [`ALL_PAIRS_UP_TO`] powers, and each tint from the sea and from land no power holds:
/// far enough to part two powers at a glance along a long front. (At 7.5, the bound the
/// palettes first kept, England and Russia were 7.7 apart to a protanope.)
pub const SMALL_PICTURE: Bound = Bound {
    normal: 12.0,
    colour_blind: 10.0,
};
/// The same on a picture of more powers (the world's overview and regions): sixteen light
/// tints cannot all stay [`SMALL_PICTURE`] apart for a reader without red or green cones,
/// so the pairs closer than that are told apart by a second cue, the owner's letter on
/// each supply centre (as on each unit's chip).
pub const LARGE_PICTURE: Bound = Bound {
    normal: 10.0,
    colour_blind: 6.0,
};

/// The bound on the tints of a picture that `powers` powers share.
pub fn tint_bound(powers: usize) -> Bound {
    if powers <= ALL_PAIRS_UP_TO {
        SMALL_PICTURE
    } else {
        LARGE_PICTURE
    }
}

/// The least contrast of the names' ink (`#222`) to every tint.
pub const MIN_NAME_CONTRAST: f64 = 4.5;
/// The least contrast of a power's colour to the land and the page it is drawn on.
pub const MIN_CONTRAST: f64 = 3.0;

/// How a reader sees colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    /// Normal colour vision.
    Normal,
    /// No long-wavelength (red) cones.
    Protanopia,
    /// No medium-wavelength (green) cones.
    Deuteranopia,
}

/// `#rrggbb` as three bytes (black for anything else).
pub fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    [byte(1), byte(3), byte(5)]
}

fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A colour's linear RGB as a reader with `vision` sees it.
pub fn seen(c: [u8; 3], vision: Vision) -> [f64; 3] {
    let l = c.map(linear);
    let m: [[f64; 3]; 3] = match vision {
        Vision::Normal => return l,
        Vision::Protanopia => [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
        Vision::Deuteranopia => [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    };
    [0, 1, 2].map(|i| (m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2]).clamp(0.0, 1.0))
}

/// CIE L*a*b* (D65) of a linear RGB colour.
pub fn lab(l: [f64; 3]) -> [f64; 3] {
    let x = 0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2];
    let y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
    let z = 0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2];
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIEDE2000 colour difference of two L*a*b* colours (Sharma, Wu and Dalal's
/// formulation).
pub fn ciede2000(p: [f64; 3], q: [f64; 3]) -> f64 {
    let [l1, a1, b1] = p;
    let [l2, a2, b2] = q;
    let pow7 = |v: f64| v.powi(7);
    let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (pow7(c_bar) / (pow7(c_bar) + pow7(25.0))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = l2 - l1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else if (h2p - h1p).abs() <= 180.0 {
        h2p - h1p
    } else if h2p - h1p > 180.0 {
        h2p - h1p - 360.0
    } else {
        h2p - h1p + 360.0
    };
    let d_h = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
    let l_bar = (l1 + l2) / 2.0;
    let c_barp = (c1p + c2p) / 2.0;
    let h_bar = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= 180.0 {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 360.0 {
        (h1p + h2p + 360.0) / 2.0
    } else {
        (h1p + h2p - 360.0) / 2.0
    };
    let cos = |deg: f64| deg.to_radians().cos();
    let t =
        1.0 - 0.17 * cos(h_bar - 30.0) + 0.24 * cos(2.0 * h_bar) + 0.32 * cos(3.0 * h_bar + 6.0)
            - 0.20 * cos(4.0 * h_bar - 63.0);
    let d_theta = 30.0 * (-((h_bar - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (pow7(c_barp) / (pow7(c_barp) + pow7(25.0))).sqrt();
    let s_l = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * c_barp;
    let s_h = 1.0 + 0.015 * c_barp * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    ((dl / s_l).powi(2) + (dc / s_c).powi(2) + (d_h / s_h).powi(2) + r_t * (dc / s_c) * (d_h / s_h))
        .sqrt()
}

/// How different two colours look to a reader with `vision` (CIEDE2000).
pub fn difference(a: &str, b: &str, vision: Vision) -> f64 {
    ciede2000(lab(seen(rgb(a), vision)), lab(seen(rgb(b), vision)))
}

/// WCAG 2's contrast ratio of two colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let lum = |c: [u8; 3]| {
        let l = c.map(linear);
        0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
    };
    let (x, y) = (lum(rgb(a)), lum(rgb(b)));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}
