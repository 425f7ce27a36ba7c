//! The report SQL files of `sql/`, compiled in so `bench report` runs from any directory. Each
//! runs unchanged in the DuckDB CLI after `.read sql/views.sql`.

/// Plain accuracy with Wilson intervals and weighted accuracy over runs, per rendering.
pub const ACCURACY: &str = include_str!("../../sql/accuracy.sql");
/// Plain accuracy per category with Wilson intervals.
pub const CATEGORY_ACCURACY: &str = include_str!("../../sql/category_accuracy.sql");
/// Every format against the baseline: McNemar, Holm, power.
pub const PAIRED_COMPARISON: &str = include_str!("../../sql/paired_comparison.sql");
/// The accuracy-vs-tokens Pareto frontier.
pub const PARETO: &str = include_str!("../../sql/pareto.sql");
/// Tokens, chars/token, tokens/value, tokens/object per tokenizer.
pub const TOKEN_EFFICIENCY: &str = include_str!("../../sql/token_efficiency.sql");
/// Usage, cost and latency per rendering.
pub const USAGE: &str = include_str!("../../sql/usage.sql");
/// Tokens and accuracy against record count.
pub const SCALING: &str = include_str!("../../sql/scaling.sql");
/// Retrieval accuracy by target position.
pub const POSITION_EFFECT: &str = include_str!("../../sql/position_effect.sql");
/// Wrong answers by failure kind and the right-value-other-form rate.
pub const FAILURE_MODES: &str = include_str!("../../sql/failure_modes.sql");
/// `sql/wrong_answers.sql`: every wrong answer, numbered and counted per rendering.
pub const WRONG_ANSWERS: &str = include_str!("../../sql/wrong_answers.sql");
/// `sql/key_check.sql`: questions whose key every answer contradicts in agreement.
pub const KEY_CHECK: &str = include_str!("../../sql/key_check.sql");
/// `sql/corrupted.sql`: detection per defect and the control's false alarms.
pub const CORRUPTED: &str = include_str!("../../sql/corrupted.sql");
/// `sql/prompt_wording.sql`: accuracy per format under each instruction wording.
pub const PROMPT_WORDING: &str = include_str!("../../sql/prompt_wording.sql");
/// The bootstrap's question clusters of weighted accuracy.
pub const BOOTSTRAP_CLUSTERS: &str = include_str!("../../sql/bootstrap_clusters.sql");
/// The bootstrap's paired question clusters of Δ weighted accuracy.
pub const BOOTSTRAP_PAIRS: &str = include_str!("../../sql/bootstrap_pairs.sql");
/// Providers/models side by side; the summary line's per-model weighted accuracy.
pub const PROVIDER_COMPARISON: &str = include_str!("../../sql/provider_comparison.sql");
/// The ranking `bench run` prints and its summary line stores.
pub const RANKINGS: &str = include_str!("../../sql/rankings.sql");
/// Analysis tasks: formats ranked per provider by fact accuracy, composite and input tokens.
pub const TASK_SCORES: &str = include_str!("../../sql/task_scores.sql");
/// `sql/task_formats.sql`: each analysis task × format.
pub const TASK_FORMATS: &str = include_str!("../../sql/task_formats.sql");
/// `sql/write_accuracy.sql`: each provider × output × case kind of a write run.
pub const WRITE_ACCURACY: &str = include_str!("../../sql/write_accuracy.sql");
/// `sql/write_failures.sql`: first-shot and final outcomes per output of a write run.
pub const WRITE_FAILURES: &str = include_str!("../../sql/write_failures.sql");
/// `sql/compare.sql`: two runs answer by answer, per rendering (`bench compare`).
pub const COMPARE: &str = include_str!("../../sql/compare.sql");
/// `sql/compare_pairs.sql`: the bootstrap's question clusters of Δ weighted between two runs.
pub const COMPARE_PAIRS: &str = include_str!("../../sql/compare_pairs.sql");
/// `sql/compare_tasks.sql`: two tasks runs per format and task (`bench compare`).
pub const COMPARE_TASKS: &str = include_str!("../../sql/compare_tasks.sql");
/// `sql/imported.sql`: an imported run's accuracy per format by bench's and the source's grade.
pub const IMPORTED: &str = include_str!("../../sql/imported.sql");
/// `sql/imported_disagreements.sql`: every imported answer the two grades disagree on.
pub const IMPORTED_DISAGREEMENTS: &str = include_str!("../../sql/imported_disagreements.sql");
/// `sql/imported_replies.sql`: imported analysis-task replies per model and format, by bench's
/// copy of TeaLeaf's rubric, with the tokens the source counted.
pub const IMPORTED_REPLIES: &str = include_str!("../../sql/imported_replies.sql");
