//! Rendering diagnostics through miette from a short excerpt of the source: only the lines near the
//! labels, each cut to a few hundred characters around them, with the file's own line numbers. A
//! ruleset of one megabyte on one line, or ten thousand errors in one file, renders quickly and never
//! echoes more than a little of any line.

use crate::diagnostics::{Diagnostic, Label, Level};
use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, Severity,
    SourceCode, SourceSpan, SpanContents,
};
use std::fmt;

/// The most bytes of one source line a diagnostic shows (the rest is cut, marked with `…`).
pub const MAX_LINE: usize = 240;
/// Lines shown before and after the lines the labels are on.
const AROUND: usize = 2;
/// Labels further than this many lines from the primary one are left out of the excerpt.
const REACH: usize = 60;
const CUT: &str = "…";

/// Where each line of a text starts, worked out once for many diagnostics.
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// The length of the longest line, in bytes.
    longest: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let starts: Vec<usize> =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let ends = starts.iter().skip(1).copied().chain(std::iter::once(text.len() + 1));
        let longest = starts.iter().zip(ends).map(|(s, e)| e - 1 - s).max().unwrap_or(0);
        Lines { text, starts, longest }
    }

    /// The 0-based line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).saturating_sub(1)
    }

    /// Line `i` without its line break.
    fn span(&self, i: usize) -> (usize, usize) {
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(self.text.len(), |&n| n - 1);
        // A CRLF line ends before its CR.
        let end = if end > start && self.text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end };
        (start, end)
    }
}

/// The part of a source a diagnostic shows: a few whole or cut lines, and where they came from.
struct Excerpt {
    name: String,
    text: String,
    /// The file's 0-based line number of the excerpt's first line.
    first_line: usize,
    /// For each line of the excerpt, how many characters of the file's line were cut from its start
    /// (less the one the `…` takes), so that columns read as in the file.
    shift: Vec<usize>,
    /// Each character shown escaped (see [`escape`]): where its escape starts in `text`, and how many
    /// bytes longer the escape is than the character, so that columns read as in the file.
    escapes: Vec<(usize, usize)>,
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        // miette's column is the span's own when it asks with no context (the header's `line:col`).
        let line = inner.line();
        let column = if before == 0 && after == 0 {
            let line_start = span.offset().saturating_sub(inner.column());
            let from = self.escapes.partition_point(|e| e.0 < line_start);
            let to = self.escapes.partition_point(|e| e.0 < span.offset());
            let longer: usize = self.escapes[from..to].iter().map(|e| e.1).sum();
            (inner.column() + self.shift.get(line).copied().unwrap_or(0)).saturating_sub(longer)
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            line + self.first_line,
            column,
            inner.line_count(),
        )))
    }
}

/// Sources up to this size, with no line longer than [`MAX_LINE`], are shown whole (miette then
/// picks the lines around the labels itself).
const WHOLE: usize = 64 * 1024;

