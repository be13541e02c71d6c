//! Where the page draws each domino of a Doubles board: the layout of a real
//! table, grown from the spinner (the opening double) along its four arms.
//!
//! The engine keeps only how many open ends show each number (every double is
//! a spinner, so the shape does not matter for play); a layout is one way the
//! dominoes could lie. Each domino is placed, in play order, on an open end
//! showing the number it was set on: a non-double end to end (its matching half
//! touching that end), a double crosswise (it covers the end and opens three
//! sides: one ahead, two to the sides). Among the ends showing that number and
//! the ways to lie there (straight on, or turning a corner to the left or the
//! right), the first that overlaps no domino already down and keeps the board
//! most compact is taken. A placement depends only on the dominoes before it,
//! so the layout of the first k dominoes is the first k placements of any
//! later layout of the round (the page animates by drawing prefixes).
//!
//! Units: a domino is 2 × 1 (a double crosswise 1 × 2 across its arm); x grows
//! to the right and y downwards; the spinner is centred on (0, 0), upright.

use bones_env::Domino;
use serde_json::{json, Value};

/// A direction on the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dir {
    East,
    South,
    West,
    North,
}

impl Dir {
    fn step(self) -> (f64, f64) {
        match self {
            Dir::East => (1.0, 0.0),
            Dir::South => (0.0, 1.0),
            Dir::West => (-1.0, 0.0),
            Dir::North => (0.0, -1.0),
        }
    }
    /// The direction after a quarter turn to the left (`left`) or right.
    fn turned(self, left: bool) -> Dir {
        let order = [Dir::East, Dir::South, Dir::West, Dir::North];
        let i = order.iter().position(|&d| d == self).unwrap_or(0);
        order[(i + if left { 3 } else { 1 }) % 4]
    }
    fn name(self) -> &'static str {
        match self {
            Dir::East => "east",
            Dir::South => "south",
            Dir::West => "west",
            Dir::North => "north",
        }
    }
}

/// An axis-aligned rectangle: left, top, width, height.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    fn centred(cx: f64, cy: f64, w: f64, h: f64) -> Rect {
        Rect { x: cx - w / 2.0, y: cy - h / 2.0, w, h }
    }
    /// The area the two share.
    pub fn common_area(&self, o: &Rect) -> f64 {
        let w = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let h = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        if w > 1e-6 && h > 1e-6 {
            w * h
        } else {
            0.0
        }
    }
    /// Whether the two share more than an edge.
    pub fn overlaps(&self, o: &Rect) -> bool {
        const EPS: f64 = 1e-6;
        self.x + EPS < o.x + o.w
            && o.x + EPS < self.x + self.w
            && self.y + EPS < o.y + o.h
            && o.y + EPS < self.y + self.h
    }
}

/// One domino as it lies: its rectangle and the numbers on its two halves
/// (`first` on the left or top half).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tile {
    /// The domino.
    pub domino: Domino,
    /// Where it lies.
    pub rect: Rect,
    /// The number on its left (or top) half.
    pub first: u8,
    /// The number on its right (or bottom) half.
    pub second: u8,
}

/// An end of the layout: where the next domino would touch, facing `dir`,
/// showing `number`; placed by tile `opened_by`, covered by tile `closed_by`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OpenEnd {
    x: f64,
    y: f64,
    dir: Dir,
    /// The number it shows.
    pub number: u8,
    /// The tile that opened it.
    pub opened_by: usize,
    /// The tile that covered it (`None`: open).
    pub closed_by: Option<usize>,
}

/// A board's layout: the tiles in play order and every end ever opened.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// The tiles, in play order.
    pub tiles: Vec<Tile>,
    /// Every end opened, in the order opened.
    pub ends: Vec<OpenEnd>,
}

/// A way to lay a domino on an end.
struct Placement {
    end: usize,
    tile: Tile,
    new_ends: Vec<OpenEnd>,
    turned: bool,
}

impl Layout {
    /// The layout of `placed` (in play order: each domino and the number it was
    /// set on, `None` for the opening double).
    pub fn of(placed: &[(Domino, Option<u8>)]) -> Layout {
        let mut layout = Layout::default();
        for &(d, on) in placed {
            layout.place(d, on);
        }
        layout
    }

