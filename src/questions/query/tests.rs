//! Tests of the query evaluator.

use super::*;

fn rec(id: &str, cat: &str, price: f64, stock: i64, color: Value) -> Record {
    let mut r = Record::new();
    r.insert("id".into(), json!(id));
    r.insert("category".into(), json!(cat));
    r.insert("price".into(), json!(price));
    r.insert("stock_quantity".into(), json!(stock));
    r.insert("min_stock_threshold".into(), json!(10));
    r.insert("color".into(), color);
    r
}

fn data() -> Vec<Record> {
    vec![
        rec("P1", "Toys", 10.5, 0, json!("Red")),
        rec("P2", "Books", 20.25, 50, Value::Null),
        rec("P3", "Toys", 5.0, 5, json!("Blue")),
    ]
}

#[test]
fn evaluates_each_query_kind() {
    let d = data();
    let get = Query::Get {
        id: "P2".into(),
        field: "price".into(),
        key: None,
    };
    assert_eq!(get.evaluate(&d), json!(20.25));
    assert_eq!(
        Query::Get {
            id: "P9".into(),
            field: "price".into(),
            key: None,
        }
        .evaluate(&d),
        Value::Null
    );
    assert_eq!(Query::CountRecords.evaluate(&d), json!(3));
    assert_eq!(
        Query::Distinct {
            field: "category".into()
        }
        .evaluate(&d),
        json!(["Books", "Toys"])
    );
    assert_eq!(
        Query::CountDistinct {
            field: "color".into()
        }
        .evaluate(&d),
        json!(2)
    );
    assert_eq!(
        Query::IdAt {
            index: 2,
            key: None
        }
        .evaluate(&d),
        json!("P3")
    );
    assert_eq!(
        Query::NextId {
            id: "P1".into(),
            key: None
        }
        .evaluate(&d),
        json!("P2")
    );
    assert_eq!(
        Query::NextId {
            id: "P3".into(),
            key: None
        }
        .evaluate(&d),
        Value::Null
    );
    let low = Filter::LtField {
        field: "stock_quantity".into(),
        other: "min_stock_threshold".into(),
    };
    assert_eq!(Query::CountWhere { filter: low }.evaluate(&d), json!(2));
    let toys_over_6 = Filter::And {
        all: vec![
            Filter::Eq {
                field: "category".into(),
                value: json!("Toys"),
            },
            Filter::Gt {
                field: "price".into(),
                value: 6.0,
            },
        ],
    };
    assert_eq!(
        Query::IdsWhere {
            filter: toys_over_6
        }
        .evaluate(&d),
        json!(["P1"])
    );
    let nulls = Filter::IsNull {
        field: "color".into(),
    };
    assert_eq!(Query::CountWhere { filter: nulls }.evaluate(&d), json!(1));
    let avg = Query::Aggregate {
        func: Func::Avg,
        field: "price".into(),
        filter: None,
    };
    assert_eq!(avg.evaluate(&d), json!((10.5 + 20.25 + 5.0) / 3.0));
    let sum = Query::Aggregate {
        func: Func::Sum,
        field: "stock_quantity".into(),
        filter: None,
    };
    assert_eq!(sum.evaluate(&d), json!(55));
    let max = Query::Aggregate {
        func: Func::Max,
        field: "price".into(),
        filter: Some(Filter::Eq {
            field: "category".into(),
            value: json!("Toys"),
        }),
    };
    assert_eq!(max.evaluate(&d), json!(10.5));
    let none = Query::Aggregate {
        func: Func::Min,
        field: "price".into(),
        filter: Some(Filter::Ge {
            field: "price".into(),
            value: 99.0,
        }),
    };
    assert_eq!(none.evaluate(&d), Value::Null);
}

