//! A line diff in the unified format, to show what `mettle fmt --check` would change.

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// Above this many cells (lines before × lines after, once the common start and end are set aside) the
/// changed middle is shown as one replacement rather than searched for common lines.
const MAX_CELLS: usize = 4_000_000;

/// One line of a diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    Same(usize, usize),
    Gone(usize),
    Added(usize),
}

/// The unified diff from `old` to `new`, with `---`/`+++` headers naming `name`; empty when the two
/// texts are equal.
///
/// ```
/// let d = mettle::fmt::unified_diff("a.mettle", "x\ny\nz\n", "x\nY\nz\n");
/// assert_eq!(d, "--- a.mettle\n+++ a.mettle (formatted)\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n");
/// ```
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (a, b) = (lines(old), lines(new));
    let script = edit_script(&a, &b);
    let mut out = format!("--- {name}\n+++ {name} (formatted)\n");
    let changed: Vec<usize> =
        script.iter().enumerate().filter(|(_, l)| !matches!(l, Line::Same(..))).map(|(i, _)| i).collect();
    let mut k = 0;
    while k < changed.len() {
        // A hunk: changes closer than twice the context together.
        let first = changed[k];
        let mut last = first;
        while k + 1 < changed.len() && changed[k + 1] <= last + 2 * CONTEXT + 1 {
            k += 1;
            last = changed[k];
        }
        k += 1;
        let from = first.saturating_sub(CONTEXT);
        let to = (last + CONTEXT + 1).min(script.len());
        let hunk = &script[from..to];
        let (old_start, new_start) = starts(&script, from);
        let old_len = hunk.iter().filter(|l| !matches!(l, Line::Added(_))).count();
        let new_len = hunk.iter().filter(|l| !matches!(l, Line::Gone(_))).count();
        out.push_str(&format!(
            "@@ -{},{old_len} +{},{new_len} @@\n",
            old_start + usize::from(old_len > 0),
            new_start + usize::from(new_len > 0)
        ));
        for l in hunk {
            let (sign, text) = match *l {
                Line::Same(i, _) => (' ', &a[i]),
                Line::Gone(i) => ('-', &a[i]),
                Line::Added(j) => ('+', &b[j]),
            };
            out.push(sign);
            out.push_str(text);
            out.push('\n');
        }
    }
    out
}

/// The lines of a text. A carriage return stays part of its line, so that a change of line endings
/// shows; a last line without a line break is marked as unified diffs do.
fn lines(text: &str) -> Vec<String> {
    let mut out: Vec<String> =
        text.split_inclusive('\n').map(|l| l.strip_suffix('\n').unwrap_or(l).to_string()).collect();
    if let Some(last) = out.last_mut().filter(|_| !text.ends_with('\n')) {
        last.push_str("\n\\ No newline at end of file");
    }
    out
}

/// The lines of each text before position `at` of the script.
fn starts(script: &[Line], at: usize) -> (usize, usize) {
    let old = script[..at].iter().filter(|l| !matches!(l, Line::Added(_))).count();
    let new = script[..at].iter().filter(|l| !matches!(l, Line::Gone(_))).count();
    (old, new)
}

/// The lines kept, removed and added, in order: the longest common subsequence of the middle.
fn edit_script(a: &[String], b: &[String]) -> Vec<Line> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut out: Vec<Line> = (0..head).map(|i| Line::Same(i, i)).collect();
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        out.extend((0..ma.len()).map(|i| Line::Gone(head + i)));
        out.extend((0..mb.len()).map(|j| Line::Added(head + j)));
    } else {
        // lcs[i][j]: the longest common subsequence of ma[i..] and mb[j..].
        let w = mb.len() + 1;
        let mut lcs = vec![0u32; (ma.len() + 1) * w];
        for i in (0..ma.len()).rev() {
            for j in (0..mb.len()).rev() {
                lcs[i * w + j] = if ma[i] == mb[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < ma.len() || j < mb.len() {
            if i < ma.len() && j < mb.len() && ma[i] == mb[j] {
                out.push(Line::Same(head + i, head + j));
                i += 1;
                j += 1;
            } else if i < ma.len() && (j == mb.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                out.push(Line::Gone(head + i));
                i += 1;
            } else {
                out.push(Line::Added(head + j));
                j += 1;
            }
        }
    }
    out.extend((0..tail).map(|k| Line::Same(a.len() - tail + k, b.len() - tail + k)));
    out
}

#[cfg(test)]
mod tests {
    use super::unified_diff;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified_diff("f", "a\nb\n", "a\nb\n"), "");
    }

    #[test]
    fn far_apart_changes_make_two_hunks() {
        let mut lines: Vec<String> = (1..=20).map(|i| i.to_string()).collect();
        let old = lines.join("\n") + "\n";
        lines[1] = "two".into();
        lines[18] = "nineteen".into();
        let new = lines.join("\n") + "\n";
        let d = unified_diff("f", &old, &new);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert!(d.contains("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n"), "{d}");
        assert!(d.contains("-19\n+nineteen\n 20\n"), "{d}");
    }

    #[test]
    fn line_endings_and_a_missing_last_break_show() {
        assert_eq!(
            unified_diff("f", "a\r\nb", "a\nb\n"),
            "--- f\n+++ f (formatted)\n@@ -1,2 +1,2 @@\n-a\r\n-b\n\\ No newline at end of file\n+a\n+b\n"
        );
    }

    #[test]
    fn added_lines_at_the_start() {
        assert_eq!(unified_diff("f", "", "a\n"), "--- f\n+++ f (formatted)\n@@ -0,0 +1,1 @@\n+a\n");
    }
}