/// Builds the excerpt of `lines` for `labels`, and the labels' spans within it.
fn excerpt(name: &str, lines: &Lines<'_>, labels: &[Label]) -> (Excerpt, Vec<(usize, usize)>) {
    let len = lines.text.len();
    if len <= WHOLE && lines.longest <= MAX_LINE {
        let spans = labels
            .iter()
            .map(|l| {
                let s = l.span.start.min(len);
                (s, l.span.end.clamp(s, len))
            })
            .collect();
        let whole = Excerpt {
            name: name.to_string(),
            text: lines.text.to_string(),
            first_line: 0,
            shift: vec![],
            escapes: vec![],
        };
        return (whole, spans);
    }
    let clamp = |at: usize| {
        let mut at = at.min(len);
        while !lines.text.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let spans: Vec<(usize, usize)> = labels
        .iter()
        .map(|l| {
            let s = clamp(l.span.start);
            (s, clamp(l.span.end).max(s))
        })
        .collect();
    let primary = labels.iter().position(|l| l.primary).unwrap_or(0);
    let home = spans.get(primary).map_or(0, |s| lines.line_of(s.0));
    let near = |s: &(usize, usize)| {
        let (a, b) = (lines.line_of(s.0), lines.line_of(s.1));
        a.abs_diff(home) <= REACH && b.abs_diff(home) <= REACH
    };
    let kept: Vec<bool> = spans.iter().map(near).collect();
    let (mut lo, mut hi) = (home, home);
    for (s, keep) in spans.iter().zip(&kept) {
        if *keep {
            lo = lo.min(lines.line_of(s.0));
            hi = hi.max(lines.line_of(s.1));
        }
    }
    let lo = lo.saturating_sub(AROUND);
    let hi = (hi + AROUND).min(lines.starts.len() - 1);

    let mut text = String::new();
    let mut shift = Vec::new();
    // Where each kept label's ends land in the excerpt.
    let mut mapped: Vec<(usize, usize)> = spans.clone();
    for i in lo..=hi {
        let (start, end) = lines.span(i);
        let line = &lines.text[start..end];
        let at = text.len();
        let (from, to) = if line.len() <= MAX_LINE {
            (start, end)
        } else {
            // Keep a window around the labels on this line (the primary's first).
            let on_line: Vec<usize> = spans
                .iter()
                .zip(&kept)
                .filter(|(_, k)| **k)
                .flat_map(|(s, _)| [s.0, s.1])
                .filter(|p| (start..=end).contains(p))
                .collect();
            let focus = spans.get(primary).map(|s| s.0).filter(|p| (start..=end).contains(p));
            let centre = focus.or_else(|| on_line.first().copied()).unwrap_or(start);
            let from = clamp(centre.saturating_sub(MAX_LINE / 3).max(start));
            let to = clamp((from + MAX_LINE).min(end));
            (from, to)
        };
        let cut_front = from > start;
        if cut_front {
            text.push_str(CUT);
        }
        text.push_str(&lines.text[from..to]);
        if to < end {
            text.push_str(CUT);
        }
        let front = if cut_front { CUT.len() } else { 0 };
        // miette counts columns in bytes: the cut bytes, less the ones the `…` takes.
        shift.push(if cut_front { (from - start).saturating_sub(CUT.len()) } else { 0 });
        for (k, (s, m)) in spans.iter().zip(mapped.iter_mut()).enumerate() {
            if !kept[k] {
                continue;
            }
            let place = |p: usize| at + front + (p.clamp(from, to) - from);
            if (start..=end).contains(&s.0) {
                m.0 = place(s.0);
            }
            if (start..=end).contains(&s.1) {
                m.1 = place(s.1);
            }
        }
        if i < hi {
            text.push('\n');
        }
    }
    for (k, m) in mapped.iter_mut().enumerate() {
        if !kept[k] {
            *m = (usize::MAX, usize::MAX);
        } else if m.1 < m.0 {
            m.1 = m.0;
        }
    }
    (Excerpt { name: name.to_string(), text, first_line: lo, shift, escapes: vec![] }, mapped)
}

/// Shows the excerpt's control characters and bidirectional overrides escaped (`\u{1b}`), so that a
/// comment cannot retitle the window or clear the screen, and moves the spans to match: the labels
/// still point at what they did.
fn escape(source: &mut Excerpt, spans: &mut [(usize, usize)]) {
    if !source.text.chars().any(crate::text::escaped) {
        return;
    }
    let mut text = String::with_capacity(source.text.len() + 32);
    // For each escaped character: where it ends in the old text, and how much longer the text is by then.
    let mut grown: Vec<(usize, usize)> = Vec::new();
    let mut longer = 0;
    for (i, c) in source.text.char_indices() {
        if crate::text::escaped(c) {
            let shown = crate::text::escape_char(c);
            source.escapes.push((text.len(), shown.len() - c.len_utf8()));
            text.push_str(&shown);
            longer += shown.len() - c.len_utf8();
            grown.push((i + c.len_utf8(), longer));
        } else {
            text.push(c);
        }
    }
    let moved = |p: usize| {
        let k = grown.partition_point(|g| g.0 <= p);
        p + if k == 0 { 0 } else { grown[k - 1].1 }
    };
    for s in spans.iter_mut().filter(|s| s.0 != usize::MAX) {
        // A span that starts on an escaped character starts on its escape, and one that ends after
        // it ends after the escape.
        *s = (moved(s.0), moved(s.1));
    }
    source.text = text;
}

/// A diagnostic with its excerpt, for miette.
struct Report<'a> {
    diag: &'a Diagnostic,
    source: Excerpt,
    spans: Vec<(usize, usize)>,
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diag.message)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::visible(&self.diag.message))
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.diag.code))
    }
    fn severity(&self) -> Option<Severity> {
        Some(match self.diag.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diag.help.as_ref().map(|h| Box::new(crate::text::visible(h)) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        (!self.diag.labels.is_empty()).then_some(&self.source as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.diag.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.diag.labels.iter().zip(&self.spans).filter(|(_, s)| s.0 != usize::MAX).map(
            |(l, &(start, end))| {
                let text = (!l.text.is_empty()).then(|| crate::text::visible(&l.text).into_owned());
                if l.primary {
                    LabeledSpan::new_primary_with_span(text, (start, end - start))
                } else {
                    LabeledSpan::new_with_span(text, (start, end - start))
                }
            },
        )))
    }
}

/// Renders `diags` with `handler`; the source is `text` (named `name`) unless a diagnostic names a
/// script file of its own.
pub(crate) fn render(
    handler: &GraphicalReportHandler,
    diags: &[Diagnostic],
    name: &str,
    text: &str,
) -> String {
    let main = Lines::new(text);
    let mut out = String::new();
    for d in diags {
        let (file_lines, file_name);
        let (lines, shown) = match &d.source {
            Some(f) => {
                file_lines = Lines::new(&f.text);
                file_name = f.name.as_str();
                (&file_lines, file_name)
            }
            None => (&main, name),
        };
        let (mut source, mut spans) = excerpt(shown, lines, &d.labels);
        escape(&mut source, &mut spans);
        source.name = crate::text::visible(&source.name).into_owned();
        // Writing into a String cannot fail.
        let _ = handler.render_report(&mut out, &Report { diag: d, source, spans });
    }
    out
}

/// The plain handler: no colour, `width` columns.
pub(crate) fn plain(width: usize) -> GraphicalReportHandler {
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(width).with_links(false)
}

/// The colour handler for terminals.
pub(crate) fn color(width: usize) -> GraphicalReportHandler {
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode()).with_width(width).with_links(false)
}
