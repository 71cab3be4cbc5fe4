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

/// The number a word spells in English (`sixty`, `forty-two`, `hundred`), below a thousand.
pub fn number_in_words(word: &str) -> Option<u32> {
    const UNITS: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 8] = [
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    let below_hundred = |w: &str| -> Option<u32> {
        if let Some(n) = UNITS.iter().position(|u| *u == w) {
            return Some(n as u32);
        }
        let (tens, unit) = w.split_once('-').unwrap_or((w, ""));
        let t = TENS.iter().position(|x| *x == tens)? as u32 * 10 + 20;
        match unit {
            "" => Some(t),
            u => UNITS[1..10]
                .iter()
                .position(|x| *x == u)
                .map(|n| t + n as u32 + 1),
        }
    };
    let word = word.to_ascii_lowercase();
    match word.split_once("hundred") {
        Some(("", "")) => Some(100),
        Some((h, rest)) => {
            let h = below_hundred(h.trim_end_matches('-')).filter(|h| (1..10).contains(h))?;
            let rest = rest
                .trim_start_matches(['-', '_'])
                .trim_start_matches("and-");
            let r = if rest.is_empty() {
                0
            } else {
                below_hundred(rest)?
            };
            Some(h * 100 + r)
        }
        None => below_hundred(&word),
    }
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
    fn numbers_in_words_read_as_digits() {
        assert_eq!(number_in_words("sixty"), Some(60));
        assert_eq!(number_in_words("Forty-two"), Some(42));
        assert_eq!(number_in_words("seven"), Some(7));
        assert_eq!(number_in_words("hundred"), Some(100));
        assert_eq!(number_in_words("two-hundred"), Some(200));
        assert_eq!(number_in_words("plies"), None);
        assert_eq!(number_in_words("sixty-ten"), None);
    }

    #[test]
    fn look_alike_letters_are_named() {
        let (message, fixed) = look_alike("st\u{435}p").expect("a Cyrillic letter");
        assert_eq!(fixed, "step");
        assert!(message.contains("Cyrillic"), "{message}");
        assert_eq!(look_alike("step"), None);
    }
}
