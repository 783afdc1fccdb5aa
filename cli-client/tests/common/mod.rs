//! What the screen tests read off a rendered picture: one panel's rows
//! (found by its title), and whether a text's words stand in it whole and
//! in order, however the panel wrapped them.

/// The inside of the bordered panel whose title starts with `title`: its
/// rows between the borders, or None when it is not on the screen.
pub fn panel_rows(picture: &str, title: &str) -> Option<Vec<String>> {
    let rows: Vec<Vec<char>> = picture.lines().map(|l| l.chars().collect()).collect();
    let needle: Vec<char> = format!("┌ {title}").chars().collect();
    for (y, row) in rows.iter().enumerate() {
        let Some(x) = (0..row.len()).find(|&x| row[x..].starts_with(&needle)) else { continue };
        let right = (x + 1..row.len()).find(|&i| row[i] == '┐')?;
        let mut inside = Vec::new();
        for r in &rows[y + 1..] {
            if r.get(x) == Some(&'└') {
                break;
            }
            let cell: String = (x + 1..right).map(|i| r.get(i).copied().unwrap_or(' ')).collect();
            inside.push(cell);
        }
        return Some(inside);
    }
    None
}

/// Whether the words of `text` appear in `rows` one after another (across
/// row ends): nothing of it cut.
pub fn has_words(rows: &[String], text: &str) -> bool {
    let all: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
    let want: Vec<&str> = text.split_whitespace().collect();
    !want.is_empty() && all.windows(want.len()).any(|w| w == want.as_slice())
}
