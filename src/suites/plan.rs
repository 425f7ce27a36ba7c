//! The run matrix: which renderings, which prompts per rendering (one prompt with every question, or one per
//! question), and the key that names one sample so a resumed run can skip it; with the two traits a
//! suite implements ([`Suite`], [`Scorer`]). The traits live here, not in `suites/mod.rs`, because
//! they take the plan's types and the plan holds them: one file, so `suites/` has no circle (the
//! registry in `mod.rs` names every suite, and no suite names `mod.rs`).

use crate::dataset::{Dataset, Structure, Variant};
use crate::formats::Format;
use crate::grading::Metric;
use crate::layout::Rendering;
use crate::layout::Writer;
use crate::prompt::wording::{self, RunSlot, Wording};
use crate::prompt::{Message, Prompt, Subject};
use crate::providers::reference::LookupQuestions;
use crate::providers::{Answerable, Request};
use crate::questions::Category;
use crate::questions::Question;
use crate::runlog::Metadata;
use crate::runlog::meta::Skip;
use crate::tokens::Tokenizer;
use anyhow::Result;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::providers::CallSettings;
pub use crate::runlog::meta::QuestionMode;

/// What a suite asks of the reference answerer (its own request type), which no other
/// provider reads.
pub type ForReference = Arc<dyn Answerable>;

/// A kind of measurement: the renderings it asks about and how it records itself.
pub trait Suite: Send + Sync + std::fmt::Debug {
    /// Names its run log (`<name>.jsonl`): `formats` (a `--data` run too), `tasks`, ….
    fn name(&self) -> String;
    /// One sentence for the metadata line: what the run measures.
    fn description(&self) -> &'static str;
    /// The answer categories it grades, with their weights.
    fn categories(&self) -> &'static [Category];
    /// Prompts per provider and run, before skips.
    fn renderings(&self, plan: &Plan) -> usize;
    /// Renders every combination and its prompts, with the renderings a format cannot
    /// produce and why.
    fn build(&self, plan: &Plan) -> Result<(Matrix, Vec<Skip>)>;
    /// sha256 of each data document asked about, in plan order (pins the data in the log).
    fn data_hashes(&self, matrix: &Matrix) -> Vec<String>;
    /// Writes its own part of the metadata line (`tasks`, `data`).
    fn record(&self, _meta: &mut Metadata, _skipped: &[Skip]) {}
    /// The output mode whose replies it asks constrained to a schema (`json_schema`), when its
    /// plan asks for one: a model that cannot constrain a reply leaves that mode out.
    fn structured_mode(&self) -> Option<&'static str> {
        None
    }
    /// Records in its part of the metadata line the models that leave out its
    /// [`structured_mode`](Self::structured_mode), each `provider:model: mode: why`.
    fn record_unserved(&self, _meta: &mut Metadata, _unserved: Vec<String>) -> Result<()> {
        Ok(())
    }
    /// Writes its questions and data files into the artifacts folder before the calls.
    fn artifacts(&self, _plan: &Plan, _matrix: &Matrix, _w: &mut Writer) -> Result<()> {
        Ok(())
    }
    /// The `dataset` entry of the artifacts' `metadata.json` (written after the calls, since
    /// it lists every file), if the suite has one data set to describe.
    fn data_description(&self, _sizes: &[Size]) -> Option<serde_json::Value> {
        None
    }
    /// Whether its prompts start with the data block, so a caching provider gains from a
    /// warm-up call (task prompts put instructions first).
    fn data_first(&self) -> bool {
        true
    }
    /// Whether each rendering sets its own output limit and temperature.
    fn own_call_settings(&self) -> bool {
        false
    }
    /// The names of its instruction wordings (`--prompt-variants K` asks the first K), the
    /// default first.
    fn wording_ids(&self) -> Vec<&'static str> {
        crate::prompt::wording::ids(crate::prompt::wording::lookups())
    }
    /// This suite asking its data at `records` records, so a size can be checked by building
    /// it (a `--data` file is loaded again at that size, its questions synthesised from that
    /// sample); `None` when the plan's record count alone sizes it (the product records).
    fn at_records(&self, _records: u32) -> Result<Option<Arc<dyn Suite>>> {
        Ok(None)
    }
    /// This suite asking its data at each of `sizes` in one run (a sweep's step asks every
    /// size up to its own), with the record counts it holds at them, smallest first: a
    /// `--data` file's samples, each loaded once; `None` when the plan's record counts alone
    /// size it (the product records).
    fn at_sizes(&self, _sizes: &[u32]) -> Result<Option<AtSizes>> {
        Ok(None)
    }
    /// The records its data holds at most, when they are a file's (a sweep ends at them);
    /// `None` for data generated at any size.
    fn records_held(&self) -> Option<u32> {
        None
    }
    /// The SQL file whose table `bench run` prints as the ranking; `None` prints the lookup
    /// ranking of the run summary.
    fn ranking_sql(&self) -> Option<&'static str> {
        None
    }
}