#[test]
fn task_ops_follow_the_documented_tie_and_null_rules() {
    let q = |text: &str| -> Query { serde_json::from_str(text).unwrap() };
    let rows: Vec<Record> = serde_json::from_value(json!([
        {"id": 101, "dept": "Eng", "pay": 100, "addr": {"city": "Oslo"}},
        {"id": 102, "dept": "Ops", "pay": 120, "addr": {"city": "Bergen"}},
        {"id": 103, "dept": "Eng", "pay": 120, "addr": {"city": "Oslo"}},
        {"id": 104, "dept": null, "pay": 500},
        {"id": 105, "dept": "Ops"}
    ]))
    .unwrap();
    let eval = |text: &str| q(text).evaluate(&rows);
    // Ids compare as text; dotted paths reach nested fields.
    assert_eq!(
        eval(r#"{"op":"get","id":"102","field":"addr.city"}"#),
        json!("Bergen")
    );
    assert_eq!(
        eval(r#"{"op":"get","id":"Ops","key":"dept","field":"id"}"#),
        json!(102)
    );
    // First of equals wins; records without a number are skipped.
    assert_eq!(
        eval(
            r#"{"op":"top","by":"pay","func":"max","field":"id","filter":{"op":"le","field":"pay","value":200}}"#
        ),
        json!(102)
    );
    assert_eq!(
        eval(r#"{"op":"top","by":"pay","func":"min","field":"id"}"#),
        json!(101)
    );
    // Eng 220 vs Ops 120 by sum; null group skipped; count ties go to the first seen.
    assert_eq!(
        eval(r#"{"op":"group_top","group":"dept","func":"sum","field":"pay","pick":"max"}"#),
        json!("Eng")
    );
    assert_eq!(
        eval(r#"{"op":"group_top","group":"dept","func":"count","pick":"max"}"#),
        json!("Eng")
    );
    assert_eq!(
        eval(r#"{"op":"group_top","group":"dept","func":"avg","field":"pay","pick":"min"}"#),
        json!("Eng")
    );
    assert_eq!(
        eval(r#"{"op":"percent_where","filter":{"op":"eq","field":"addr.city","value":"Oslo"}}"#),
        json!(40.0)
    );
    // `ne` needs a present, non-null value.
    assert_eq!(
        eval(r#"{"op":"count_where","filter":{"op":"ne","field":"dept","value":"Eng"}}"#),
        json!(2)
    );
    assert_eq!(
        eval(r#"{"op":"aggregate","func":"count","field":"pay"}"#),
        json!(4)
    );
}

#[test]
fn field_questions_and_keyed_ids_read_any_record_shape() {
    let records: Vec<Record> = serde_json::from_str::<Vec<Record>>(
        r#"[{"n":7,"who":{"name":"Ann","zip":"0150"},"tag":"x"},
            {"n":8,"who":{"name":"Bo"},"tag":null},
            {"n":9,"who":{"name":"Cy","zip":null,"age":4}}]"#,
    )
    .unwrap();
    let eval = |q: &str| serde_json::from_str::<Query>(q).unwrap().evaluate(&records);
    assert_eq!(eval(r#"{"op":"fields"}"#), json!(["n", "who", "tag"]));
    assert_eq!(
        eval(r#"{"op":"fields","of":"who"}"#),
        json!(["name", "zip", "age"])
    );
    // Missing and null both count; a field set in every object does not.
    assert_eq!(eval(r#"{"op":"sparse_fields"}"#), json!(["tag"]));
    assert_eq!(
        eval(r#"{"op":"sparse_fields","of":"who"}"#),
        json!(["zip", "age"])
    );
    // Ids in any field, compared as text.
    assert_eq!(eval(r#"{"op":"id_at","index":2,"key":"n"}"#), json!(9));
    assert_eq!(eval(r#"{"op":"next_id","id":"7","key":"n"}"#), json!(8));
    assert_eq!(eval(r#"{"op":"next_id","id":"9","key":"n"}"#), Value::Null);
    assert_eq!(
        eval(r#"{"op":"id_at","index":0,"key":"who.name"}"#),
        json!("Ann")
    );
    // A string and a number compare as text: "0150" is not 150, "7" is 7.
    let count = |filter: &str| eval(&format!(r#"{{"op":"count_where","filter":{filter}}}"#));
    assert_eq!(
        count(r#"{"op":"eq","field":"who.zip","value":150}"#),
        json!(0)
    );
    assert_eq!(
        count(r#"{"op":"eq","field":"who.zip","value":"0150"}"#),
        json!(1)
    );
    assert_eq!(count(r#"{"op":"eq","field":"n","value":"7"}"#), json!(1));
    assert_eq!(count(r#"{"op":"eq","field":"n","value":7.0}"#), json!(1));
}
