//! Token counts equal python `tiktoken`'s (reference values in tests/fixtures/token_reference.json,
//! produced by tools/reference_tokens.py and cross-checked with npm gpt-tokenizer).

use bench::tokens::Tokenizer;
use serde_json::Value;

#[test]
fn counts_equal_the_reference_tokenizer() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/token_reference.json")).unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(cases.len() >= 10, "fixture has {} cases", cases.len());
    let mut nonzero = 0;
    for case in &cases {
        let s = case["text"].as_str().unwrap();
        for t in Tokenizer::ALL {
            let want = case[t.name()].as_u64().unwrap() as usize;
            assert_eq!(t.count(s), want, "{t} on {s:?}");
            nonzero += usize::from(want > 0);
        }
    }
    assert!(nonzero > 10);
}

#[test]
fn tokenizers_differ_where_they_should() {
    // CJK text: o200k_base has a larger vocabulary and needs fewer tokens.
    let s = "日本語のテキストは、トークン数が大きく異なります。";
    assert!(Tokenizer::O200kBase.count(s) < Tokenizer::Cl100kBase.count(s));
}
