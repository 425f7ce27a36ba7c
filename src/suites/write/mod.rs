//! The `write` suite: which format can a model write. One prompt per (case, format, primer):
//! the gold document given as facts, as a document in another format, or as a document plus
//! edits; the reply is decoded with the format's own strict decoder and compared with the gold,
//! with up to `--repairs` repair requests when it does not parse. The structured-output
//! baseline (`json_schema` mode) asks for JSON with the case's schema as a constraint.

pub mod cases;
mod chart;
pub mod edits;
pub mod grade;
mod meta;
pub mod panel;
mod report;
mod report_rows;
mod request;
pub mod schema;

pub use cases::{Case, Kind};
pub use grade::Grade;
pub use request::{
    Given, JSON_SCHEMA, WriteRequest, WriteScores, format_words, prompt, repair_request,
};

use super::asked::{self, Asked, Planned, Select, refuse, unique};
use super::plan::{Combo, Matrix, Plan, QuestionMode, Unit};
use super::{Entry, ForReference, Scored, Scorer, Skip, Suite};
use crate::UsageError;
use crate::formats::Format;
use crate::grading::Metric;
use crate::layout;
use crate::prompt::wording;
use crate::providers::{Answerable, ProviderError};
use crate::questions::Category;
use crate::runlog::{self, Metadata};
use anyhow::Result;
use grade::Target;
use request as w;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

/// Name of the write suite.
pub const SUITE: &str = "write";

use meta::{KEY, mode_of};
pub use meta::{WriteMeta, scores};

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
        Ok(WriteMeta::of(m)?.map(|w| {
            Arc::new(WritePlan {
                cases: w.cases,
                from: w.from,
                repairs: w.repairs,
                json_schema: w.json_schema,
                sources: w.sources,
            }) as Arc<dyn Suite>
        }))
    },
    items: true,
    ranked_by: "sql/write_accuracy.sql",
    result_mode: Some(mode_of),
    check_own: |m| WriteMeta::of(m).map(drop),
    select: Some(Select {
        about: "Documents written in each format, parsed strictly, repaired on request",
        plan,
        group: Some(asked::FlagGroup::of::<WriteArgs>()),
        flags: &["cases", "write_from", "repairs", "kinds", "no_json_schema"],
        given,
    }),
    panel: Some(&panel::WritePanel),
    report: Some(report::SECTIONS),
};

/// What the `write` suite asks for (`bench run --suite write`).
#[derive(Debug, Clone, clap::Args)]
pub struct WriteArgs {
    /// With --suite write: your own cases (JSON: `id`, `kind`, `gold`, optional `schema`,
    /// `instructions`, `source` + `edits`; docs/write.md) instead of the bundled ones.
    #[arg(long, value_name = "FILE")]
    pub cases: Option<PathBuf>,
    /// With --suite write: the input format of `transcode` cases.
    #[arg(long, value_name = "FMT", value_parser = crate::names::format, default_value = "json_compact")]
    pub write_from: Format,
    /// With --suite write: repair requests after a reply that does not parse (each sends the
    /// decoder's own error back).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(0..=10))]
    pub repairs: u32,
    /// With --suite write: the case kinds to ask, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values = ["compose", "transcode", "edit"])]
    pub kinds: Vec<Kind>,
    /// With --suite write: leave out the structured-output baseline (JSON constrained to the
    /// case's schema by the provider).
    #[arg(long)]
    pub no_json_schema: bool,
}

/// The write flags `a` sets away from their defaults.
fn given(a: &Asked) -> Vec<&'static str> {
    let (w, d) = (a.own::<WriteArgs>(), asked::defaults::<WriteArgs>());
    asked::set_flags([
        ("cases", w.cases.is_some()),
        ("write_from", w.write_from != d.write_from),
        ("repairs", w.repairs != d.repairs),
        ("kinds", w.kinds != d.kinds),
        ("no_json_schema", w.no_json_schema),
    ])
}

/// `bench run --suite write`: its cases, every format asked to write each.
fn plan(a: &Asked) -> Result<Planned> {
    asked::refuse_lookup_options(a)?;
    refuse(
        a.question_mode != QuestionMode::OnePrompt,
        "--suite write asks one prompt per case and format: --question-mode per-question does \
         not apply",
    )?;
    let wp = cases_of(a)?;
    let mut records: Vec<u32> = wp.cases.iter().map(|c| c.records() as u32).collect();
    records.sort_unstable();
    Ok(Planned {
        formats: a.formats_or_default(),
        structures: unique(&wp.cases.iter().map(|c| c.structure()).collect::<Vec<_>>()),
        variants: unique(&wp.cases.iter().map(|c| c.variant()).collect::<Vec<_>>()),
        records: unique(&records),
        notes: wp
            .sources
            .iter()
            .map(|s| format!("write cases: {s}"))
            .collect(),
        suite: Arc::new(wp),
    })
}