/// A suite asking its data at several sizes in one run, with the record counts it holds at
/// them, smallest first ([`Suite::at_sizes`]).
pub type AtSizes = (Arc<dyn Suite>, Vec<u32>);

/// A reply's grades: one metric per item asked, and the suite's own grades (a task's rubric
/// scores, a written document's first and final grade) as the result line's payload.
#[derive(Debug, Clone, Default)]
pub struct Scored {
    /// One metric per question or expected value.
    pub metrics: Vec<Metric>,
    /// The suite's own grades, set by its scorer and read by its report.
    pub payload: crate::runlog::Payload,
}

/// How the replies about one rendering are graded; every combination carries one.
pub trait Scorer: Send + Sync {
    /// The item this rendering asks about beyond its data (a task id); part of the sample key.
    fn item(&self) -> Option<&str> {
        None
    }
    /// The call's own output limit and temperature.
    fn call_settings(&self) -> CallSettings {
        CallSettings::default()
    }
    /// Grades `reply` to `unit`: `None` when the call failed, `cut` when it stopped at the
    /// output limit (what it answered before the cut still counts).
    fn score(&self, unit: &Unit, reply: Option<&str>, cut: bool) -> Scored;
    /// The text of a perfect reply to `unit` (the estimate counts its tokens).
    fn answer_key(&self, unit: &Unit) -> String;
    /// The output mode beyond the format (`json_schema`); part of the sample key.
    fn mode(&self) -> Option<&str> {
        None
    }
    /// The JSON Schema a provider must constrain the reply to (structured output), if any.
    fn response_schema(&self) -> Option<&serde_json::Value> {
        None
    }
    /// The next user message after `reply`, the reply to `turn` earlier follow-ups (a repair
    /// request for a document that does not parse); `None` ends the conversation.
    fn follow_up(&self, _unit: &Unit, _reply: &str, _turn: u32) -> Option<String> {
        None
    }
    /// The most follow-ups [`follow_up`](Self::follow_up) gives one sample (for estimates).
    fn max_follow_ups(&self) -> u32 {
        0
    }
    /// Grades a conversation's replies in order (the first, then one per follow-up); `failed`
    /// when its last call failed. One reply is graded by [`score`](Self::score).
    fn score_turns(&self, unit: &Unit, replies: &[&str], failed: bool, cut: bool) -> Scored {
        self.score(unit, replies.last().copied().filter(|_| !failed), cut)
    }
}

/// What to run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Formats, in order.
    pub formats: Vec<Format>,
    /// Structures, in order.
    pub structures: Vec<Structure>,
    /// Variants, in order.
    pub variants: Vec<Variant>,
    /// Record counts: one dataset per size (a scaling sweep when several).
    pub records: Vec<u32>,
    /// Dataset seed.
    pub seed: u64,
    /// Full runs per combination.
    pub runs: u32,
    /// Tokenizers to count data with.
    pub tokenizers: Vec<Tokenizer>,
    /// Root of `benchmarks/<timestamp>/`.
    pub output_root: PathBuf,
    /// Batch or per-question prompts.
    pub question_mode: QuestionMode,
    /// Instruction wordings asked, one per run in turn (`--prompt-variants`; 1: the default).
    pub prompt_variants: u32,
    /// Records in another seeded order each run, the same for every format (`--shuffle`).
    pub shuffle: bool,
    /// Only the K-th of N disjoint slices of the renderings (`--shard K/N`), 1-based.
    pub shard: Option<(u32, u32)>,
    /// Primer settings to run: `[false]`, `[true]` or both.
    pub primers: Vec<bool>,
    /// What the run measures: the product questions, the user's records, analysis tasks.
    pub suite: Arc<dyn Suite>,
}

impl Plan {
    /// The (format, structure, variant) combinations, skipping what a format cannot render.
    pub fn combinations(&self) -> Vec<(Format, Structure, Variant)> {
        let mut out = Vec::new();
        for &v in &self.variants {
            for &s in &self.structures {
                for &f in &self.formats {
                    if f.supports(s) {
                        out.push((f, s, v));
                    }
                }
            }
        }
        out
    }

    /// Prompts per provider and run, before skips.
    pub fn renderings(&self) -> usize {
        self.suite.renderings(self)
    }

