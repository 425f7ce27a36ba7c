//! Tests of [`super`]: number reading, nearness, tolerances, and fact accuracy against TeaLeaf's
//! rubric on replies of known quality.

use super::*;
use crate::grading::rubric::{self, ExpectedElement, OutputType};
use serde_json::json;

fn fact(description: &str, value: Value, tolerance: Option<f64>) -> Fact {
    Fact {
        description: description.into(),
        value,
        tolerance,
    }
}

/// Whether `reply` states the single fact correctly.
fn ok(reply: &str, description: &str, value: Value, tolerance: Option<f64>) -> bool {
    check(reply, &[fact(description, value, tolerance)])[0].correct
}

fn values(text: &str) -> Vec<f64> {
    numbers(text).iter().map(|n| n.value).collect()
}

#[test]
fn thousands_separators() {
    assert!(ok(
        "Total revenue: 1,234,567",
        "total revenue",
        json!(1234567),
        None
    ));
    assert!(ok(
        "Total revenue: 1 234 567",
        "total revenue",
        json!(1234567),
        None
    ));
    assert!(ok(
        "Total revenue: 1\u{a0}234\u{a0}567",
        "total revenue",
        json!(1234567),
        None
    ));
    assert!(!ok(
        "Total revenue: 1,234,568",
        "total revenue",
        json!(1234567),
        None
    ));
    // A space-separated group must end the number: "15 2024" is 15 and 2024, not 15202.
    assert_eq!(values("on March 15 2024"), [15.0, 2024.0]);
}

#[test]
fn currency_and_percent() {
    let truth = json!(1234567.89);
    assert!(ok(
        "Total revenue: $1,234,567.89",
        "total revenue",
        truth.clone(),
        Some(0.01)
    ));
    assert!(ok(
        "Total revenue: € 1,234,567.89",
        "total revenue",
        truth.clone(),
        Some(0.01)
    ));
    assert!(ok(
        "Total revenue: £1234567.89.",
        "total revenue",
        truth,
        Some(0.01)
    ));
    assert!(ok(
        "Late orders share: 12.5%",
        "share of late orders",
        json!(12.5),
        None
    ));
    assert!(ok(
        "Late orders share: 12.5 %",
        "share of late orders",
        json!(12.5),
        None
    ));
    // Strict: a fraction is not the percentage.
    assert!(!ok(
        "Late orders share: 0.125",
        "share of late orders",
        json!(12.5),
        None
    ));
}

#[test]
fn scale_words_and_letters() {
    assert_eq!(
        values("$1.2M, 5.2k, 3.4 million, 2.5 billion, 7bn, 12 units"),
        [1.2e6, 5.2e3, 3.4e6, 2.5e9, 7e9, 12.0]
    );
    let truth = json!(1234567.89);
    // 1.23 million is 4,567.89 off: inside 0.5 % (6,172.84); 1.2M is 34,567.89 off: outside.
    assert!(ok(
        "Total revenue: about $1.23 million",
        "total revenue",
        truth.clone(),
        None
    ));
    assert!(!ok(
        "Total revenue: about $1.2M",
        "total revenue",
        truth,
        None
    ));
}

#[test]
fn parentheses_and_signs_negative() {
    let truth = json!(-1234);
    assert!(ok("Net income: (1,234)", "net income", truth.clone(), None));
    assert!(ok(
        "Net income: ($1,234)",
        "net income",
        truth.clone(),
        None
    ));
    assert!(ok("Net income: -$1,234", "net income", truth.clone(), None));
    assert!(ok("Net income: $-1,234", "net income", truth.clone(), None));
    assert!(ok("Net income: −1,234", "net income", truth.clone(), None));
    assert!(!ok("Net income: 1,234", "net income", truth, None));
    // Prose parentheses stay readable as positive.
    assert!(ok("Order count (412)", "order count", json!(412), None));
}

#[test]
fn dates_times_and_names_are_not_numbers() {
    for truth in [3, 1, 2024, 10, 30] {
        let reply = "Latest order: 2024-03-01T10:30:00Z (see also 03/01/2024, 2024-03, 10:30).";
        assert!(!ok(reply, "latest order", json!(truth), None), "{truth}");
    }
    assert!(values("Q3, E-104, FIN-001, v2.1, H2O").is_empty());
    // A range keeps both ends positive; list markers are not values.
    assert_eq!(values("2. Years 2020-2024"), [2020.0, 2024.0]);
}

