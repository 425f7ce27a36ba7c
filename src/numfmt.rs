//! Every number as people read it, in one place: counts, bytes, durations, percentages,
//! intervals, percentage points, p-values, thousands separators and chart ticks. The modules
//! that print numbers import these (some under their old local names).

/// A token count, short: 950, 4.6k, 1.25M (progress lines).
pub fn count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.2}M", n as f64 / 1e6),
    }
}

/// Seconds as 42s, 3m05s or 2h10m; `-` when unknown.
pub fn duration(s: f64) -> String {
    if !s.is_finite() {
        return "-".into();
    }
    let s = s.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// A byte count in KB, MB or GB.
pub fn bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{:.1} KB", b / 1e3)
    }
}

/// A fraction as a percentage with one decimal and no space (narrow terminal columns).
pub fn percent_tight(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// A fraction as a percentage with one decimal.
pub fn percent(x: Option<f64>) -> String {
    x.map_or("–".into(), |x| format!("{:.1} %", 100.0 * x))
}

/// A 95 % interval of fractions as `[a, b]` in percent.
pub fn interval(lo: Option<f64>, hi: Option<f64>) -> String {
    match (lo, hi) {
        (Some(l), Some(h)) => format!("[{:.1}, {:.1}]", 100.0 * l, 100.0 * h),
        _ => "–".into(),
    }
}

/// Percentage points with a sign.
pub fn points(x: Option<f64>) -> String {
    x.map_or("–".into(), |x| {
        if x.abs() < 0.05 {
            "±0.0 pp".into()
        } else {
            format!("{x:+.1} pp")
        }
    })
}

/// A p-value as people read it: `< 0.001`, else three significant digits (so 0.0496 and
/// 0.0504 stay apart).
pub fn p_value(x: f64) -> String {
    if x < 0.001 {
        "< 0.001".into()
    } else if x >= 0.9995 {
        "1".into()
    } else {
        let decimals = (2 - x.log10().floor() as i32).max(0) as usize;
        format!("{x:.decimals$}")
    }
}

/// A whole number with thousands separators.
pub fn thousands(n: i64) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

/// 0..1 as a percentage, with more decimals when the axis spans little.
pub fn axis_percent(v: f64, span: f64) -> String {
    if span >= 0.1 {
        format!("{:.0}%", v * 100.0)
    } else if span >= 0.01 {
        format!("{:.1}%", v * 100.0)
    } else {
        format!("{:.2}%", v * 100.0)
    }
}

/// Short number for ticks and bar labels: 950, 4k, 12.5k, 3.2M.
pub fn compact(v: f64) -> String {
    let a = v.abs();
    // Past trillions suffixes stop helping and fixed notation would print hundreds of digits.
    if a >= 1e12 {
        return format!("{v:.1e}");
    }
    let (scaled, suffix) = if a >= 1e9 {
        (v / 1e9, "B")
    } else if a >= 1e6 {
        (v / 1e6, "M")
    } else if a >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let s = if (suffix.is_empty() && scaled.fract() == 0.0) || scaled.abs() >= 100.0 {
        format!("{scaled:.0}")
    } else {
        let s = format!("{scaled:.1}");
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    format!("{s}{suffix}")
}

/// A measured quantity in a report table, one style for every column: one decimal with
/// thousands separators (0.7, 25.3, 100.0, 18,390.5); a value that would read as 0.0 but is
/// not zero says so (< 0.1).
pub fn decimal(x: f64) -> String {
    if !x.is_finite() {
        return "–".into();
    }
    if x != 0.0 && x.abs() < 0.05 {
        return if x > 0.0 { "< 0.1" } else { "> -0.1" }.into();
    }
    let tenths = (x * 10.0).round() as i64;
    let whole = thousands(tenths / 10);
    let sign = if tenths < 0 && tenths / 10 == 0 {
        "-"
    } else {
        ""
    };
    format!("{sign}{whole}.{}", (tenths % 10).abs())
}

/// US dollars in a report table: $0 when nothing was spent, else four decimals below a
/// dollar (API calls cost fractions of a cent) and two above.
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x == 0.0 {
        "$0".into()
    } else if x.abs() < 1.0 {
        format!("${x:.4}")
    } else {
        format!("${x:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form() {
        assert_eq!(
            (count(950), count(4_600), count(1_250_000)),
            ("950".into(), "4.6k".into(), "1.25M".into())
        );
        assert_eq!(
            (duration(42.0), duration(185.0), duration(7800.0)),
            ("42s".into(), "3m05s".into(), "2h10m".into())
        );
        assert_eq!(duration(f64::NAN), "-");
        assert_eq!(bytes(2_500_000), "2.5 MB");
        assert_eq!(
            (percent_tight(0.5), percent(Some(0.5)), percent(None)),
            ("50.0%".into(), "50.0 %".into(), "–".into())
        );
        assert_eq!(interval(Some(0.1), Some(0.25)), "[10.0, 25.0]");
        assert_eq!(
            (points(Some(-2.0)), points(Some(0.01))),
            ("-2.0 pp".into(), "±0.0 pp".into())
        );
        assert_eq!(
            (p_value(0.0004), p_value(0.0496), p_value(0.5)),
            ("< 0.001".into(), "0.0496".into(), "0.500".into())
        );
        assert_eq!(
            (thousands(1_234_567), thousands(-1000)),
            ("1,234,567".into(), "-1,000".into())
        );
        assert_eq!(
            (
                axis_percent(0.5, 0.5),
                axis_percent(0.5, 0.05),
                axis_percent(0.5, 0.005)
            ),
            ("50%".into(), "50.0%".into(), "50.00%".into())
        );
        assert_eq!(
            (compact(950.0), compact(12_500.0), compact(3_200_000.0)),
            ("950".into(), "12.5k".into(), "3.2M".into())
        );
    }

    #[test]
    fn table_numbers_share_one_style() {
        assert_eq!(decimal(0.0), "0.0");
        assert_eq!(decimal(0.667), "0.7");
        assert_eq!(decimal(100.0), "100.0");
        assert_eq!(decimal(18390.46), "18,390.5");
        assert_eq!(decimal(-0.25), "-0.3");
        assert_eq!(decimal(-12.34), "-12.3");
        assert_eq!(decimal(0.01), "< 0.1");
        assert_eq!(usd(0.0), "$0");
        assert_eq!(usd(0.00123), "$0.0012");
        assert_eq!(usd(12.5), "$12.50");
    }
}