    /// Lays `d` on an open end showing `on` (the spinner when `on` is `None`,
    /// or when the board is still empty).
    pub fn place(&mut self, d: Domino, on: Option<u8>) {
        let index = self.tiles.len();
        let on = match on {
            Some(n) if !self.tiles.is_empty() => n,
            _ => return self.spinner(d),
        };
        let mut best: Option<(f64, Placement)> = None;
        for (i, end) in self.ends.iter().enumerate().filter(|(_, e)| e.closed_by.is_none() && e.number == on) {
            for turn in [None, Some(true), Some(false)] {
                let Some(option) = lay(d, end, i, index, turn) else { continue };
                // A placement over a domino down is the last resort, the least overlap first.
                let clash = self.overlap(&option.tile.rect);
                let cramped = if clash > 0.0 { 0.0 } else { self.cramped_after(&option) };
                let cost = self.cost(&option.tile.rect)
                    + if !option.turned {
                        0.0
                    } else if d.is_double() {
                        20.0
                    } else {
                        1.5
                    }
                    + cramped
                    + if clash > 0.0 { 1e6 * (1.0 + clash) } else { 0.0 };
                if best.as_ref().is_none_or(|(c, _)| cost < *c - 1e-9) {
                    best = Some((cost, option));
                }
            }
        }
        match best {
            Some((_, option)) => {
                self.ends[option.end].closed_by = Some(index);
                self.tiles.push(option.tile);
                self.ends.extend(option.new_ends);
            }
            // No open end shows the number (a board the engine would not make):
            // the domino is laid beside the others, touching nothing.
            None => {
                let bottom = self.tiles.iter().map(|t| t.rect.y + t.rect.h).fold(0.0, f64::max);
                let rect = Rect { x: 0.0, y: bottom + 1.0, w: 2.0, h: 1.0 };
                self.tiles.push(Tile { domino: d, rect, first: d.high(), second: d.low() });
            }
        }
    }

    /// The opening double, upright at the centre, open on all four sides.
    fn spinner(&mut self, d: Domino) {
        let index = self.tiles.len();
        let n = d.high();
        self.tiles.push(Tile { domino: d, rect: Rect::centred(0.0, 0.0, 1.0, 2.0), first: n, second: n });
        for (x, y, dir) in
            [(0.5, 0.0, Dir::East), (-0.5, 0.0, Dir::West), (0.0, -1.0, Dir::North), (0.0, 1.0, Dir::South)]
        {
            self.ends.push(OpenEnd { x, y, dir, number: n, opened_by: index, closed_by: None });
        }
    }

    /// The area of `r` that lies over the tiles down.
    fn overlap(&self, r: &Rect) -> f64 {
        self.tiles.iter().map(|t| t.rect.common_area(r)).sum()
    }

    /// How cramped the open ends (the new ones included) would be once
    /// `option` is laid: for each, how far short of [`ROOM`] dominoes in a row
    /// (straight on or round a corner) it falls, an end with no room at all
    /// counting most.
    fn cramped_after(&self, option: &Placement) -> f64 {
        let mut down: Vec<Rect> = self.tiles.iter().map(|t| t.rect).collect();
        down.push(option.tile.rect);
        // Dominoes showing each number still to come: an end no domino can reach needs no room.
        let mut left = [7u8; 7];
        for d in self.tiles.iter().map(|t| t.domino).chain([option.tile.domino]) {
            left[d.high() as usize] -= 1;
            if !d.is_double() {
                left[d.low() as usize] -= 1;
            }
        }
        let open =
            self.ends.iter().enumerate().filter(|&(i, e)| e.closed_by.is_none() && i != option.end).map(|(_, e)| e);
        open.chain(option.new_ends.iter())
            .map(|end| {
                let run = room(end, &down, ROOM);
                // An end facing back towards the spinner runs into the other arms sooner.
                let (dx, dy) = end.dir.step();
                let inward = if dx * end.x + dy * end.y < -0.5 { 3.0 } else { 0.0 };
                let twin = Domino::new(end.number, end.number);
                let double = !self.tiles.iter().any(|t| t.domino == twin)
                    && twin != option.tile.domino
                    && lay(twin, end, 0, 0, None).is_some_and(|p| !down.iter().any(|r| r.overlaps(&p.tile.rect)));
                let need = f64::from(left[end.number as usize].min(2)) / 2.0;
                need * if run == 0 && !double { 100.0 } else { (ROOM - run) as f64 * 2.0 + inward }
            })
            .sum()
    }

    /// How much a tile at `r` spreads the board: its longer side, then its area.
    fn cost(&self, r: &Rect) -> f64 {
        let (mut x0, mut y0, mut x1, mut y1) = (r.x, r.y, r.x + r.w, r.y + r.h);
        for t in &self.tiles {
            x0 = x0.min(t.rect.x);
            y0 = y0.min(t.rect.y);
            x1 = x1.max(t.rect.x + t.rect.w);
            y1 = y1.max(t.rect.y + t.rect.h);
        }
        let (w, h) = (x1 - x0, y1 - y0);
        0.2 * w.max(h) + w * h / 1000.0
    }

