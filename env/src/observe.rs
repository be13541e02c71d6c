//! Observation layouts as tables of named segments, and a writer that fills them
//! in order and checks that it filled the whole vector exactly.

/// One named part of an observation vector.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Name (stable; exported with models).
    pub name: &'static str,
    /// Number of floats.
    pub len: usize,
    /// What it holds.
    pub doc: &'static str,
}

/// A segment of a layout table: `name`, `len` floats, holding what `doc` says.
pub const fn seg(name: &'static str, len: usize, doc: &'static str) -> Segment {
    Segment { name, len, doc }
}

/// Total length of a layout.
pub const fn layout_len(segments: &[Segment]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < segments.len() {
        n += segments[i].len;
        i += 1;
    }
    n
}

/// Fills an observation segment by segment. `out` is zeroed first; each
/// [`ObsWriter::next`] hands out the next segment's slice (checking its name), and
/// [`ObsWriter::finish`] checks that every segment was written and the vector filled.
pub struct ObsWriter<'a> {
    rest: &'a mut [f32],
    segments: &'static [Segment],
    next: usize,
}

impl<'a> ObsWriter<'a> {
    /// Starts writing `segments` into `out` (which must have exactly their total length).
    pub fn new(out: &'a mut [f32], segments: &'static [Segment]) -> ObsWriter<'a> {
        assert_eq!(out.len(), layout_len(segments), "observation buffer has the wrong length");
        out.fill(0.0);
        ObsWriter { rest: out, segments, next: 0 }
    }

    /// The slice of the next segment, which must be called `name`.
    #[inline]
    pub fn next(&mut self, name: &str) -> &'a mut [f32] {
        let seg = &self.segments[self.next];
        debug_assert_eq!(seg.name, name, "observation segments written out of order");
        self.next += 1;
        let rest = std::mem::take(&mut self.rest);
        let (head, tail) = rest.split_at_mut(seg.len);
        self.rest = tail;
        head
    }

    /// Checks that every segment was handed out.
    #[inline]
    pub fn finish(self) {
        assert!(self.next == self.segments.len() && self.rest.is_empty(), "observation not filled exactly");
    }
}

/// Renders a layout as a Markdown table (for the README and model metadata).
pub fn layout_markdown(segments: &[Segment]) -> String {
    let mut s = String::from("| offset | length | segment | contents |\n|---:|---:|---|---|\n");
    let mut off = 0;
    for seg in segments {
        s.push_str(&format!("| {} | {} | `{}` | {} |\n", off, seg.len, seg.name, seg.doc));
        off += seg.len;
    }
    s.push_str(&format!("| | **{off}** | | total |\n"));
    s
}
