//! The `write` suite: which format can a model write. One prompt per (case, format, primer):
//! the gold document given as facts, as a document in another format, or as a document plus
//! edits; the reply is decoded with the format's own strict decoder and compared with the gold,
//! with up to `--repairs` repair requests when it does not parse. The structured-output
//! baseline (`json_schema` mode) asks for JSON with the case's schema as a constraint.

use super::plan::{Combo, Matrix, Plan, Unit};
use super::{Entry, Payload, Scored, Scorer, Skip, Suite};
use crate::formats::Format;
use crate::grading::Metric;
use crate::layout;
use crate::prompt::Message;
use crate::questions::Category;
use crate::runlog::Metadata;
use crate::runlog::meta::WriteMeta;
use crate::tokens::Tokenizer;
use crate::write::grade::{self, Target};
use crate::write::{self as w, Case, Given, Grade, JSON_SCHEMA, Kind, WriteRequest, WriteScores};
use anyhow::Result;
use serde_json::{Value, json};
use std::sync::Arc;

/// Name of the write suite.
pub const SUITE: &str = "write";

/// What a `write` run asks: its cases and how.
#[derive(Debug, Clone)]
pub struct WritePlan {
    /// The cases, each of one kind.
    pub cases: Vec<Case>,
    /// The input format of `transcode` cases.
    pub from: Format,
    /// Repair requests allowed after a reply that does not parse.
    pub repairs: u32,
    /// Whether to ask for the structured-output baseline too.
    pub json_schema: bool,
    /// Where the cases came from, one line each.
    pub sources: Vec<String>,
}

/// Claims a metadata line that records write cases.
pub const ENTRY: Entry = Entry {
    kind: SUITE,
    from_metadata: |m| {
        Ok(m.write.as_ref().map(|w| {
            Arc::new(WritePlan {
                cases: w.cases.clone(),
                from: w.from,
                repairs: w.repairs,
                json_schema: w.json_schema,
                sources: w.sources.clone(),
            }) as Arc<dyn Suite>
        }))
    },
};

impl Suite for WritePlan {
    fn name(&self) -> String {
        SUITE.into()
    }

    fn description(&self) -> &'static str {
        "Which data format can an LLM write: the same documents asked for in many formats, parsed strictly, repaired on request."
    }

    fn categories(&self) -> &'static [Category] {
        &[Category::Document]
    }

    fn renderings(&self, plan: &Plan) -> usize {
        let modes = plan.formats.len() + usize::from(self.json_schema);
        self.cases.len() * modes * plan.primers.len()
    }

    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
        let mut combos = Vec::new();
        let mut skips = Vec::new();
        for case in &self.cases {
            let outputs = plan
                .formats
                .iter()
                .map(|&f| (f, false))
                .chain(self.json_schema.then_some((Format::JsonCompact, true)));
            for (format, constrained) in outputs {
                for &primer in &plan.primers {
                    match self.combo(plan, case, format, constrained, primer)? {
                        Ok(c) => combos.push(c),
                        Err(skip) => skips.push(skip),
                    }
                }
            }
        }
        // A skip holds for every primer setting: say it once.
        skips.dedup_by(|a, b| a.task == b.task && a.format == b.format && a.reason == b.reason);
        Ok((
            Matrix {
                sizes: Vec::new(),
                combos,
            },
            skips,
        ))
    }

    fn data_hashes(&self, _: &Matrix) -> Vec<String> {
        self.cases.iter().map(|c| hash(&c.gold)).collect()
    }

    fn record(&self, meta: &mut Metadata, skipped: &[Skip]) {
        meta.write = Some(WriteMeta {
            cases: self.cases.clone(),
            from: self.from,
            repairs: self.repairs,
            json_schema: self.json_schema,
            sources: self.sources.clone(),
            skipped: skipped.to_vec(),
            skipped_modes: Vec::new(),
        });
    }

    fn data_first(&self) -> bool {
        false
    }

    fn ranking_sql(&self) -> Option<&'static str> {
        Some(crate::analytics::sql::WRITE_ACCURACY)
    }
}

