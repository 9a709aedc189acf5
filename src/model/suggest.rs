//! Near-miss suggestions and capped lists of valid choices for messages.

/// Edit distance (optimal string alignment: insert, delete, substitute, swap),
/// counted in chars. Stops early once every cell exceeds `cap`.
pub fn distance(a: &str, b: &str, cap: usize) -> usize {
    // Lengths alone can rule a pair out, before anything is allocated (a
    // hostile megabyte-long name must not cost a megabyte per candidate): a
    // string has between len/4 and len chars.
    if a.len().div_ceil(4) > b.len() + cap || b.len().div_ceil(4) > a.len() + cap {
        return cap + 1;
    }
    // Ids are mostly ASCII: then the lengths in chars are known without
    // collecting them (a list of choices measures every id of the plan).
    if a.is_ascii() && b.is_ascii() && a.len().abs_diff(b.len()) > cap {
        return cap + 1;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return cap + 1;
    }
    let w = b.len() + 1;
    let mut prev2 = vec![0usize; w];
    let mut prev: Vec<usize> = (0..w).collect();
    let mut cur = vec![0usize; w];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > cap {
            return cap + 1;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest candidate that is plausibly a typo of `input`: the one with
/// the lowest [`score`], the first of them in `candidates`' order.
pub fn closest<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let cap = cap_for(input);
    let lower = input.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == input {
            return None;
        }
        if let Some(score) = score_with(input, &lower, cap, c)
            && best.is_none_or(|(bd, _)| score < bd)
        {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// How far `c` is from being what `input` meant, when it is near enough
/// to suggest (what [`closest`] compares): 0 for the same text in other
/// case, at most 1 for a longer id starting with `input`, else the edit
/// distance, up to a cap that grows with `input`'s length.
pub fn score(input: &str, c: &str) -> Option<usize> {
    score_with(input, &input.to_lowercase(), cap_for(input), c)
}

fn cap_for(input: &str) -> usize {
    (input.chars().count() / 3).clamp(1, 4)
}

fn score_with(input: &str, lower: &str, cap: usize, c: &str) -> Option<usize> {
    // The same text in other case: for ASCII ids, without a lowered copy of
    // every candidate.
    let same_case_folded = if input.is_ascii() && c.is_ascii() {
        c.eq_ignore_ascii_case(input)
    } else {
        c.to_lowercase() == lower
    };
    let d = if same_case_folded {
        0
    } else {
        distance(input, c, cap)
    };
    let prefix_hit = input.len() >= 3 && c.starts_with(input);
    let score = if prefix_hit { d.min(1) } else { d };
    (score <= cap).then_some(score)
}

/// ` (did you mean `x`?)` or the empty string.
pub fn did_you_mean<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    match closest(input, candidates) {
        Some(c) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    }
}

/// The distance [`nearest_first`] orders by, up to `cap` (then `cap + 1`).
fn nearness(input: &str, c: &str, cap: usize) -> usize {
    if !input.is_empty() && (c.starts_with(input) || c.contains(input)) {
        0
    } else {
        distance(input, c, cap)
    }
}

/// Orders candidates nearest first (ties keep their order), for lists of
/// valid choices.
pub fn nearest_first<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let mut scored: Vec<(usize, usize, &str)> = candidates
        .into_iter()
        .enumerate()
        .map(|(i, c)| (nearness(input, c, 64), i, c))
        .collect();
    scored.sort();
    scored.into_iter().map(|(_, _, c)| c).collect()
}

/// The first `keep` of [`nearest_first`], and how many candidates there
/// are: a candidate is measured only as far as it could still be among
/// them (a plan's 100,000 ids, when one was mistyped, were each measured
/// to a distance of 64 and all sorted).
/// The distance given a choice farther than any measured.
const FAR: usize = 65;

fn nearest_few<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    keep: usize,
) -> (Vec<&'a str>, usize) {
    let mut best: std::collections::BinaryHeap<(usize, usize, &str)> = Default::default();
    let mut count = 0;
    for (i, c) in candidates.into_iter().enumerate() {
        count += 1;
        // Full: only a nearer one gets in (an equal one comes later).
        let cap = match best.peek() {
            Some(&(worst, ..)) if best.len() >= keep => match worst.checked_sub(1) {
                Some(cap) => cap.min(64),
                None => continue,
            },
            _ => 64,
        };
        let d = nearness(input, c, cap);
        if d > cap {
            // Far from everything (a long or unrelated input): still a
            // choice, after the near ones, while there is room.
            if best.len() < keep {
                best.push((FAR, i, c));
            }
            continue;
        }
        best.push((d, i, c));
        if best.len() > keep {
            best.pop();
        }
    }
    let mut best = best.into_vec();
    best.sort();
    (best.into_iter().map(|(_, _, c)| c).collect(), count)
}