    /// The ends open after the first `k` tiles.
    pub fn open_after(&self, k: usize) -> impl Iterator<Item = &OpenEnd> {
        self.ends.iter().filter(move |e| e.opened_by < k && e.closed_by.is_none_or(|c| c >= k))
    }

    /// The layout as JSON (docs/interfaces/web.md, the Doubles `table`'s `layout`):
    /// tiles in play order `{"domino","x","y","w","h","first","second"}`, and
    /// every end `{"x","y","dir","number","opened_by","closed_by"}`.
    pub fn to_json(&self) -> Value {
        let tiles: Vec<Value> = self
            .tiles
            .iter()
            .map(|t| {
                json!({"domino": t.domino.to_string(), "x": t.rect.x, "y": t.rect.y, "w": t.rect.w, "h": t.rect.h,
                       "first": t.first, "second": t.second})
            })
            .collect();
        let ends: Vec<Value> = self
            .ends
            .iter()
            .map(|e| {
                json!({"x": e.x, "y": e.y, "dir": e.dir.name(), "number": e.number,
                       "opened_by": e.opened_by, "closed_by": e.closed_by})
            })
            .collect();
        json!({"tiles": tiles, "ends": ends})
    }
}

/// How many plain dominoes in a row look ahead from an open end.
const ROOM: usize = 4;

/// How many plain dominoes (up to `most`) fit in a row from `end` among the
/// rectangles `down`, going straight on or turning a corner at any of them.
fn room(end: &OpenEnd, down: &[Rect], most: usize) -> usize {
    if most == 0 {
        return 0;
    }
    let plain = Domino::new(end.number, if end.number == 0 { 1 } else { 0 });
    let mut best = 0;
    for turn in [None, Some(true), Some(false)] {
        let Some(p) = lay(plain, end, 0, 0, turn) else { continue };
        if down.iter().any(|r| r.overlaps(&p.tile.rect)) {
            continue;
        }
        let mut more = down.to_vec();
        more.push(p.tile.rect);
        best = best.max(1 + room(&p.new_ends[0], &more, most - 1));
        if best == most {
            break;
        }
    }
    best
}