impl WritePlan {
    /// One (case, output, primer) rendering with its prompt, or why the format cannot hold it.
    fn combo(
        &self,
        plan: &Plan,
        case: &Case,
        format: Format,
        constrained: bool,
        primer: bool,
    ) -> Result<Result<Combo, Skip>> {
        let skip = |reason: String| {
            Ok(Err(Skip {
                task: case.item(),
                format,
                reason,
            }))
        };
        if constrained && !case.gold.is_object() {
            return skip(format!(
                "{JSON_SCHEMA}: structured output needs an object at the document's root"
            ));
        }
        let render = |doc: &Value| {
            super::tasks::or_skip(
                layout::render(
                    doc,
                    format,
                    case.structure(),
                    case.variant(),
                    &plan.tokenizers,
                ),
                &case.item(),
                format,
            )
        };
        let gold = match render(&case.gold)? {
            Ok(r) => r,
            Err(s) => return Ok(Err(s)),
        };
        let from_text;
        let source_text;
        let facts;
        let given = match case.kind {
            Kind::Compose => {
                facts = case
                    .instructions
                    .clone()
                    .unwrap_or_else(|| w::edits::facts(&case.gold));
                Given::Facts(&facts)
            }
            Kind::Transcode => {
                from_text = match self.from.encode(&case.gold) {
                    Ok(t) => t,
                    Err(e) => return skip(format!("the --write-from format {e}")),
                };
                Given::Document {
                    from: self.from,
                    text: &from_text,
                }
            }
            Kind::Edit => {
                let source = case.source.as_ref().expect("an edit case has its source");
                source_text = match render(source)? {
                    Ok(r) => r.text,
                    Err(s) => return Ok(Err(s)),
                };
                Given::Edit {
                    text: &source_text,
                    edits: &case.edits,
                }
            }
        };
        let text = w::prompt(case, format, primer, &given);
        let tokens = Tokenizer::O200kBase.count_whole(&text) as u32;
        let root_key = crate::formats::records(format.name(), &case.gold)
            .ok()
            .and_then(|r| r.key.map(String::from));
        let request = Arc::new(WriteRequest {
            format,
            text: gold.text.clone(),
        });
        let unit = Unit {
            messages: vec![Message {
                role: "user".into(),
                content: text,
            }],
            cache_prefix: 0,
            questions: Vec::new(),
            question: None,
            payload: Some(request as Payload),
            tokens,
        };
        Ok(Ok(Combo {
            records: case.records(),
            primer,
            rendering: gold,
            units: vec![unit],
            scorer: Arc::new(WriteCombo {
                case: case.clone(),
                item: case.item(),
                format,
                root_key,
                constrained,
                repairs: self.repairs,
            }),
        }))
    }
}

/// One (case, output) of the matrix: grades a reply against the gold and asks for repairs.
pub struct WriteCombo {
    case: Case,
    item: String,
    format: Format,
    root_key: Option<String>,
    constrained: bool,
    repairs: u32,
}

impl WriteCombo {
    fn target(&self) -> Target<'_> {
        Target {
            format: self.format,
            root_key: self.root_key.as_deref(),
            gold: &self.case.gold,
            schema: &self.case.schema,
            ordered: self.case.ordered,
        }
    }
}

impl Scorer for WriteCombo {
    fn item(&self) -> Option<&str> {
        Some(&self.item)
    }

    fn mode(&self) -> Option<&str> {
        self.constrained.then_some(JSON_SCHEMA)
    }

    fn response_schema(&self) -> Option<&Value> {
        self.constrained.then_some(&self.case.schema)
    }

    fn score(&self, unit: &Unit, reply: Option<&str>, cut: bool) -> Scored {
        match reply {
            Some(r) => self.score_turns(unit, &[r], false, cut),
            None => self.score_turns(unit, &[], true, cut),
        }
    }

    fn score_turns(&self, _: &Unit, replies: &[&str], failed: bool, cut: bool) -> Scored {
        let t = self.target();
        let graded: Vec<Grade> = replies
            .iter()
            .enumerate()
            // Only the last reply can have been cut: an earlier one was followed up.
            .map(|(i, r)| grade::grade(&t, r, cut && i + 1 == replies.len()))
            .collect();
        let none = || Grade {
            failure: Some("no_document".into()),
            detail: Some("the call failed".into()),
            ..Grade::default()
        };
        let first = graded.first().cloned().unwrap_or_else(none);
        let last = if failed {
            none()
        } else {
            graded.last().cloned().unwrap_or_else(none)
        };
        let metric = Metric {
            metric: "document".into(),
            category: Category::Document,
            passed: u8::from(last.exact),
            score: last.field_accuracy,
            reason: last.detail.clone(),
            expected: json!(self.case.item()),
            actual: Value::Null,
            validation: "write".into(),
            position: None,
            failure: None,
            off_by: None,
            normalization: Vec::new(),
        };
        Scored {
            metrics: if failed { Vec::new() } else { vec![metric] },
            task_scores: None,
            write: Some(WriteScores {
                case: self.case.id.clone(),
                kind: self.case.kind,
                mode: self.mode().unwrap_or("text").into(),
                first,
                last,
                repairs: replies.len().saturating_sub(1) as u32,
            }),
        }
    }

    fn follow_up(&self, _: &Unit, reply: &str, turn: u32) -> Option<String> {
        if turn >= self.repairs {
            return None;
        }
        let t = self.target();
        let (text, _, _) = grade::extract(reply, self.format.spec().fence);
        grade::decode(&t, text).err().map(|e| w::repair_request(&e))
    }

    fn answer_key(&self, unit: &Unit) -> String {
        unit.payload
            .as_ref()
            .and_then(|p| p.downcast_ref::<WriteRequest>())
            .map(WriteRequest::reply)
            .unwrap_or_default()
    }
}

/// sha256 of a gold document, pinning the data a run asked for.
fn hash(doc: &Value) -> String {
    use sha2::{Digest, Sha256};
    let bytes = serde_json::to_vec(doc).expect("JSON serializes");
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
