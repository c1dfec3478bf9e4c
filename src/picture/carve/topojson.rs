//! Reads the rings of a TopoJSON topology's polygons (the format of Natural Earth's data as
//! the `world-atlas` package ships it): quantised, delta-encoded arcs joined into rings.

use serde_json::Value;

use super::CarveError;

/// One ring of a polygon: longitude and latitude in degrees.
pub type Ring = Vec<(f64, f64)>;

/// Every ring of every polygon of the object `object` of a TopoJSON text (outer rings and
/// holes alike: filled even-odd they give the land).
pub fn rings(text: &str, object: &str) -> Result<Vec<Ring>, CarveError> {
    let bad = |what: &str| CarveError::Land(what.to_string());
    let topo: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
    let (scale, translate) = match topo.get("transform") {
        Some(t) => (pair(&t["scale"]), pair(&t["translate"])),
        None => (Some((1.0, 1.0)), Some((0.0, 0.0))),
    };
    let (Some(scale), Some(translate)) = (scale, translate) else {
        return Err(bad("the transform is not two pairs of numbers"));
    };
    let quantised = topo.get("transform").is_some();
    let raw = topo["arcs"].as_array().ok_or_else(|| bad("no arcs"))?;
    let mut arcs: Vec<Ring> = Vec::with_capacity(raw.len());
    for arc in raw {
        let points = arc.as_array().ok_or_else(|| bad("an arc is not a list"))?;
        let (mut x, mut y) = (0.0, 0.0);
        let mut out = Vec::with_capacity(points.len());
        for p in points {
            let (dx, dy) = pair(p).ok_or_else(|| bad("a point is not two numbers"))?;
            if quantised {
                x += dx;
                y += dy;
            } else {
                (x, y) = (dx, dy);
            }
            out.push((x * scale.0 + translate.0, y * scale.1 + translate.1));
        }
        arcs.push(out);
    }
    let root = topo["objects"]
        .get(object)
        .ok_or_else(|| bad(&format!("no object '{object}'")))?;
    let mut out = Vec::new();
    collect(root, &arcs, &mut out)?;
    Ok(out)
}

fn pair(v: &Value) -> Option<(f64, f64)> {
    Some((v.get(0)?.as_f64()?, v.get(1)?.as_f64()?))
}

fn collect(geometry: &Value, arcs: &[Ring], out: &mut Vec<Ring>) -> Result<(), CarveError> {
    let bad = |what: &str| CarveError::Land(what.to_string());
    match geometry["type"].as_str() {
        Some("GeometryCollection") => {
            for g in geometry["geometries"].as_array().into_iter().flatten() {
                collect(g, arcs, out)?;
            }
        }
        Some("Polygon") => {
            for ring in geometry["arcs"].as_array().into_iter().flatten() {
                out.push(ring_of(ring, arcs).ok_or_else(|| bad("a ring names no arcs"))?);
            }
        }
        Some("MultiPolygon") => {
            for polygon in geometry["arcs"].as_array().into_iter().flatten() {
                for ring in polygon.as_array().into_iter().flatten() {
                    out.push(ring_of(ring, arcs).ok_or_else(|| bad("a ring names no arcs"))?);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A ring from its arcs' indices (`~i`, a negative index, is arc i backwards).
fn ring_of(ring: &Value, arcs: &[Ring]) -> Option<Ring> {
    let mut out: Ring = Vec::new();
    for index in ring.as_array()? {
        let i = index.as_i64()?;
        let (k, backwards) = if i < 0 { (!i, true) } else { (i, false) };
        let arc = arcs.get(usize::try_from(k).ok()?)?;
        let points: Box<dyn Iterator<Item = &(f64, f64)>> = if backwards {
            Box::new(arc.iter().rev())
        } else {
            Box::new(arc.iter())
        };
        for (j, &p) in points.enumerate() {
            if j == 0 && !out.is_empty() {
                continue;
            }
            out.push(p);
        }
    }
    Some(out)
}