/// `a, b, c … and N more`, at most `cap` items.
pub fn capped_list<S: AsRef<str>>(items: &[S], cap: usize) -> String {
    let shown = &items[..items.len().min(cap)];
    listed(shown, items.len() - shown.len())
}

/// `shown` as `a, b, c`, then ` … and N more` for `more` left out.
fn listed<S: AsRef<str>>(shown: &[S], more: usize) -> String {
    let shown: Vec<String> = shown.iter().map(|s| format!("`{}`", s.as_ref())).collect();
    let mut out = shown.join(", ");
    if more > 0 {
        out.push_str(&format!(" … and {more} more"));
    }
    if out.is_empty() {
        out.push_str("(none)");
    }
    out
}

/// The valid choices for `input`, nearest first, capped at 20.
pub fn choices<'a>(input: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let (shown, count) = nearest_few(input, candidates, 20);
    listed(&shown, count - shown.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("kitten", "sitting", 10), 3);
        assert_eq!(distance("ab", "ba", 10), 1);
        assert_eq!(distance("", "abc", 10), 3);
        assert_eq!(distance("ééé", "eee", 10), 3);
        // A huge name is ruled out by length, without an edit table.
        let huge = "x".repeat(50_000_000);
        assert_eq!(distance(&huge, "read_artifact", 4), 5);
        assert_eq!(closest(&huge, ["read_artifact", "notify"]), None);
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            closest("fetch_tiket", ["fetch_ticket", "notify"]),
            Some("fetch_ticket")
        );
        assert_eq!(closest("zzzzzz", ["fetch_ticket", "notify"]), None);
        assert_eq!(
            did_you_mean("alway", ["always", "error"]),
            " (did you mean `always`?)"
        );
    }

    #[test]
    fn capped() {
        let items: Vec<String> = (0..25).map(|i| format!("n{i}")).collect();
        let s = capped_list(&items, 20);
        assert!(s.ends_with("… and 5 more"));
        assert_eq!(choices("n2", ["a", "n2x", "b"]), "`n2x`, `a`, `b`");
        // An input far from every choice (here by length) still lists them.
        let far = "t".repeat(300);
        assert_eq!(choices(&far, ["a", "tt", "b"]), "`a`, `tt`, `b`");
        let many: Vec<String> = (0..25).map(|i| format!("n{i:02}")).collect();
        let listed = choices(&far, many.iter().map(String::as_str));
        assert!(
            listed.starts_with("`n00`, `n01`") && listed.ends_with("… and 5 more"),
            "{listed}"
        );
    }

    /// The choices listed are the first 20 of all of them nearest first,
    /// however the candidates come.
    #[test]
    fn choices_are_the_nearest_of_all() {
        let ids: Vec<String> = (0..3000)
            .map(|i| {
                format!(
                    "{}_{}",
                    ["fetch", "read", "merge", "kb"][i % 4],
                    (i * 7919) % 5000
                )
            })
            .collect();
        for input in ["fetch_12", "read_9999", "kb_", "", "zzzz", "merge_4242x"] {
            let all = nearest_first(input, ids.iter().map(String::as_str));
            let want = capped_list(&all, 20);
            assert_eq!(
                choices(input, ids.iter().map(String::as_str)),
                want,
                "{input}"
            );
        }
    }
}
