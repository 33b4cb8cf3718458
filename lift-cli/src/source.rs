//! Reading the programs of a file: a `.lift` file is one program (the contents of a `lift!`
//! block); any other file is read as Rust and each of its `lift! { ... }` blocks is one
//! program.
//!
//! Each program's text is the whole file with every character outside the block replaced by a
//! space (line breaks kept), so the compiler's line and column of a span are the line and
//! column in the file itself.

use crate::CliError;
use std::path::{Path, PathBuf};

/// A file and the programs in it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given.
    pub path: PathBuf,
    /// The file's text.
    pub text: String,
    /// Its programs, in file order.
    pub blocks: Vec<Block>,
}

/// One program of a file.
#[derive(Clone, Debug)]
pub struct Block {
    /// The program text, padded to the file's positions (see the module documentation).
    pub text: String,
}

impl SourceFile {
    /// Reads `path`: a `.lift` file, or a Rust file with at least one `lift!` block.
    pub fn read(path: &Path) -> Result<SourceFile, CliError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::new(format!("FILE `{}`: cannot read: {e}", path.display())))?;
        let is_lift = path.extension().is_some_and(|e| e == "lift");
        let blocks = if is_lift {
            vec![Block { text: text.clone() }]
        } else {
            let ranges = lift_blocks(&text);
            if ranges.is_empty() {
                return Err(CliError::new(format!(
                    "FILE `{}`: no `lift! {{ ... }}` block found (a file ending in `.lift` is read as the contents of one block)",
                    path.display()
                )));
            }
            ranges
                .into_iter()
                .map(|(start, end)| Block {
                    text: padded(&text, start, end),
                })
                .collect()
        };
        Ok(SourceFile {
            path: path.to_path_buf(),
            text,
            blocks,
        })
    }
}

/// `text` with every character outside `start..end` (byte offsets) replaced by a space,
/// line breaks kept.
fn padded(text: &str, start: usize, end: usize) -> String {
    text.char_indices()
        .map(|(i, c)| {
            if (start..end).contains(&i) || c == '\n' || c == '\r' {
                c
            } else {
                ' '
            }
        })
        .collect()
}

/// The byte ranges of the contents of every `lift!` macro invocation in Rust source `text`
/// (between the delimiters), skipping comments, strings and character literals.
pub fn lift_blocks(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match skip_non_code(b, i) {
            Some(j) => i = j,
            None => {
                if b[i..].starts_with(b"lift!")
                    && (i == 0 || !is_ident(b[i - 1]))
                    && starts_token(b, i)
                {
                    let mut j = i + 5;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if let Some(close) = b.get(j).and_then(|&c| closing(c)) {
                        if let Some(end) = matching(b, j + 1, close) {
                            out.push((j + 1, end));
                            i = end + 1;
                            continue;
                        }
                    }
                    i += 5;
                } else {
                    i += 1;
                }
            }
        }
    }
    out
}