#[test]
fn default_tolerance_exact_for_integers_relative_for_floats() {
    let count = |r: &str| ok(r, "order count", json!(412), None);
    assert!(count("Order count: 412") && count("Order count: 412.0"));
    assert!(!count("Order count: 412.4") && !count("Order count: 413"));
    // 0.5 % of 2,996.52 is 14.98.
    let avg = |r: &str| ok(r, "average order value", json!(2996.52), None);
    assert!(avg("Average order value: $2,996") && avg("Average order value: $3,010"));
    assert!(!avg("Average order value: $3,020"));
    // Explicit absolute tolerance, with float noise (2996.53 − 2996.52 > 0.01 in f64) forgiven.
    let cents = |r: &str| ok(r, "average order value", json!(2996.52), Some(0.01));
    assert!(cents("Average order value: 2996.53") && !cents("Average order value: 2996.54"));
}

#[test]
fn number_far_from_its_description_does_not_count() {
    // A full sentence is no heading: it lends no line, and the revenue two lines down is far.
    let reply = "Total revenue was strong this year.\nWe processed 412 orders.\n\
                 The overall figure came to 1,234,567.89.";
    let c = &check(
        reply,
        &[fact("total revenue", json!(1234567.89), Some(0.01))],
    )[0];
    assert!(!c.correct);
    assert_eq!(c.found, None);
    // The same number under a heading-like line counts, and only on the line right below.
    let truth = json!(1234567.89);
    for heading in [
        "**Total revenue**",
        "## Total revenue",
        "Total revenue:",
        "1. Total revenue",
    ] {
        let reply = format!("{heading}\n\n$1,234,567.89");
        assert!(
            ok(&reply, "total revenue", truth.clone(), None),
            "{heading}"
        );
        let reply = format!("{heading}\nSee below.\n$1,234,567.89");
        assert!(
            !ok(&reply, "total revenue", truth.clone(), None),
            "{heading}"
        );
    }
    // In a long line, another sentence's number does not count.
    let long = "Total revenue grew strongly compared with the previous year, driven mostly by \
                the western stores and by the new product line launched in spring. Separately, \
                the warehouse shipped 1,234,567.89 kilograms of goods.";
    assert!(long.len() > LONG_LINE);
    assert!(!ok(long, "total revenue", json!(1234567.89), None));
}

#[test]
fn tables_by_row_and_by_column_header() {
    let rows = "| Metric | Value |\n|---|---|\n| Total revenue | $1,234,567.89 |\n| Orders | 412 |";
    assert!(ok(rows, "total revenue", json!(1234567.89), None));
    assert!(ok(rows, "number of orders", json!(412), None));
    let wide = "| Total revenue | Order count | Top region |\n|:--|--:|---|\n\
                | $1,234,567.89 | 412 | West |";
    assert!(ok(wide, "order count", json!(412), None));
    assert!(ok(wide, "top region", json!("West"), None));
    assert!(!ok(wide, "order count", json!(1234567.89), None));
}

#[test]
fn keywords_stem_and_match_prefixes() {
    assert_eq!(
        keywords("The number of orders per region"),
        ["number", "order", "region"]
    );
    assert_eq!(
        keywords("salaries, taxes and statuses"),
        ["salary", "tax", "status"]
    );
    assert!(is_near("Revenues: 10", &keywords("total revenue")));
    assert!(is_near(
        "Regional revenue: 10",
        &keywords("revenue by region")
    ));
    // 1 of 3 keywords is less than half.
    assert!(!is_near(
        "Salary: 10",
        &keywords("average salary in Engineering")
    ));
}

#[test]
fn strings_lists_bools_and_null() {
    assert!(ok("Top region: West.", "top region", json!("West"), None));
    assert!(ok(
        "The top region is **west**",
        "top region",
        json!("West"),
        None
    ));
    assert!(!ok(
        "Top region: Westfield",
        "top region",
        json!("West"),
        None
    ));
    assert!(!ok(
        "Top region: East.\nWest had the fewest returns.",
        "top region",
        json!("West"),
        None
    ));
    assert!(ok("Top region:\nWest", "top region", json!("West"), None));
    let list = json!(["West", "East", 104]);
    assert!(ok(
        "Regions: East and West; store 104.",
        "regions",
        list.clone(),
        None
    ));
    assert!(!ok(
        "Regions: East and West; store E-104.",
        "regions",
        list.clone(),
        None
    ));
    let texts = json!(["104", "2.5"]);
    assert!(ok("Stores 104 and 2.50.", "stores", texts.clone(), None));
    assert!(!ok("Stores E-104 and 2.5.", "stores", texts, None));
    let c = &check("Only West.", &[fact("regions", list, None)])[0];
    assert_eq!((c.correct, c.found.as_deref()), (false, Some("West")));
    assert!(ok(
        "Manager of E-104: none",
        "manager of E-104",
        Value::Null,
        None
    ));
    assert!(!ok(
        "Manager of E-104: Ann",
        "manager of E-104",
        Value::Null,
        None
    ));
    assert!(ok(
        "Employees over budget: no one",
        "employees over budget",
        json!([]),
        None
    ));
    assert!(ok(
        "Any late orders? Yes.",
        "any late orders",
        json!(true),
        None
    ));
}

