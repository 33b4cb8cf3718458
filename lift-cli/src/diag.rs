//! Compile errors and warnings shown with the source snippet they point at (`ariadne`), at
//! their line and column in the original file.

use crate::source::{char_offset, SourceFile};
use ariadne::{Color, Config, Label, Report, ReportKind, Source};
use proc_macro2::Span;
use std::ops::Range;

/// Error or warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Makes `lift check` fail.
    Error,
    /// Reported only.
    Warning,
}

/// The character range of `span` in `file`, and its 1-based line and column; `None` for a
/// span without a location.
pub fn locate(file: &SourceFile, span: Span) -> Option<(Range<usize>, usize, usize)> {
    let (s, e) = (span.start(), span.end());
    if s.line == 0 {
        return None;
    }
    let start = char_offset(&file.text, s.line, s.column);
    let end = char_offset(&file.text, e.line, e.column).max(start + 1);
    Some((
        start..end,
        s.line,
        start - line_start(&file.text, s.line) + 1,
    ))
}

/// The character offset of the first character of 1-based line `line`.
fn line_start(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.chars().count())
        .sum()
}

/// Renders one diagnostic: a first line `error: PATH:LINE:COL: MESSAGE` (what editors and
/// scripts read), then the source snippet with the offending sub-expression underlined.
pub fn render(
    file: &SourceFile,
    severity: Severity,
    span: Span,
    message: &str,
    color: bool,
) -> String {
    let name = file.path.display().to_string();
    let word = match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let Some((range, line, col)) = locate(file, span) else {
        return format!("{word}: {name}: {message}\n");
    };
    let (kind, c) = match severity {
        Severity::Error => (ReportKind::Error, Color::Red),
        Severity::Warning => (ReportKind::Warning, Color::Yellow),
    };
    let label = message.split(": ").next().unwrap_or(message);
    let mut out = format!("{word}: {name}:{line}:{col}: {message}\n").into_bytes();
    let report = Report::build(kind, (name.clone(), range.clone()))
        .with_config(Config::default().with_color(color))
        .with_message(message)
        .with_label(
            Label::new((name.clone(), range))
                .with_message(label)
                .with_color(c),
        )
        .finish();
    // Writing into a Vec cannot fail; a failure would only lose the snippet.
    let _ = report.write((name, Source::from(file.text.as_str())), &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