    /// Whether a provider gets a warm-up call per rendering: as `forced`, else when it caches
    /// prompts and they share a prefix to prime (task prompts put instructions before the data).
    pub fn warmup(&self, forced: Option<bool>, caches_prompts: bool) -> bool {
        forced.unwrap_or(caches_prompts && self.suite.data_first())
    }
}

/// One prompt: the messages and what they ask.
pub struct Unit {
    /// Messages sent.
    pub messages: Vec<Message>,
    /// Bytes of the data block at the start of the first message.
    pub cache_prefix: usize,
    /// Questions asked.
    pub questions: Vec<Question>,
    /// The question id in per-question mode.
    pub question: Option<String>,
    /// What the reference answerer needs to answer it (the suite's own request type; no other
    /// provider reads it).
    pub answerable: Option<ForReference>,
    /// Prompt tokens, o200k_base (the local estimate for pacing and cost).
    pub tokens: u32,
}

impl Unit {
    /// A prompt that is one user message `text` with nothing to cache and no lookup questions
    /// (a task's, a write case's), for the reference answerer `answerable`.
    pub fn one_message(text: &str, answerable: ForReference) -> Self {
        Self {
            tokens: Tokenizer::O200kBase.count_whole(text) as u32,
            messages: vec![Message::new("user", text)],
            cache_prefix: 0,
            questions: Vec::new(),
            question: None,
            answerable: Some(answerable),
        }
    }
}

/// One rendering and its prompts.
pub struct Combo {
    /// Which runs ask its prompts, and in which wording (`--prompt-variants`).
    pub slot: RunSlot,
    /// Records in the data.
    pub records: usize,
    /// Whether the format primer precedes the data.
    pub primer: bool,
    /// The rendered data.
    pub rendering: Rendering,
    /// Its prompts: one in one-prompt mode, one per question otherwise.
    pub units: Vec<Unit>,
    /// How its replies are graded (shared by every combination over the same data).
    pub scorer: Arc<dyn Scorer>,
}

impl Combo {
    /// What a provider is sent for `unit`.
    pub fn request<'a>(&'a self, unit: &'a Unit) -> Request<'a> {
        Request {
            messages: &unit.messages,
            cache_prefix: unit.cache_prefix,
            settings: self.scorer.call_settings(),
            answerable: unit.answerable.as_deref(),
            schema: self.scorer.response_schema(),
        }
    }

    /// The item it asks about beyond its data (a task id).
    pub fn item(&self) -> Option<&str> {
        self.scorer.item()
    }
}

/// One dataset size with its questions per variant.
pub struct Size {
    /// The dataset.
    pub dataset: Arc<Dataset>,
    /// Questions per variant.
    pub questions: BTreeMap<Variant, Vec<Question>>,
}

/// Every dataset size and every combination's prompts.
pub struct Matrix {
    /// One entry per record count, in plan order.
    pub sizes: Vec<Size>,
    /// Every combination, in plan order.
    pub combos: Vec<Combo>,
}

impl Matrix {
    /// sha256 of the questions asked of each size and variant (`"31/mandatory"`): each
    /// question's id, text, expected answer and rule, as a sorted set, so the formats, wordings
    /// and record orders that ask the same questions give one hash.
    pub fn question_sets(&self) -> BTreeMap<String, String> {
        let mut sets: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        for c in &self.combos {
            let key = format!("{}/{}", c.records, c.rendering.variant);
            for q in c.units.iter().flat_map(|u| &u.questions) {
                let line = serde_json::json!([q.id, q.text, q.expected, q.validation]);
                sets.entry(key.clone())
                    .or_default()
                    .insert(line.to_string());
            }
        }
        sets.into_iter()
            .map(|(k, lines)| {
                let text: Vec<String> = lines.into_iter().collect();
                (k, crate::layout::sha256_hex(text.join("\n").as_bytes()))
            })
            .collect()
    }
}

/// Renders every combination and its prompts, with the renderings a format cannot produce.
/// A plan whose every rendering was skipped is an error: a run of 0 calls would exit 0 and
/// look like a success.
pub fn build_all(plan: &Plan) -> Result<(Matrix, Vec<Skip>)> {
    let (matrix, skipped) = plan.suite.build(plan)?;
    if matrix.combos.is_empty() {
        let why: Vec<String> = skipped.iter().map(ToString::to_string).collect();
        return Err(crate::UsageError::new(format!(
            "nothing to run: every rendering was skipped ({}); choose --formats that can hold this data",
            if why.is_empty() { "no format, structure and variant combine".to_string() } else { why.join("; ") }
        ))
        .into());
    }
    Ok((matrix, skipped))
}