/// The product slices of the write suite when `--records` names none: 3, 10 and 31 records.
pub const PRODUCT_SIZES: [u32; 3] = [3, 10, 31];

/// The cases of `bench run --suite write`: the case file (`--cases`), else the bundled cases
/// and slices of the product records; with `--data`, slices of the user's records instead of
/// the product's. Only the kinds of `--kinds` are kept.
fn cases_of(a: &Asked) -> Result<WritePlan> {
    let w = &a.own::<WriteArgs>();
    let mut all: Vec<Case> = Vec::new();
    let mut sources = Vec::new();
    if let Some(path) = &w.cases {
        let c = cases::load(path, &format!("cases:{}", path.display()))?;
        sources.push(format!("{}: {} cases", path.display(), c.len()));
        all.extend(c);
    } else if let Some(file) = &a.data {
        let path = &file.path;
        let data = crate::dataset::user::load(path, &a.load_options(&a.records)?)?;
        let root = crate::dataset::user::root_name(&data.name);
        let c = cases::from_records(&root, &root, &data.records, path);
        sources.push(format!(
            "{}: {} cases over its first records",
            path.display(),
            c.len()
        ));
        all.extend(c);
    } else {
        let bundled = std::path::Path::new(cases::BUNDLED);
        let c = cases::load(bundled, "bundled")?;
        sources.push(format!("{}: {} cases", cases::BUNDLED, c.len()));
        all.extend(c);
        let sizes = if a.records.is_empty() {
            PRODUCT_SIZES.to_vec()
        } else {
            a.records.clone()
        };
        let c = cases::product(&sizes, &a.structures, &a.variants, a.seed);
        let names = |n: Vec<String>| n.join(", ");
        sources.push(format!(
            "product records: {} cases ({} records × {} × {})",
            c.len(),
            names(sizes.iter().map(u32::to_string).collect()),
            names(a.structures.iter().map(|s| s.name().to_string()).collect()),
            names(a.variants.iter().map(|v| v.name().to_string()).collect()),
        ));
        all.extend(c);
    }
    all.retain(|c| w.kinds.contains(&c.kind));
    cases::check_unique(&all)?;
    if all.is_empty() {
        return Err(UsageError::new("--kinds left no write case to ask").into());
    }
    Ok(WritePlan {
        cases: all,
        from: w.write_from,
        repairs: w.repairs,
        json_schema: !w.no_json_schema,
        sources,
    })
}

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
            let input = self.input(case);
            let outputs = plan
                .formats
                .iter()
                .map(|&f| (f, false))
                .chain(self.json_schema.then_some((Format::JsonCompact, true)));
            for (format, constrained) in outputs {
                match self.combos(plan, case, &input, format, constrained)? {
                    Ok(c) => combos.extend(c),
                    Err(skip) => skips.push(skip),
                }
            }
        }
        Ok((
            Matrix {
                sizes: Vec::new(),
                combos,
            },
            skips,
        ))
    }

    fn data_hashes(&self, _: &Matrix) -> Vec<String> {
        self.cases
            .iter()
            .map(|c| layout::sha256_hex(&serde_json::to_vec(&c.gold).expect("JSON serializes")))
            .collect()
    }

    fn record(&self, meta: &mut Metadata, skipped: &[Skip]) {
        WriteMeta {
            cases: self.cases.clone(),
            from: self.from,
            repairs: self.repairs,
            json_schema: self.json_schema,
            sources: self.sources.clone(),
            skipped: skipped.to_vec(),
            skipped_modes: Vec::new(),
        }
        .set(meta);
    }

    fn structured_mode(&self) -> Option<&'static str> {
        self.json_schema.then_some(JSON_SCHEMA)
    }

    fn record_unserved(&self, meta: &mut Metadata, unserved: Vec<String>) -> Result<()> {
        if let Some(mut w) = WriteMeta::of(meta)? {
            w.skipped_modes = unserved;
            w.set(meta);
        }
        Ok(())
    }

    fn data_first(&self) -> bool {
        false
    }

    fn wording_ids(&self) -> Vec<&'static str> {
        wording::ids(wording::writes())
    }

    fn ranking_sql(&self) -> Option<&'static str> {
        Some(crate::analytics::sql::WRITE_ACCURACY)
    }
}

