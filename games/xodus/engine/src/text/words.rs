//! Small helpers that turn numbers and clauses into English.

/// `n` followed by the singular or plural noun: "1 scrap", "2 scraps".
pub fn count(n: u8, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The items joined as an English list: "a", "a and b", "a, b and c".
pub fn list<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "and")
}

/// The items as alternatives: "a", "a or b", "a, b or c".
pub fn either<S: AsRef<str>>(items: &[S]) -> String {
    joined(items, "or")
}

/// Seats as players read them: "captain 0", "captains 0 and 2".
pub fn captains(seats: &[u8]) -> String {
    match seats {
        [one] => format!("captain {one}"),
        _ => format!("captains {}", list(&seats.iter().map(u8::to_string).collect::<Vec<_>>())),
    }
}

/// The items joined by commas and the conjunction before the last.
fn joined<S: AsRef<str>>(items: &[S], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            let init: Vec<&str> = init.iter().map(AsRef::as_ref).collect();
            format!("{} {conjunction} {}", init.join(", "), last.as_ref())
        }
    }
}

/// The clause as a sentence: first letter upper case, ending with a period.
pub fn sentence(clause: &str) -> String {
    let mut chars = clause.chars();
    let mut s: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// Sentences joined by single spaces.
pub fn paragraph(sentences: &[String]) -> String {
    sentences.iter().map(|s| sentence(s)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english() {
        assert_eq!(count(1, "scrap", "scraps"), "1 scrap");
        assert_eq!(count(3, "scrap", "scraps"), "3 scraps");
        assert_eq!(list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(list(&["a"]), "a");
        assert_eq!(either(&["a", "b"]), "a or b");
        assert_eq!(sentence("each ship loses 1 health"), "Each ship loses 1 health.");
        assert_eq!(paragraph(&["one".into(), "two.".into()]), "One. Two.");
        assert_eq!(captains(&[2]), "captain 2");
        assert_eq!(captains(&[0, 1, 3]), "captains 0, 1 and 3");
    }
}
