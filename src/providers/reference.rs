//! The offline `reference` provider: decodes the data block of the prompt with the named
//! format's decoder and answers each question by evaluating its query on what it decoded.
//! It never sees the original records, so 100 % proves the rendering is lossless and the
//! answer key consistent; it is a ceiling and a self-check, not an LLM result.

use super::{Answerable, Finish, Provider, ProviderError, Request, Response, Usage};
use crate::dataset::records_from_document;
use crate::formats::Format;
use crate::prompt::parse_data_block;
use crate::questions::Query;
use crate::tokens::Tokenizer;
use serde_json::{Map, Value, json};

/// The offline reference answerer.
pub struct Reference;

/// A prompt of field lookups as the reference answerer answers it (what the lookup suites ask
/// of it): the questions asked, with their queries, and the key holding the user's records in
/// every rendering (`--data`), where it reads them instead of through the product schema.
#[derive(Debug, Clone)]
pub struct LookupQuestions {
    /// The questions asked, in prompt order.
    pub questions: Vec<crate::questions::Question>,
    /// The key of the user's records; none for the product data set.
    pub root_key: Option<std::sync::Arc<str>>,
}

#[async_trait::async_trait]
impl Provider for Reference {
    fn name(&self) -> &str {
        "reference"
    }

    fn model(&self) -> &str {
        "reference"
    }

    fn params(&self) -> Value {
        json!({})
    }

    fn url(&self) -> Option<String> {
        None
    }

    fn caches_prompts(&self) -> bool {
        false
    }

    fn structured_output(&self) -> Result<(), String> {
        Ok(())
    }

    async fn complete(&self, req: &Request<'_>) -> Result<Response, ProviderError> {
        let input: String = req.messages.iter().map(|m| m.content.as_str()).collect();
        let asked = req.answerable.ok_or_else(|| {
            ProviderError::BadPrompt("the reference answerer needs the suite's request".into())
        })?;
        let output = asked.answer(&input)?;
        let usage = Usage {
            input: Tokenizer::O200kBase.count(&input) as u64,
            output: Tokenizer::O200kBase.count(&output) as u64,
            ..Usage::default()
        };
        Ok(Response {
            output,
            usage,
            // It always answers in full; there is no API reason to record.
            finish: Some(Finish::Stop),
            ..Response::default()
        })
    }
}

impl Answerable for LookupQuestions {
    /// The answer object: each question's query on the records decoded from the prompt.
    fn answer(&self, input: &str) -> Result<String, ProviderError> {
        answer_questions(input, self)
    }
}

/// The answer object of a lookup prompt: each question's query on the decoded records.
fn answer_questions(input: &str, asked: &LookupQuestions) -> Result<String, ProviderError> {
    let (name, data) = parse_data_block(input)
        .ok_or_else(|| ProviderError::BadPrompt("no data block in prompt".into()))?;
    let format = Format::from_name(name)
        .ok_or_else(|| ProviderError::BadPrompt(format!("unknown format '{name}' in prompt")))?;
    let root_key = asked.root_key.as_deref();
    let doc = match format.decode_as(data, root_key) {
        Ok(doc) => doc,
        // A text its decoder rejects is, to the reference, data cut off (the `corrupted`
        // suite asks whether it is complete); it answers that and nothing else.
        Err(_) if asked.questions.iter().any(|q| q.query == Query::Complete) => {
            let answers: Map<String, Value> = asked
                .questions
                .iter()
                .filter(|q| q.query == Query::Complete)
                .map(|q| (q.id.clone(), json!("cut off")))
                .collect();
            return Ok(serde_json::to_string(&answers).expect("answers serialize"));
        }
        Err(e) => return Err(ProviderError::BadPrompt(format!("decode failed: {e}"))),
    };
    let records = match root_key {
        // The user's records, as decoded: queries name their fields as the data does.
        Some(key) => doc
            .get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| ProviderError::BadPrompt(format!("{name}: no '{key}' list")))?
            .iter()
            .enumerate()
            .map(|(i, r)| {
                r.as_object().cloned().ok_or_else(|| {
                    ProviderError::BadPrompt(format!("{name}: record {i} is not an object"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => records_from_document(&doc)
            .map_err(|e| ProviderError::BadPrompt(format!("{name}: {e}")))?,
    };
    // A question file's SQL runs on one table of the decoded records, loaded once.
    let table = asked
        .questions
        .iter()
        .any(|q| matches!(q.query, Query::Sql { .. }))
        .then(|| crate::questions::sql::Table::load(&records));
    let answers: Map<String, Value> = asked
        .questions
        .iter()
        .filter_map(|q| {
            let answer = match (&q.query, &table) {
                // A given answer has no query: nothing to evaluate, so no answer.
                (Query::Given, _) => return None,
                (Query::Sql { sql, list }, Some(Ok(t))) => {
                    t.answer(sql, *list).unwrap_or(Value::Null)
                }
                (Query::Sql { .. }, _) => Value::Null,
                (query, _) => query.evaluate(&records),
            };
            Some((q.id.clone(), answer))
        })
        .collect();
    Ok(serde_json::to_string(&answers).expect("answers serialize"))
}
