//! Finding lines in a rule script's text for messages Rhai cannot place itself: the `{` left
//! open, and the line that writes a map key such as `from:`.

/// The script's text with comments and string contents blanked out (each replaced by spaces,
/// newlines kept), so braces and keys inside them are not mistaken for code.
fn code_only(source: &str) -> Vec<String> {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '/' if chars.peek() == Some(&'/') => {
                while let Some(&c) = chars.peek() {
                    if c == '\n' {
                        break;
                    }
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' | '`' | '\'' => {
                let mut text = String::new();
                let mut escaped = false;
                for c in chars.by_ref() {
                    if !escaped && c == ch {
                        break;
                    }
                    escaped = !escaped && c == '\\';
                    text.push(c);
                }
                // A quoted map key (`"from": …`) stays, unquoted; any other text is blanked.
                let mut after = chars.clone().skip_while(|c| *c == ' ' || *c == '\t');
                let is_key = after.next() == Some(':') && after.next() != Some(':');
                let plain = text.chars().all(|c| c.is_alphanumeric() || c == '_');
                out.push(' ');
                for c in text.chars() {
                    out.push(match c {
                        '\n' => '\n',
                        c if is_key && plain => c,
                        _ => ' ',
                    });
                }
                out.push(' ');
            }
            c => out.push(c),
        }
    }
    out.lines().map(str::to_string).collect()
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The 1-based line and column of the `{` that is never closed, if braces do not balance.
///
/// Braces pair up innermost first, so a missing `}` looks as if the outermost block were
/// open. Indentation tells better: a `}` that stands left of the line opening its pair closes
/// an outer block, and the `{` it was paired with is the one left open.
pub fn unclosed_brace(source: &str) -> Option<(usize, usize)> {
    let lines = code_only(source);
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut suspect = None;
    for (l, line) in lines.iter().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            match ch {
                '{' => open.push((l, col)),
                '}' => {
                    let (ol, oc) = open.pop()?;
                    let first_on_line = line.chars().take(col).all(char::is_whitespace);
                    if suspect.is_none() && first_on_line && indent(line) < indent(&lines[ol]) {
                        suspect = Some((ol, oc));
                    }
                }
                _ => {}
            }
        }
    }
    let last = *open.last()?;
    let (l, c) = suspect.unwrap_or(last);
    Some((l + 1, c + 1))
}

/// The 1-based line that writes `key: …` or `"key": …` (a map literal) or `.key = …`, when
/// exactly one line does: with several, the value could come from any of them.
pub fn key_line(source: &str, key: &str) -> Option<usize> {
    let writes = |line: &str| {
        line.match_indices(key).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let word_start = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let rest = line[i + key.len()..].trim_start();
            let map_key = rest.starts_with(':') && !rest.starts_with("::");
            let assigned = before == Some('.') && rest.starts_with('=') && !rest.starts_with("==");
            word_start && (map_key || assigned)
        })
    };
    let lines = code_only(source);
    let mut found = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| writes(l))
        .map(|(i, _)| i + 1);
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_open_brace_is_found_by_indentation() {
        let src = "fn rules(board) {\n  for c in board.cells {\n    x.push(1);\n\n  #{ kind: \"hop\" }\n}\n";
        assert_eq!(unclosed_brace(src), Some((2, 24)));
    }

    #[test]
    fn without_a_telling_indent_the_innermost_open_brace() {
        let src = "fn rules(board) {\n  // a { in a comment\n  let s = \"}\";\n";
        assert_eq!(unclosed_brace(src), Some((1, 17)));
        assert_eq!(unclosed_brace("fn rules(b) { #{} }\n"), None);
    }

    #[test]
    fn a_key_is_placed_only_when_one_line_writes_it() {
        let src = "let m = #{ from: c, to: d };\nm.to = e; // from: here\nlet fromage = 1;\n";
        assert_eq!(key_line(src, "from"), Some(1));
        assert_eq!(key_line(src, "to"), None);
        assert_eq!(key_line(src, "over"), None);
        let src = "let m = #{ \"gaol\": 1 };\n// \"gaol\": not code\nlet s = \"x \\\"gaol\\\": y\";\n";
        assert_eq!(key_line(src, "gaol"), Some(1));
    }
}
