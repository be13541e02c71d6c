//! Pictures as hand-written SVG: the Elo ladder of `bones eval --ladder --plot`.

use bones_agents::rating::{self, Ladder, RatingInterval};
use std::fmt::Write as _;
use std::path::Path;

/// Escapes text for XML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks.
fn tick_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-9);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * p).find(|s| *s >= raw).unwrap_or(10.0 * p)
}

/// The ladder as an SVG picture: agents sorted by rating (best on top), each a
/// point at its rating with a horizontal bar over its interval, labelled with the
/// spec (left) and the rating with its interval (right). `title` heads it.
pub fn ladder_svg(title: &str, agents: &[String], ratings: &[RatingInterval]) -> String {
    let n = agents.len().min(ratings.len());
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| ratings[b].rating.total_cmp(&ratings[a].rating));
    let finite = |x: f64, or: f64| if x.is_finite() { x } else { or };
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for r in &ratings[..n] {
        lo = lo.min(finite(r.lo, r.rating)).min(r.rating);
        hi = hi.max(finite(r.hi, r.rating)).max(r.rating);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        (lo, hi) = (-100.0, 100.0);
    }
    let step = tick_step((hi - lo).max(50.0), 6.0);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let hi = if hi > lo { hi } else { lo + step };

    let label_w = 7.5 * agents.iter().map(|a| a.chars().count()).max().unwrap_or(5).max(5) as f64 + 20.0;
    let (plot_w, value_w, row_h, top) = (480.0, 170.0, 30.0, 50.0);
    let width = label_w + plot_w + value_w;
    let height = top + row_h * n as f64 + 50.0;
    let x = |v: f64| label_w + (v - lo) / (hi - lo) * plot_w;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="monospace" font-size="13">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="10" y="22" font-size="15">{}</text>"#, esc(title));
    let axis_y = top + row_h * n as f64 + 5.0;
    let mut t = lo;
    while t <= hi + step * 1e-6 {
        let tx = x(t);
        let _ = writeln!(
            s,
            r##"<line x1="{tx:.1}" y1="{:.1}" x2="{tx:.1}" y2="{axis_y:.1}" stroke="{}" stroke-width="1"/>"##,
            top - 10.0,
            if t.abs() < step * 1e-6 { "#888" } else { "#e4e4e4" }
        );
        let _ = writeln!(s, r#"<text x="{tx:.1}" y="{:.1}" text-anchor="middle">{t:+.0}</text>"#, axis_y + 16.0);
        t += step;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">Elo (mean 0), 95% interval</text>"#,
        label_w + plot_w / 2.0,
        axis_y + 36.0
    );
    for (row, &i) in order.iter().enumerate() {
        let r = &ratings[i];
        let y = top + row_h * row as f64 + row_h / 2.0;
        if r.lo.is_finite() && r.hi.is_finite() {
            let _ = writeln!(
                s,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#3465a4" stroke-width="3"/>"##,
                x(r.lo),
                x(r.hi)
            );
        }
        let _ = writeln!(s, r##"<circle cx="{:.1}" cy="{y:.1}" r="5" fill="#204a87"/>"##, x(r.rating));
        let _ = writeln!(
            s,
            r#"<text class="agent" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            label_w - 10.0,
            y + 4.0,
            esc(&agents[i])
        );
        let value = if r.lo.is_finite() && r.hi.is_finite() {
            format!("{:+.0} [{:+.0}, {:+.0}]", r.rating, r.lo, r.hi)
        } else {
            format!("{:+.0}", r.rating)
        };
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}">{}</text>"#, label_w + plot_w + 10.0, y + 4.0, esc(&value));
    }
    s.push_str("</svg>\n");
    s
}

/// Writes the ladder picture to `path` atomically (a temporary file, then a rename).
pub fn write_ladder_svg(
    path: &Path,
    title: &str,
    agents: &[String],
    ratings: &[RatingInterval],
) -> Result<(), bones_policy::folder::CheckpointError> {
    bones_policy::folder::write_atomic(path, ladder_svg(title, agents, ratings).as_bytes())
}

/// Writes the picture of `ladder` (ratings with 95% intervals from
/// [`bones_agents::rating`]) to `path` atomically; `about` follows the title.
pub fn plot_ladder(path: &Path, ladder: &Ladder, about: &str) -> Result<(), bones_policy::folder::CheckpointError> {
    let played =
        ladder.pairs.first().map_or(String::new(), |(_, _, r)| format!(", {} {}s per pair", r.trials, r.win_unit));
    let title = format!("Elo ladder: {about}{played}");
    write_ladder_svg(path, &title, &ladder.agents, &rating::intervals95(ladder))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(600.0, 6.0), 100.0);
        assert_eq!(tick_step(130.0, 6.0), 50.0);
        assert_eq!(tick_step(1000.0, 6.0), 200.0);
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("model:a<&>\"'"), "model:a&lt;&amp;&gt;&quot;&apos;");
    }
}
