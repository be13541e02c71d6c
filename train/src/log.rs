//! Training logs: TensorBoard event files (through tensorboard-rs, scalars only,
//! kept behind this one module) and a reader of those files for tests and tools.

use std::collections::BTreeMap;
use std::path::Path;
use tensorboard_rs::summary_writer::SummaryWriter;

/// Scalar logger writing TensorBoard events under a run folder.
pub struct MetricsLog {
    writer: Option<SummaryWriter>,
}

impl MetricsLog {
    /// Logs into `dir` (created if needed).
    pub fn new(dir: &Path) -> std::io::Result<MetricsLog> {
        std::fs::create_dir_all(dir)?;
        Ok(MetricsLog { writer: Some(SummaryWriter::new(dir)) })
    }

    /// Records `value` under `tag` (CleanRL names: `charts/…`, `losses/…`, `eval/…`).
    pub fn scalar(&mut self, tag: &str, value: f32, step: u64) {
        if let Some(w) = self.writer.as_mut() {
            w.add_scalar(tag, value, step as usize);
        }
    }

    /// Flushes and closes the file (tensorboard-rs writes on a background
    /// thread: dropping the writer is what makes the tail reach the disk).
    pub fn close(&mut self) {
        if let Some(mut w) = self.writer.take() {
            w.flush();
            drop(w);
        }
    }
}

impl Drop for MetricsLog {
    fn drop(&mut self) {
        self.close();
    }
}

/// Every scalar in the event files of `dir`: tag → [(step, value)].
pub fn read_scalars(dir: &Path) -> std::io::Result<BTreeMap<String, Vec<(i64, f32)>>> {
    let mut out: BTreeMap<String, Vec<(i64, f32)>> = BTreeMap::new();
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains("tfevents")))
        .collect();
    files.sort();
    for f in files {
        let bytes = std::fs::read(&f)?;
        for record in records(&bytes) {
            if let Some((step, values)) = parse_event(record) {
                for (tag, v) in values {
                    out.entry(tag).or_default().push((step, v));
                }
            }
        }
    }
    Ok(out)
}

/// TFRecord framing: u64 length, u32 crc, data, u32 crc (CRCs not checked).
fn records(mut b: &[u8]) -> Vec<&[u8]> {
    let mut v = Vec::new();
    while b.len() >= 12 {
        let len = u64::from_le_bytes(b[..8].try_into().unwrap()) as usize;
        if b.len() < 12 + len + 4 {
            break;
        }
        v.push(&b[12..12 + len]);
        b = &b[12 + len + 4..];
    }
    v
}

fn varint(b: &[u8], i: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b.get(*i)?;
        *i += 1;
        x |= ((byte & 0x7f) as u64) << shift;
        if byte & 0x80 == 0 {
            return Some(x);
        }
    }
    None
}

/// Protobuf fields of a message: (field number, wire type, payload).
fn fields(b: &[u8]) -> Vec<(u64, u64, &[u8], u64)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let Some(key) = varint(b, &mut i) else { break };
        let (field, wire) = (key >> 3, key & 7);
        match wire {
            0 => {
                let Some(v) = varint(b, &mut i) else { break };
                out.push((field, wire, &b[0..0], v));
            }
            1 if i + 8 <= b.len() => {
                out.push((field, wire, &b[i..i + 8], 0));
                i += 8;
            }
            2 => {
                let Some(len) = varint(b, &mut i) else { break };
                let end = i + len as usize;
                if end > b.len() {
                    break;
                }
                out.push((field, wire, &b[i..end], 0));
                i = end;
            }
            5 if i + 4 <= b.len() => {
                out.push((field, wire, &b[i..i + 4], 0));
                i += 4;
            }
            _ => break,
        }
    }
    out
}

/// Event { step = 2; summary = 5 { value = 1 { tag = 1; simple_value = 2 } } }.
fn parse_event(b: &[u8]) -> Option<(i64, Vec<(String, f32)>)> {
    let mut step = 0i64;
    let mut values = Vec::new();
    for (field, wire, payload, int) in fields(b) {
        match (field, wire) {
            (2, 0) => step = int as i64,
            (5, 2) => {
                for (vf, vw, value, _) in fields(payload) {
                    if (vf, vw) != (1, 2) {
                        continue;
                    }
                    let mut tag = None;
                    let mut simple = None;
                    for (f, w, p, _) in fields(value) {
                        match (f, w) {
                            (1, 2) => tag = String::from_utf8(p.to_vec()).ok(),
                            (2, 5) => simple = Some(f32::from_le_bytes(p.try_into().ok()?)),
                            _ => {}
                        }
                    }
                    if let (Some(t), Some(s)) = (tag, simple) {
                        values.push((t, s));
                    }
                }
            }
            _ => {}
        }
    }
    Some((step, values))
}