#[test]
fn accuracy_is_share_correct() {
    let checks = check(
        "Order count: 412",
        &[
            fact("order count", json!(412), None),
            fact("top region", json!("West"), None),
        ],
    );
    assert_eq!(accuracy(&checks), 0.5);
    assert_eq!(checks[1].found, None);
}

/// Facts and TeaLeaf-style elements of one hand-made orders task.
fn orders_task() -> (Vec<Fact>, Vec<ExpectedElement>) {
    let facts = vec![
        fact("total revenue", json!(1234567.89), Some(0.01)),
        fact("order count", json!(412), None),
        fact("top region", json!("West"), None),
        fact("average order value", json!(2996.52), Some(0.01)),
    ];
    let element = |description: &str, pattern: Option<&str>| ExpectedElement {
        element_type: "metric".into(),
        description: description.into(),
        required: true,
        validation_pattern: pattern.map(str::to_owned),
    };
    let money = Some(r"\$[\d,]+\.\d{2}");
    let elements = vec![
        element("Total revenue", money),
        element("Order count", None),
        element("Top region by revenue", None),
        element("Average order value", money),
    ];
    (facts, elements)
}

#[test]
fn fact_accuracy_orders_replies_where_the_rubric_does_not() {
    let (facts, elements) = orders_task();
    let correct = "Here is my analysis of the orders data.\n\n\
        Total revenue across all 412 orders was **$1,234,567.89**. The West region generated \
        the most revenue, and the average order value was $2,996.52.\n\n\
        | Metric | Value |\n|---|---|\n| Total revenue | $1,234,567.89 |\n| Order count | 412 |\n\
        | Top region | West |\n| Average order value | $2,996.52 |";
    let partial = "Total revenue was $1,234,567.89 from 412 orders. East was the top region. \
                   The average order value was $3,102.00.";
    let canned = "## Results\n\n1. **Total revenue**: $2,000,000.00\n2. **Order count**: 500\n\
                  3. **Top region**: North\n4. **Average order value**: $4,000.00";
    let refusal = "I cannot analyze this data.";

    let fact_acc = |reply: &str| accuracy(&check(reply, &facts));
    assert_eq!(fact_acc(correct), 1.0);
    assert_eq!(fact_acc(partial), 0.5);
    assert_eq!(fact_acc(canned), 0.0);
    assert_eq!(fact_acc(refusal), 0.0);

    let composite =
        |reply: &str| rubric::score(reply, &elements, OutputType::Calculation).composite;
    let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-9, "{a} != {b}");
    let sum_w = 0.9999999999999999;
    // Every composite below: (0.25 C + 0.25 R + 0.2 coherence + 0.2 F + 0.1 × 1) / Σw.
    // Correct: C = R = F = 1; coherence 0.5 + 2/7 × 0.2 ("**", and "2." in "$2,996.52.")
    // + 0.15 (3 parts) = 0.70714; composite 0.94143.
    close(composite(correct), (0.8 + 0.2 * (0.65 + 0.4 / 7.0)) / sum_w);
    // Canned: C = R = F = 1 (descriptions repeated, "$…​.00" matches);
    // coherence 0.5 + 5/7 × 0.2 ("##", "**", "1.", "2.", "3."); 2 parts; 31 words.
    // Composite 0.92857.
    close(composite(canned), (0.8 + 0.2 * (0.5 + 1.0 / 7.0)) / sum_w);
    // Partial: C = F = 1; R = 8/9 ("count" missing); coherence 0.5 + 1/7 × 0.2 ("2." in
    // "$3,102.00"); composite 0.87794.
    close(
        composite(partial),
        (0.25 + 0.25 * 8.0 / 9.0 + 0.2 * (0.5 + 0.2 / 7.0) + 0.3) / sum_w,
    );
    // Refusal: C = R = F = 0 (both regexes fail); coherence 0.5; composite 0.2.
    close(composite(refusal), (0.2 * 0.5 + 0.1) / sum_w);

    // The canned reply outscores the half-right one and trails the right one by 0.013.
    assert!(composite(canned) > composite(partial));
    assert!(composite(correct) - composite(canned) < 0.02);
}
