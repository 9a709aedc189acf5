//! The clock, with the deterministic test hook `PLANFORGE_NOW` (SPEC §3).

use std::time::{SystemTime, UNIX_EPOCH};

/// The current time as RFC 3339 UTC (`2026-11-30T13:49:46Z`), or
/// `PLANFORGE_NOW` when it is set to such a time (anything else is
/// ignored, as the other hooks ignore what does not parse: the log never
/// records a time that is not one).
pub fn now() -> String {
    if let Some(fixed) = crate::model::hooks::now().filter(|t| is_rfc3339(t)) {
        return fixed;
    }
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

/// Formats seconds since the epoch as RFC 3339 UTC.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_046_586), "2026-11-30T13:49:46Z");
    }
}

/// Whether `s` is an RFC 3339 UTC time as planforge writes them
/// (`2026-12-01T14:18:35Z`, optionally with fractional seconds).
pub fn is_rfc3339(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    let head = digits(0..4)
        && at(4, b'-')
        && digits(5..7)
        && at(7, b'-')
        && digits(8..10)
        && at(10, b'T')
        && digits(11..13)
        && at(13, b':')
        && digits(14..16)
        && at(16, b':')
        && digits(17..19);
    let tail = match b.get(19) {
        Some(b'Z') => b.len() == 20,
        Some(b'.') => b.len() > 21 && b.last() == Some(&b'Z') && digits(20..b.len() - 1),
        _ => false,
    };
    head && tail && in_range(b)
}

/// Whether the fields of a time shaped as RFC 3339 name one: month 1–12,
/// a day the month has (29 February in leap years), hour 0–23, minute
/// 0–59, second 0–59, or 60 at 23:59 (RFC 3339's leap second).
fn in_range(b: &[u8]) -> bool {
    let num =
        |r: std::ops::Range<usize>| b[r].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
    let (year, month, day) = (num(0..4), num(5..7), num(8..10));
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    let (hour, minute, second) = (num(11..13), num(14..16), num(17..19));
    let leap_second = second == 60 && hour == 23 && minute == 59;
    (1..=days).contains(&day) && hour < 24 && minute < 60 && (second < 60 || leap_second)
}

#[cfg(test)]
mod rfc3339_tests {
    #[test]
    fn only_utc_times_as_written_pass() {
        assert!(super::is_rfc3339("2026-12-01T14:18:35Z"));
        assert!(super::is_rfc3339("2026-12-01T14:18:35.123Z"));
        // Days that exist, the leap second, the ends of the ranges.
        for good in [
            "2024-02-29T00:00:00Z",
            "2000-02-29T23:59:59Z",
            "2026-12-31T23:59:60Z",
            "2026-01-01T00:00:00Z",
        ] {
            assert!(super::is_rfc3339(good), "{good}");
        }
        for bad in [
            "yesterday",
            "",
            "2026-12-01",
            "2026-12-01T14:18:35",
            "2026-12-01T14:18:35Z\n",
            "2026-13-45T99:99:99Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-00-10T00:00:00Z",
            "2026-01-00T00:00:00Z",
            "2026-01-01T24:00:00Z",
            "2026-01-01T00:60:00Z",
            "2026-01-01T00:00:61Z",
            "2026-06-01T12:00:60Z",
        ] {
            assert!(!super::is_rfc3339(bad), "{bad}");
        }
    }
}