/// What a case gives the model besides its document in the output format, prepared once
/// per case for every output.
enum Input {
    /// The facts in words.
    Facts(String),
    /// The gold in the `--write-from` format, or why that format cannot hold it.
    Document(Result<String, String>),
    /// The source document, rendered in each output format.
    Edit,
}

impl WritePlan {
    fn input(&self, case: &Case) -> Input {
        match case.kind {
            Kind::Compose => Input::Facts(
                case.instructions
                    .clone()
                    .unwrap_or_else(|| edits::facts(&case.gold)),
            ),
            Kind::Transcode => Input::Document(
                self.from
                    .encode(&case.gold)
                    .map_err(|e| format!("the --write-from format {e}")),
            ),
            Kind::Edit => Input::Edit,
        }
    }

    /// The renderings of one (case, output), one per primer setting, sharing one scorer; or
    /// why the output cannot hold the case.
    fn combos(
        &self,
        plan: &Plan,
        case: &Case,
        input: &Input,
        format: Format,
        constrained: bool,
    ) -> Result<Result<Vec<Combo>, Skip>> {
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
            super::render::or_skip(
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
        let source = match (input, &case.source) {
            (Input::Edit, Some(source)) => match render(source)? {
                Ok(r) => r.text,
                Err(s) => return Ok(Err(s)),
            },
            _ => String::new(),
        };
        let given = match input {
            Input::Facts(facts) => Given::Facts(facts),
            Input::Document(Ok(text)) => Given::Document {
                from: self.from,
                text,
            },
            Input::Document(Err(why)) => return skip(why.clone()),
            Input::Edit => Given::Edit {
                text: &source,
                edits: &case.edits,
            },
        };
        let root_key = crate::formats::records(format.name(), &case.gold)
            .ok()
            .and_then(|r| r.key.map(String::from));
        let request = Arc::new(WriteRequest {
            format,
            text: gold.text.clone(),
        });
        let scorer: Arc<dyn Scorer> = Arc::new(WriteCombo {
            request: request.clone(),
            case: case.clone(),
            item: case.item(),
            format,
            root_key,
            constrained,
            repairs: self.repairs,
        });
        let slots = super::plan::worded_slots(plan, self.wording_ids().into_iter());
        let combos = slots
            .iter()
            .flat_map(|slot| plan.primers.iter().map(move |&primer| (*slot, primer)))
            .map(|(slot, primer)| {
                let text = w::prompt(
                    case,
                    format,
                    primer,
                    &given,
                    wording::for_slot(wording::writes(), &slot),
                );
                let unit = Unit::one_message(&text, request.clone() as ForReference);
                Combo {
                    slot,
                    records: case.records(),
                    primer,
                    rendering: gold.clone(),
                    units: vec![unit],
                    scorer: scorer.clone(),
                }
            })
            .collect();
        Ok(Ok(combos))
    }
}

impl Answerable for WriteRequest {
    /// The gold in one fenced block, whatever the prompt.
    fn answer(&self, _: &str) -> Result<String, ProviderError> {
        Ok(self.reply())
    }
}

/// One (case, output) of the matrix: grades a reply against the gold and asks for repairs.
pub struct WriteCombo {
    /// The reply a perfect writer gives (the reference answerer's request too).
    request: Arc<WriteRequest>,
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
        let scores = WriteScores {
            case: self.case.id.clone(),
            kind: self.case.kind,
            mode: self.mode().unwrap_or("text").into(),
            first,
            last,
            repairs: replies.len().saturating_sub(1) as u32,
        };
        let mut payload = runlog::Payload::default();
        payload.set_own(KEY, &scores);
        Scored {
            metrics: if failed { Vec::new() } else { vec![metric] },
            payload,
        }
    }

    fn max_follow_ups(&self) -> u32 {
        self.repairs
    }

    fn follow_up(&self, _: &Unit, reply: &str, turn: u32) -> Option<String> {
        if turn >= self.repairs {
            return None;
        }
        let t = self.target();
        let (text, _, _) = grade::extract(reply, self.format.spec().fence);
        grade::decode(&t, text).err().map(|e| w::repair_request(&e))
    }

    fn answer_key(&self, _: &Unit) -> String {
        self.request.reply()
    }
}