/// `lift!` at `i` is a macro name: not preceded by `.` (a method) and either at the start of
/// a path or after `::`.
fn starts_token(b: &[u8], i: usize) -> bool {
    i == 0 || b[i - 1] != b'.'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn closing(open: u8) -> Option<u8> {
    match open {
        b'{' => Some(b'}'),
        b'(' => Some(b')'),
        b'[' => Some(b']'),
        _ => None,
    }
}

/// The offset of the delimiter closing the group that starts at `i` (just after its opening
/// delimiter), nested delimiters, comments and literals skipped.
fn matching(b: &[u8], mut i: usize, close: u8) -> Option<usize> {
    let mut stack = vec![close];
    while i < b.len() {
        if let Some(j) = skip_non_code(b, i) {
            i = j;
            continue;
        }
        let c = b[i];
        if let Some(cl) = closing(c) {
            stack.push(cl);
        } else if matches!(c, b'}' | b')' | b']') {
            if stack.pop() != Some(c) {
                return None;
            }
            if stack.is_empty() {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

/// If a comment, string, byte string, raw string or character literal starts at `i`, the
/// offset just after it.
fn skip_non_code(b: &[u8], i: usize) -> Option<usize> {
    let rest = &b[i..];
    if rest.starts_with(b"//") {
        let end = rest
            .iter()
            .position(|&c| c == b'\n')
            .map_or(b.len(), |p| i + p);
        return Some(end);
    }
    if rest.starts_with(b"/*") {
        let mut depth = 0;
        let mut j = i;
        while j < b.len() {
            if b[j..].starts_with(b"/*") {
                depth += 1;
                j += 2;
            } else if b[j..].starts_with(b"*/") {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    return Some(j);
                }
            } else {
                j += 1;
            }
        }
        return Some(b.len());
    }
    let prev_ident = i > 0 && is_ident(b[i - 1]);
    // Raw strings: r"..", r#".."#, br#".."#.
    if !prev_ident {
        let mut j = i;
        if b.get(j) == Some(&b'b') || b.get(j) == Some(&b'c') {
            j += 1;
        }
        if b.get(j) == Some(&b'r') {
            let mut k = j + 1;
            let mut hashes = 0;
            while b.get(k) == Some(&b'#') {
                hashes += 1;
                k += 1;
            }
            if b.get(k) == Some(&b'"') {
                let mut m = k + 1;
                while m < b.len() {
                    if b[m] == b'"'
                        && b.len() >= m + 1 + hashes
                        && b[m + 1..m + 1 + hashes].iter().all(|&c| c == b'#')
                    {
                        return Some(m + 1 + hashes);
                    }
                    m += 1;
                }
                return Some(b.len());
            }
        }
        if (b.get(i) == Some(&b'b') || b.get(i) == Some(&b'c')) && b.get(i + 1) == Some(&b'"') {
            return Some(string_end(b, i + 2));
        }
    }
    match b[i] {
        b'"' => Some(string_end(b, i + 1)),
        b'\'' => {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if b.get(i + 1) == Some(&b'\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != b'\'' && b[j] != b'\n' {
                    j += 1;
                }
                Some((j + 1).min(b.len()))
            } else {
                // One (possibly multi-byte) character then a quote.
                let s = std::str::from_utf8(&b[i + 1..]).ok()?;
                let c = s.chars().next()?;
                let after = i + 1 + c.len_utf8();
                (b.get(after) == Some(&b'\'')).then_some(after + 1)
            }
        }
        _ => None,
    }
}

/// The offset just after the string whose contents start at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Converts the compiler's line and column (1-based line, 0-based column in characters of
/// the text it lexed, where each `∘` became ` o `) into a character offset into `text`.
pub fn char_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n + 1 == line {
            // Walk the line: `∘` counts as three columns in the lexed text.
            let mut col = 0;
            for (k, c) in l.chars().enumerate() {
                if col >= column {
                    return offset + k;
                }
                col += if c == '∘' { 3 } else { 1 };
            }
            return offset + l.chars().count().saturating_sub(1);
        }
        offset += l.chars().count();
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_blocks_and_skips_comments_and_strings() {
        let src = r##"
// lift! { not this }
/* lift! { nor this } */
const S: &str = "lift! { nor this }";
const R: &str = r#"lift! { " }"#;
fn f<'a>(c: char) -> bool { c == '{' }
lift! {
    /// a doc comment with a } brace
    kernel K<N>(x: [f32; N]) -> [f32; N] { map(|v| v) $ x }
}
lift_runtime::lift!(kernel J<N>(x: [f32; N]) -> [f32; N] { x });
"##;
        let blocks = lift_blocks(src);
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert!(src[blocks[0].0..blocks[0].1].contains("kernel K"));
        assert!(src[blocks[0].0..blocks[0].1].trim_end().ends_with("$ x }"));
        assert_eq!(
            &src[blocks[1].0..blocks[1].1],
            "kernel J<N>(x: [f32; N]) -> [f32; N] { x }"
        );
    }

    #[test]
    fn padding_keeps_positions() {
        let src = "fn a() {}\nlift! {\n  kernel K\n}\n";
        let (s, e) = lift_blocks(src)[0];
        let p = padded(src, s, e);
        assert_eq!(p.len(), src.len());
        assert_eq!(p.lines().nth(2), Some("  kernel K"));
        assert_eq!(p.lines().next(), Some("         "));
    }

    #[test]
    fn offsets_with_compose_sign() {
        let t = "ab\nf ∘ g x";
        // Column 8 in the lexed `f  o  g x` is the `x`.
        assert_eq!(t.chars().nth(char_offset(t, 2, 8)), Some('x'));
        assert_eq!(t.chars().nth(char_offset(t, 1, 1)), Some('b'));
    }
}
