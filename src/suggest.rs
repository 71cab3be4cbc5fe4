//! Suggestions for misspelt words: a distance that counts a swap of two neighbouring
//! letters as one edit, and look-alike letters from other alphabets.

/// Words longer than this are never compared: no word of a file is meant to be that long,
/// and comparing costs the product of the lengths.
const LONGEST_COMPARED: usize = 64;

/// The word closest to `name` (any case), if close enough to be a likely misspelling.
pub fn closest<'a>(words: impl IntoIterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    if name.len() > LONGEST_COMPARED {
        return None;
    }
    let lower = name.to_lowercase();
    let limit = 2.max(name.chars().count() / 3);
    words
        .into_iter()
        .filter_map(|w| distance(&w.to_lowercase(), &lower, limit).map(|d| (d, w)))
        .min()
        .map(|(_, w)| w)
}

/// The edits (insertions, deletions, substitutions, swaps of neighbours) that turn `a`
/// into `b`, if at most `limit`.
pub fn distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > limit || a.len().max(b.len()) > LONGEST_COMPARED {
        return None;
    }
    // Three rows of the optimal string alignment table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let same = a[i - 1] == b[j - 1];
            let mut d = (prev[j - 1] + usize::from(!same))
                .min(prev[j] + 1)
                .min(cur[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    Some(prev[b.len()]).filter(|d| *d <= limit)
}

/// Letters of other alphabets that look like Latin ones, with the Latin letter and
/// the alphabet's name.
const LOOK_ALIKES: &[(char, char, &str)] = &[
    ('а', 'a', "Cyrillic"),
    ('в', 'b', "Cyrillic"),
    ('е', 'e', "Cyrillic"),
    ('к', 'k', "Cyrillic"),
    ('м', 'm', "Cyrillic"),
    ('н', 'h', "Cyrillic"),
    ('о', 'o', "Cyrillic"),
    ('р', 'p', "Cyrillic"),
    ('с', 'c', "Cyrillic"),
    ('т', 't', "Cyrillic"),
    ('у', 'y', "Cyrillic"),
    ('х', 'x', "Cyrillic"),
    ('і', 'i', "Cyrillic"),
    ('ј', 'j', "Cyrillic"),
    ('ѕ', 's', "Cyrillic"),
    ('А', 'A', "Cyrillic"),
    ('В', 'B', "Cyrillic"),
    ('Е', 'E', "Cyrillic"),
    ('К', 'K', "Cyrillic"),
    ('М', 'M', "Cyrillic"),
    ('Н', 'H', "Cyrillic"),
    ('О', 'O', "Cyrillic"),
    ('Р', 'P', "Cyrillic"),
    ('С', 'C', "Cyrillic"),
    ('Т', 'T', "Cyrillic"),
    ('Х', 'X', "Cyrillic"),
    ('α', 'a', "Greek"),
    ('ο', 'o', "Greek"),
    ('ρ', 'p', "Greek"),
    ('ν', 'v', "Greek"),
    ('Α', 'A', "Greek"),
    ('Β', 'B', "Greek"),
    ('Ε', 'E', "Greek"),
    ('Κ', 'K', "Greek"),
    ('Ν', 'N', "Greek"),
    ('Ο', 'O', "Greek"),
    ('Ρ', 'P', "Greek"),
    ('Τ', 'T', "Greek"),
    ('Χ', 'X', "Greek"),
];

/// When `word` holds a letter that only looks Latin: a sentence naming it, and the word
/// with Latin letters.
pub fn look_alike(word: &str) -> Option<(String, String)> {
    let (found, latin, alphabet) = word
        .chars()
        .find_map(|c| LOOK_ALIKES.iter().find(|(l, _, _)| *l == c))?;
    let fixed: String = word
        .chars()
        .map(|c| {
            LOOK_ALIKES
                .iter()
                .find(|(l, _, _)| *l == c)
                .map_or(c, |(_, latin, _)| *latin)
        })
        .collect();
    let message = format!(
        "`{found}` here is the {alphabet} letter U+{:04X}, which looks like the Latin `{latin}`",
        u32::from(*found)
    );
    Some((message, fixed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_is_one_edit() {
        assert_eq!(distance("rnuner", "runner", 2), Some(1));
        assert_eq!(distance("rune", "rnuner", 2), Some(2));
        assert_eq!(distance("abc", "abc", 0), Some(0));
        assert_eq!(distance("abcdef", "a", 2), None);
        assert_eq!(closest(["Rune", "Runner"], "Rnuner"), Some("Runner"));
    }

    #[test]
    fn look_alike_letters_are_named() {
        let (message, fixed) = look_alike("st\u{435}p").expect("a Cyrillic letter");
        assert_eq!(fixed, "step");
        assert!(message.contains("Cyrillic"), "{message}");
        assert_eq!(look_alike("step"), None);
    }
}