/// The prompts of one rendering: one with every question (`one-prompt`), else one each.
pub fn units(
    plan: &Plan,
    subject: Subject,
    rendering: &Rendering,
    primer: bool,
    questions: &[Question],
    root_key: Option<&Arc<str>>,
) -> Vec<Unit> {
    worded_units(
        plan,
        subject,
        rendering,
        primer,
        questions,
        root_key,
        wording::default_lookup(),
    )
}

/// [`units`] in `wording` (`--prompt-variants`).
pub fn worded_units(
    plan: &Plan,
    subject: Subject,
    rendering: &Rendering,
    primer: bool,
    questions: &[Question],
    root_key: Option<&Arc<str>>,
    wording: &Wording,
) -> Vec<Unit> {
    let mut data_tokens = None;
    let mut one = |qs: Vec<Question>, q| {
        let mut u = unit(subject, rendering, primer, qs, q, wording, &mut data_tokens);
        u.answerable = Some(Arc::new(LookupQuestions {
            questions: u.questions.clone(),
            root_key: root_key.cloned(),
        }));
        u
    };
    match plan.question_mode {
        QuestionMode::OnePrompt => vec![one(questions.to_vec(), None)],
        QuestionMode::PerQuestion => questions
            .iter()
            .map(|q| one(vec![q.clone()], Some(q.id.clone())))
            .collect(),
    }
}

/// The wordings a plan asks (`--prompt-variants K`: the first K, one per run in turn), each
/// with the run slot of its combinations; one wording asks every run.
pub fn wordings(plan: &Plan) -> Vec<Slotted> {
    let all = wording::lookups();
    worded_slots(plan, wording::ids(all).into_iter())
        .into_iter()
        .zip(all)
        .collect()
}

/// The run slots of a suite whose wordings are named `ids` (its default first): with
/// `--prompt-variants K`, one slot per wording of the first K, the runs in turn; else one
/// slot that asks every run in the default wording.
pub fn worded_slots(plan: &Plan, ids: impl ExactSizeIterator<Item = &'static str>) -> Vec<RunSlot> {
    let k = plan.prompt_variants.clamp(1, ids.len() as u32);
    if k == 1 {
        return vec![RunSlot::default()];
    }
    ids.take(k as usize)
        .zip(0..)
        .map(|(id, i)| RunSlot {
            wording: Some(id),
            index: i,
            of: k,
            order_seed: None,
        })
        .collect()
}