/// `d` laid on `end` (index `i`) as tile `index`: straight on (`turn` `None`)
/// or turning a corner (`Some(left)`; doubles are laid only straight on).
fn lay(d: Domino, end: &OpenEnd, i: usize, index: usize, turn: Option<bool>) -> Option<Placement> {
    let n = end.number;
    let (dx, dy) = end.dir.step();
    let (px, py) = (end.x, end.y);
    let open = |x: f64, y: f64, dir: Dir, number: u8| OpenEnd { x, y, dir, number, opened_by: index, closed_by: None };
    if d.is_double() {
        // Crosswise (1 along the arm, 2 across it); where that has no room, in line (`turn` given).
        let along = if turn.is_some() { 2.0 } else { 1.0 };
        let across = 3.0 - along;
        let (cx, cy) = (px + dx * along / 2.0, py + dy * along / 2.0);
        let (w, h) = if dx != 0.0 { (along, across) } else { (across, along) };
        let side = end.dir.turned(true);
        let (sx, sy) = side.step();
        let reach = across / 2.0;
        let new_ends = vec![
            open(px + dx * along, py + dy * along, end.dir, n),
            open(cx + sx * reach, cy + sy * reach, side, n),
            open(cx - sx * reach, cy - sy * reach, side.turned(true).turned(true), n),
        ];
        let tile = Tile { domino: d, rect: Rect::centred(cx, cy, w, h), first: n, second: n };
        return Some(Placement { end: i, tile, new_ends, turned: turn.is_some() });
    }
    let other = d.other(n);
    let (dir, cx, cy, far) = match turn {
        None => (end.dir, px + dx, py + dy, (px + 2.0 * dx, py + 2.0 * dy)),
        Some(left) => {
            // The corner: the matching half lies across the end, the rest turns.
            let q = end.dir.turned(left);
            let (qx, qy) = q.step();
            let (mx, my) = (px + dx * 0.5, py + dy * 0.5);
            (q, mx + qx * 0.5, my + qy * 0.5, (mx + qx * 1.5, my + qy * 1.5))
        }
    };
    let (qx, qy) = dir.step();
    let (w, h) = if qx != 0.0 { (2.0, 1.0) } else { (1.0, 2.0) };
    // The half nearer the end shows `n`: on the left/top when the tile runs east/south.
    let (first, second) = if qx + qy > 0.0 { (n, other) } else { (other, n) };
    let tile = Tile { domino: d, rect: Rect::centred(cx, cy, w, h), first, second };
    Some(Placement { end: i, tile, new_ends: vec![open(far.0, far.1, dir, other)], turned: turn.is_some() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bones_env::doubles::NO_SEAT;
    use bones_env::rules::DoublesRules;
    use bones_env::{Doubles, Episode, Game, GameState};
    use rand::{Rng, SeedableRng};

    fn d(s: &str) -> Domino {
        s.parse().unwrap()
    }

    /// The tile's half (first or second) that touches the point (x, y) on its edge.
    fn half_at(t: &Tile, x: f64, y: f64) -> Option<u8> {
        let r = t.rect;
        let on_edge = (x - r.x).abs() < 1e-9
            || (x - r.x - r.w).abs() < 1e-9
            || (y - r.y).abs() < 1e-9
            || (y - r.y - r.h).abs() < 1e-9;
        let inside = x >= r.x - 1e-9 && x <= r.x + r.w + 1e-9 && y >= r.y - 1e-9 && y <= r.y + r.h + 1e-9;
        if !(on_edge && inside) {
            return None;
        }
        let first_half = if r.w > r.h { x < r.x + r.w / 2.0 } else { y < r.y + r.h / 2.0 };
        Some(if first_half { t.first } else { t.second })
    }

    #[test]
    fn the_spinner_opens_four_arms_and_a_double_on_an_arm_opens_three_sides() {
        let mut l = Layout::of(&[(d("6-6"), None)]);
        assert_eq!(l.open_after(1).count(), 4);
        l.place(d("6-3"), Some(6));
        l.place(d("3-3"), Some(3));
        let open: Vec<u8> = l.open_after(3).map(|e| e.number).collect();
        assert_eq!(open.iter().filter(|&&n| n == 6).count(), 3);
        assert_eq!(open.iter().filter(|&&n| n == 3).count(), 3);
        // The double lies across its arm.
        let (arm, double) = (l.tiles[1].rect, l.tiles[2].rect);
        assert_eq!(arm.w > arm.h, double.h > double.w);
    }

    /// Plays random Doubles rounds; after each domino the layout's open ends
    /// show the numbers the engine's board counts, every tile touches the end
    /// it was set on with its matching half, and a tile lies over another only
    /// where no end showing its number had room (about one tile in a thousand).
    #[test]
    fn every_tile_touches_the_end_it_was_set_on_and_the_open_ends_are_the_engines() {
        let mut overlaps = 0;
        let mut tiles = 0;
        for players in 2..=4u8 {
            let game = Doubles::new(DoublesRules { players, ..DoublesRules::default() });
            for seed in 0..60u64 {
                let mut state = game.new_state(seed, Episode::Hand);
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut placed = Vec::new();
                while state.current_seat().is_some() {
                    let legal: Vec<_> = state.legal_mask().iter().collect();
                    state.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                    let v = state.view(0);
                    let mut now: Vec<Domino> = v.board.placed.iter().collect();
                    now.sort_by_key(|d| v.play_index[d.index()]);
                    if now.len() == placed.len() {
                        continue;
                    }
                    let new = now[placed.len()];
                    let on = v.attached_at[new.index()];
                    placed.push((new, (on != NO_SEAT).then_some(on)));
                    let l = Layout::of(&placed);
                    let k = l.tiles.len();
                    let mut counts = [0u8; 7];
                    for e in l.open_after(k) {
                        counts[e.number as usize] += 1;
                    }
                    assert_eq!(counts, v.board.open, "seed {seed}, {players} players, after {k} tiles");
                    let last = &l.tiles[k - 1];
                    if let (Some(end), Some(on)) = (l.ends.iter().find(|e| e.closed_by == Some(k - 1)), placed[k - 1].1)
                    {
                        assert_eq!(end.number, on);
                        assert_eq!(half_at(last, end.x, end.y), Some(on), "seed {seed}: {} on {on}", last.domino);
                    }
                    overlaps += usize::from(l.tiles[..k - 1].iter().any(|t| t.rect.overlaps(&last.rect)));
                    tiles += 1;
                }
            }
        }
        assert!(tiles > 3000);
        assert!(overlaps * 1000 <= tiles, "{overlaps} tiles laid over others, of {tiles}");
    }
}
