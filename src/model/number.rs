//! How a number prints: ECMAScript's `Number.prototype.toString`, which
//! the canonical encoding (RFC 8785) and every message use.

/// Formats a finite double the way ECMAScript's `Number.prototype.toString`
/// does (RFC 8785 §3.2.2.3).
pub fn number(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    if !n.is_finite() {
        // Never stored (refused on the way in); keep the output valid JSON.
        return "null".into();
    }
    let (digits, exp) = shortest_digits(n.abs());
    let k = digits.len() as i32;
    let n_pos = exp + 1; // position of the decimal point relative to the digits
    let mut out = String::new();
    if n < 0.0 {
        out.push('-');
    }
    if k <= n_pos && n_pos <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n_pos - k) as usize));
    } else if 0 < n_pos && n_pos <= 21 {
        out.push_str(&digits[..n_pos as usize]);
        out.push('.');
        out.push_str(&digits[n_pos as usize..]);
    } else if -6 < n_pos && n_pos <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n_pos) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        let e = n_pos - 1;
        out.push(if e >= 0 { '+' } else { '-' });
        out.push_str(&e.abs().to_string());
    }
    out
}

/// Splits `{:e}` output into its digits and decimal exponent.
fn sci_parts(sci: &str) -> (String, i32) {
    let (mantissa, exp) = sci.split_once('e').expect("exponent");
    let exp: i32 = exp.parse().expect("exponent digits");
    (mantissa.chars().filter(|c| *c != '.').collect(), exp)
}

/// The shortest digits that round-trip to `x` (> 0), and the decimal exponent
/// of the first one. When two such digit strings are equally close to `x`,
/// ECMAScript takes the one whose last digit is even; Rust's formatter may
/// take the other, so ties are settled here against the exact expansion.
fn shortest_digits(x: f64) -> (String, i32) {
    let (digits, exp) = sci_parts(&format!("{x:e}"));
    if x.fract() == 0.0 && x < 1e21 {
        return (digits, exp); // integers below 1e21 print exactly: no tie
    }
    let k = digits.len();
    // 767 significant digits expand any double exactly.
    let (exact, exact_exp) = sci_parts(&format!("{x:.800e}"));
    let tail = &exact[k.min(exact.len())..];
    let is_tie = exact_exp == exp && tail.starts_with('5') && tail[1..].bytes().all(|b| b == b'0');
    if !is_tie {
        return (digits, exp);
    }
    let low = exact[..k].to_string();
    if low.as_bytes()[k - 1] % 2 == 0 {
        return (trim_zeros(low), exp);
    }
    // The high neighbour: add one in the last place, carrying.
    let mut bytes = low.into_bytes();
    let mut i = k;
    let mut e = exp;
    loop {
        if i == 0 {
            bytes.insert(0, b'1');
            bytes.pop();
            e += 1;
            break;
        }
        i -= 1;
        if bytes[i] == b'9' {
            bytes[i] = b'0';
        } else {
            bytes[i] += 1;
            break;
        }
    }
    (
        trim_zeros(String::from_utf8(bytes).expect("ascii digits")),
        e,
    )
}

fn trim_zeros(mut s: String) -> String {
    while s.len() > 1 && s.ends_with('0') {
        s.pop();
    }
    s
}