/// A run slot with the wording its prompts use.
pub type Slotted = (RunSlot, &'static Wording);

/// The record orders a plan asks about, each with the run slots (and their wordings) that see
/// it: without `--shuffle`, the data's own order for every wording (the runs in turn); with
/// it, one order per run, seeded by [`order_seed`], with the wording of that run.
pub fn run_orders(plan: &Plan) -> Vec<(Option<u64>, Vec<Slotted>)> {
    let worded = wordings(plan);
    if !plan.shuffle {
        return vec![(None, worded)];
    }
    (1..=plan.runs)
        .map(|r| {
            let (w, wording) = worded[((r - 1) as usize) % worded.len()];
            let seed = order_seed(plan.seed, r);
            let slot = RunSlot {
                wording: w.wording,
                index: r - 1,
                of: plan.runs,
                order_seed: Some(seed),
            };
            (Some(seed), vec![(slot, wording)])
        })
        .collect()
}

/// The seed of run `run`'s record order under `--shuffle`: the plan's seed mixed with the run
/// index (a fixed odd multiplier spreads neighbouring runs apart).
pub fn order_seed(seed: u64, run: u32) -> u64 {
    seed ^ u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One prompt. `data_tokens` caches the count of the data block (plus its separating newline),
/// which every prompt of a rendering shares: the instructions start a new line with a letter,
/// a pre-tokenizer piece boundary, so the two counts add up to the whole prompt's exactly.
/// A wording that puts the data last is counted whole (a newline run may join across).
fn unit(
    subject: Subject,
    r: &Rendering,
    primer: bool,
    questions: Vec<Question>,
    question: Option<String>,
    wording: &Wording,
    data_tokens: &mut Option<usize>,
) -> Unit {
    let prompt = Prompt::render_worded(subject, r.format, &r.text, &questions, primer, wording);
    let messages = prompt.messages();
    let tokens = if prompt.data_first {
        let data = *data_tokens
            .get_or_insert_with(|| Tokenizer::O200kBase.count(&format!("{}\n", prompt.data_block)));
        data + Tokenizer::O200kBase.count(&prompt.instructions)
    } else {
        Tokenizer::O200kBase.count(&messages[0].content)
    } as u32;
    Unit {
        messages,
        cache_prefix: prompt.cache_prefix(),
        questions,
        question,
        answerable: None,
        tokens,
    }
}

/// Names one sample: who was asked what, which run.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct SampleKey {
    /// Provider name.
    pub provider: String,
    /// Model id.
    pub model: String,
    /// Format.
    pub format: Format,
    /// Structure.
    pub structure: Structure,
    /// Variant.
    pub variant: Variant,
    /// Record count.
    pub records: usize,
    /// Run (0 = warm-up).
    pub run: u32,
    /// Question id in per-question mode.
    pub question: Option<String>,
    /// Whether the format primer preceded the data.
    pub primer: bool,
    /// Task id (`tasks` suite), case id (`write`).
    pub task: Option<String>,
    /// Output mode beyond the format (`json_schema`, `write` suite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

// `SampleKey::of`, the key of a result line, is in `suites/mod.rs`: the mode is the suite's
// own field of the line, which the registry asks each suite for.
impl SampleKey {
    /// The prompt a key names, whoever was asked and in which run: the key with provider and
    /// model empty and run 0 (how `bench rescore` finds a result's prompt again).
    pub fn prompt(mut self) -> Self {
        self.provider.clear();
        self.model.clear();
        self.run = 0;
        self
    }

    /// The key of `unit` of `c` as [`prompt`](Self::prompt) leaves it.
    pub fn of_prompt(c: &Combo, unit: &Unit) -> Self {
        Self {
            provider: String::new(),
            model: String::new(),
            format: c.rendering.format,
            structure: c.rendering.structure,
            variant: c.rendering.variant,
            records: c.records,
            run: 0,
            question: unit.question.clone(),
            primer: c.primer,
            task: c.item().map(str::to_string),
            mode: c.scorer.mode().map(str::to_string),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan of the product questions in two sizes and two wordings.
    fn product(formats: Vec<Format>, seed: u64, mode: QuestionMode) -> Plan {
        Plan {
            formats,
            structures: Structure::ALL.to_vec(),
            variants: Variant::ALL.to_vec(),
            records: vec![9, 12],
            seed,
            runs: 2,
            tokenizers: vec![Tokenizer::O200kBase],
            output_root: PathBuf::new(),
            question_mode: mode,
            prompt_variants: 2,
            shuffle: false,
            shard: None,
            primers: vec![false],
            suite: crate::suites::product(),
        }
    }

    #[test]
    fn question_sets_name_the_questions_of_each_size_whatever_asks_them() {
        let sets = |p: &Plan| {
            crate::suites::formats::build(p, None)
                .unwrap()
                .question_sets()
        };
        let one = sets(&product(vec![Format::Csv], 42, QuestionMode::OnePrompt));
        assert_eq!(
            one.keys().collect::<Vec<_>>(),
            ["12/mandatory", "12/optional", "9/mandatory", "9/optional"]
        );
        assert!(one.values().all(|h| h.len() == 64));
        assert_ne!(one["9/mandatory"], one["12/mandatory"]);
        // The same questions however they are put: other formats (nested structures too), one
        // call per question.
        let asked = product(
            vec![Format::JsonCompact, Format::Yaml],
            42,
            QuestionMode::PerQuestion,
        );
        assert_eq!(sets(&asked), one);
        // Another seed asks about other records.
        let other = sets(&product(vec![Format::Csv], 7, QuestionMode::OnePrompt));
        assert!(one.iter().all(|(k, h)| other[k] != *h));
    }

    #[test]
    fn prompt_tokens_equal_whole_prompt_counts() {
        let plan = Plan {
            formats: vec![Format::Csv, Format::ToonV4, Format::XmlPretty],
            structures: vec![Structure::Flat],
            variants: vec![Variant::Optional],
            records: vec![7],
            seed: 3,
            runs: 1,
            tokenizers: vec![Tokenizer::O200kBase],
            output_root: PathBuf::new(),
            question_mode: QuestionMode::PerQuestion,
            prompt_variants: 1,
            shuffle: false,
            shard: None,
            primers: vec![false, true],
            suite: crate::suites::product(),
        };
        let m = crate::suites::formats::build(&plan, None).unwrap();
        let mut checked = 0;
        for c in &m.combos {
            for u in &c.units {
                let whole = Tokenizer::O200kBase.count_whole(&u.messages[0].content);
                assert_eq!(u.tokens as usize, whole, "{:?}", u.question);
                checked += 1;
            }
        }
        assert_eq!(checked, 3 * 2 * 124);
    }
}
