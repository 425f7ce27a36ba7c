//! What each model accepts, one row per model family: sampling parameters, the thinking or
//! reasoning control it takes, its batch support, and where that was read (source and date).
//! Requests are built from this table ([`Capabilities::temperature_allowed`] and friends), and
//! [`check`] turns a user's setting that the model would reject with a 400 into a one-line error
//! before any call is paid for.
//!
//! A model id matches a row when it equals one of the row's ids, or continues it with a dated
//! snapshot (`claude-opus-4-1-20250805`, `gpt-4o-2024-08-06`, `gemini-2.0-flash-001`,
//! `-latest`, `-preview…`, `-exp…`), or when the row's id ends in `*` and the model id starts
//! with what precedes it. `claude-opus-4-6` therefore never falls into the `claude-opus-4` row:
//! a model missing from the table is unknown and gets its settings as configured, with a note.
//! Context windows and output limits have their own rows in [`super::windows`].

use super::Wire;
use super::config::ModelConfig;
pub use super::matching::Api;
use crate::UsageError;

/// Where the rows were last checked against the providers' documentation.
pub const AS_OF: &str = "2026-11-25";

/// Which sampling parameters (temperature, top_p) a model takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampling {
    /// Any value.
    Any,
    /// Only the default: any other value is a 400 (OpenAI reasoning models: "Only the default
    /// (1) value is supported"; Claude Opus 4.7+: "`temperature` is deprecated for this model").
    DefaultOnly,
    /// Any value while reasoning is off (`reasoning_effort` unset or `none`), else a 400.
    WithoutReasoning,
}

/// The thinking or reasoning control a model takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thinking {
    /// None: a thinking budget or effort is a 400.
    None,
    /// Anthropic `thinking: {type: "enabled", budget_tokens}`, 1024 ≤ budget < max_tokens.
    Budget,
    /// Anthropic: the budget form (deprecated) or `thinking: {type: "adaptive"}` with
    /// `output_config.effort`.
    BudgetOrAdaptive,
    /// Anthropic: adaptive thinking with `output_config.effort` only; the budget form is a 400.
    Adaptive,
    /// OpenAI `reasoning_effort` (Chat Completions) / `reasoning.effort` (Responses), these
    /// values.
    Effort(&'static [&'static str]),
    /// Gemini `thinkingConfig.thinkingBudget`; `off` says whether 0 (thinking off) is allowed.
    GeminiBudget {
        /// Whether a budget of 0 turns thinking off (Flash) rather than being refused (Pro).
        off: bool,
    },
    /// Gemini 3: `thinkingLevel`, with `thinkingBudget` still accepted for compatibility.
    GeminiLevel,
}

/// One model family.
#[derive(Debug)]
pub struct Capabilities {
    /// Family name used in messages.
    pub family: &'static str,
    /// Which wire APIs serve it.
    pub api: Api,
    /// Model ids (see the module doc for how an id matches).
    pub ids: &'static [&'static str],
    /// Sampling parameters it takes.
    pub sampling: Sampling,
    /// Thinking or reasoning control it takes.
    pub thinking: Thinking,
    /// Whether OpenAI's Chat Completions serves it (the pro models are Responses-only).
    pub chat_completions: bool,
    /// Whether the provider's batch API takes it.
    pub batch: bool,
    /// Where this row was read.
    pub source: &'static str,
}

const CLAUDE_THINKING: &str =
    "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking (supported models)";
const CLAUDE_ADAPTIVE: &str = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html (Anthropic's model table, mirrored); 400 `temperature` is deprecated for this model: github.com/sipeed/picoclaw/issues/2939";
const OPENAI_REASONING: &str = "https://platform.openai.com/docs/guides/reasoning (limitations); 400 \"Only the default (1) value is supported\": github.com/tmc/langchaingo/issues/1355";
const OPENAI_51: &str = "https://developers.openai.com/api/docs/guides/latest-model (GPT-5.1+ parameter compatibility: temperature only with reasoning effort none)";
const GEMINI_THINKING: &str = "https://ai.google.dev/gemini-api/docs/thinking (budgets per model; 2.5 Pro cannot turn thinking off)";

/// Every family, newest first within a provider.
pub static TABLE: &[Capabilities] = &[
    Capabilities {
        family: "Claude Opus 4.7+ / Claude 5",
        api: Api::Anthropic,
        ids: &[
            "claude-opus-4-7",
            "claude-opus-4-8",
            "claude-opus-5",
            "claude-sonnet-5",
            "claude-mythos-preview",
            "claude-mythos-5",
            "claude-fable-5",
        ],
        sampling: Sampling::DefaultOnly,
        thinking: Thinking::Adaptive,
        chat_completions: true,
        batch: true,
        source: CLAUDE_ADAPTIVE,
    },
    Capabilities {
        family: "Claude 4.6",
        api: Api::Anthropic,
        ids: &["claude-opus-4-6", "claude-sonnet-4-6"],
        sampling: Sampling::Any,
        thinking: Thinking::BudgetOrAdaptive,
        chat_completions: true,
        batch: true,
        source: CLAUDE_ADAPTIVE,
    },
    Capabilities {
        family: "Claude 4 – 4.5",
        api: Api::Anthropic,
        ids: &[
            "claude-opus-4",
            "claude-opus-4-0",
            "claude-opus-4-1",
            "claude-opus-4-5",
            "claude-sonnet-4",
            "claude-sonnet-4-0",
            "claude-sonnet-4-5",
            "claude-haiku-4-5",
        ],
        sampling: Sampling::Any,
        thinking: Thinking::Budget,
        chat_completions: true,
        batch: true,
        source: CLAUDE_THINKING,
    },
    Capabilities {
        family: "Claude 3.7 Sonnet",
        api: Api::Anthropic,
        ids: &["claude-3-7-sonnet"],
        sampling: Sampling::Any,
        thinking: Thinking::Budget,
        chat_completions: true,
        batch: true,
        source: CLAUDE_THINKING,
    },
    Capabilities {
        family: "Claude 3 / 3.5",
        api: Api::Anthropic,
        ids: &[
            "claude-3-haiku",
            "claude-3-sonnet",
            "claude-3-opus",
            "claude-3-5-haiku",
            "claude-3-5-sonnet",
        ],
        sampling: Sampling::Any,
        thinking: Thinking::None,
        chat_completions: true,
        batch: true,
        source: CLAUDE_THINKING,
    },
    Capabilities {
        family: "GPT-5.1 and later",
        api: Api::OpenAi,
        ids: &["gpt-5.*"],
        sampling: Sampling::WithoutReasoning,
        thinking: Thinking::Effort(&["none", "low", "medium", "high", "xhigh"]),
        chat_completions: true,
        batch: true,
        source: OPENAI_51,
    },
    Capabilities {
        family: "OpenAI pro reasoning models (Responses API only)",
        api: Api::OpenAi,
        ids: &["o1-pro", "o3-pro", "gpt-5-pro"],
        sampling: Sampling::DefaultOnly,
        thinking: Thinking::Effort(&["low", "medium", "high"]),
        chat_completions: false,
        batch: true,
        source: OPENAI_REASONING,
    },
    Capabilities {
        family: "OpenAI reasoning models (o-series, GPT-5)",
        api: Api::OpenAi,
        ids: &[
            "o1",
            "o1-mini",
            "o3",
            "o3-mini",
            "o4-mini",
            "gpt-5",
            "gpt-5-mini",
            "gpt-5-nano",
            "gpt-5-codex",
        ],
        sampling: Sampling::DefaultOnly,
        thinking: Thinking::Effort(&["minimal", "low", "medium", "high"]),
        chat_completions: true,
        batch: true,
        source: OPENAI_REASONING,
    },
    Capabilities {
        family: "OpenAI chat models (GPT-3.5, GPT-4, GPT-4o, GPT-4.1, GPT-5 chat)",
        api: Api::OpenAi,
        ids: &[
            "gpt-3.5-turbo",
            "gpt-4",
            "gpt-4-turbo",
            "gpt-4o",
            "gpt-4o-mini",
            "chatgpt-4o-latest",
            "gpt-4.1",
            "gpt-4.1-mini",
            "gpt-4.1-nano",
            "gpt-5-chat-latest",
        ],
        sampling: Sampling::Any,
        thinking: Thinking::None,
        chat_completions: true,
        batch: true,
        source: OPENAI_REASONING,
    },
    Capabilities {
        family: "Gemini 3",
        api: Api::Gemini,
        ids: &["gemini-3*"],
        sampling: Sampling::Any,
        thinking: Thinking::GeminiLevel,
        chat_completions: true,
        batch: true,
        source: GEMINI_THINKING,
    },
    Capabilities {
        family: "Gemini 2.5 Pro",
        api: Api::Gemini,
        ids: &["gemini-2.5-pro"],
        sampling: Sampling::Any,
        thinking: Thinking::GeminiBudget { off: false },
        chat_completions: true,
        batch: true,
        source: GEMINI_THINKING,
    },
    Capabilities {
        family: "Gemini 2.5 Flash / Flash-Lite",
        api: Api::Gemini,
        ids: &["gemini-2.5-flash", "gemini-2.5-flash-lite"],
        sampling: Sampling::Any,
        thinking: Thinking::GeminiBudget { off: true },
        chat_completions: true,
        batch: true,
        source: GEMINI_THINKING,
    },
    Capabilities {
        family: "Gemini 1.5 / 2.0",
        api: Api::Gemini,
        ids: &[
            "gemini-1.5-pro",
            "gemini-1.5-flash",
            "gemini-1.5-flash-8b",
            "gemini-2.0-flash",
            "gemini-2.0-flash-lite",
        ],
        sampling: Sampling::Any,
        thinking: Thinking::None,
        chat_completions: true,
        batch: true,
        source: GEMINI_THINKING,
    },
];

/// The row for `model` behind `wire`: the longest matching id wins.
pub fn lookup(wire: Wire, model: &str) -> Option<&'static Capabilities> {
    let api = wire.family()?;
    super::matching::longest(TABLE.iter().filter(|c| c.api == api), |c| c.ids, model)
}

impl Capabilities {
    /// Whether a non-default temperature may be sent with these settings.
    pub fn temperature_allowed(&self, cfg: &ModelConfig) -> bool {
        match self.sampling {
            Sampling::Any => true,
            Sampling::DefaultOnly => false,
            Sampling::WithoutReasoning => {
                cfg.reasoning_effort.as_deref().is_none_or(|e| e == "none")
            }
        }
    }
}

/// Whether the settings turn thinking on (Anthropic and Gemini forbid sampling changes then).
fn thinking_on(cfg: &ModelConfig) -> bool {
    cfg.thinking_budget.is_some_and(|b| b > 0) || cfg.reasoning_effort.is_some()
}

/// Whether a temperature may be sent to `cfg.model` with `cfg`'s settings: a model missing from
/// the table gets what is configured.
pub fn temperature_allowed(cfg: &ModelConfig) -> bool {
    let Ok(wire) = cfg.wire() else { return true };
    if wire.budgeted_thinking().is_some() && thinking_on(cfg) {
        return false;
    }
    lookup(wire, &cfg.model).is_none_or(|c| c.temperature_allowed(cfg))
}

/// Checks the user's explicit settings against the model's row: a setting the API would
/// answer with a 400 is a one-line error naming the model, the setting and what to do.
pub fn check(cfg: &ModelConfig) -> Result<(), UsageError> {
    let wire = cfg.wire()?;
    let err = |msg: String| Err(UsageError::new(format!("{}: {msg}", cfg.spec())));
    if let (Some(t), Some(b)) = (wire.budgeted_thinking(), cfg.thinking_budget)
        && let Some(why) = t.refusal(b, cfg.max_tokens)
    {
        return err(why);
    }
    let Some(c) = lookup(wire, &cfg.model) else {
        return Ok(());
    };
    if wire.chat_completions() && !c.chat_completions {
        return err(format!(
            "{} is served by the Responses API only: use provider \"openai-responses\"",
            cfg.model
        ));
    }
    if let Some(t) = cfg.temperature
        && !c.temperature_allowed(cfg)
        && !(c.api == Api::OpenAi && t == 1.0)
    {
        return err(format!(
            "temperature {t} is rejected by {} ({}): remove it{}",
            cfg.model,
            c.family,
            if c.sampling == Sampling::WithoutReasoning {
                " or set reasoning_effort = \"none\""
            } else {
                ""
            }
        ));
    }
    check_thinking(cfg, c).or_else(err)
}

/// The thinking settings against the row's control; the message without the model prefix.
fn check_thinking(cfg: &ModelConfig, c: &Capabilities) -> Result<(), String> {
    let budget = cfg.thinking_budget;
    let effort = cfg.reasoning_effort.as_deref();
    let family = c.family;
    match c.thinking {
        Thinking::None if budget.is_some() || effort.is_some() => Err(format!(
            "{family}: no thinking or reasoning setting is accepted; remove thinking_budget / reasoning_effort"
        )),
        Thinking::Budget if effort.is_some() => Err(format!(
            "{family}: thinking is set with thinking_budget (1024 or more), not reasoning_effort"
        )),
        Thinking::Adaptive if budget.is_some() => Err(format!(
            "{family}: adaptive thinking only; set reasoning_effort (low, medium, high, xhigh or max) instead of thinking_budget"
        )),
        Thinking::BudgetOrAdaptive | Thinking::Adaptive if budget.is_some() && effort.is_some() => {
            Err("set thinking_budget or reasoning_effort, not both".into())
        }
        Thinking::BudgetOrAdaptive | Thinking::Adaptive => match effort {
            Some(e) if !["low", "medium", "high", "xhigh", "max"].contains(&e) => Err(format!(
                "reasoning_effort \"{e}\" is not one of low, medium, high, xhigh, max"
            )),
            Some("xhigh") if c.thinking == Thinking::BudgetOrAdaptive => Err(format!(
                "{family}: no \"xhigh\" effort (low, medium, high, max)"
            )),
            _ => Ok(()),
        },
        Thinking::Effort(_) if budget.is_some() => Err(format!(
            "{family}: reasoning is set with reasoning_effort, not thinking_budget"
        )),
        Thinking::Effort(values) => match effort {
            Some(e) if !values.contains(&e) => Err(format!(
                "reasoning_effort \"{e}\" is not accepted by {family} ({})",
                values.join(", ")
            )),
            _ => Ok(()),
        },
        Thinking::GeminiBudget { off: false } if budget == Some(0) => Err(format!(
            "{family}: thinking cannot be turned off; thinking_budget 0 is refused (use 128 or more)"
        )),
        Thinking::GeminiBudget { .. } | Thinking::GeminiLevel if effort.is_some() => Err(format!(
            "{family}: thinking is set with thinking_budget, not reasoning_effort"
        )),
        _ => Ok(()),
    }
}

/// What the run leaves out of or changes in this model's requests, and why: said once per
/// model on screen and kept in the run's metadata. `tasks`: the tasks suite runs, which sets
/// its own temperature and output limit per task.
pub fn notes(cfg: &ModelConfig, tasks: bool) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(wire) = cfg.wire() else { return out };
    let row = lookup(wire, &cfg.model);
    if row.is_none() && wire.family().is_some() {
        out.push(format!(
            "{} is not in the capability table (docs/providers.md, \"What each model accepts\"): its settings are sent as configured",
            cfg.model
        ));
    }
    if tasks && !temperature_allowed(cfg) {
        let why = match row {
            Some(c) if !c.temperature_allowed(cfg) => {
                format!("{}: only the default is accepted ({})", c.family, c.source)
            }
            _ => wire
                .budgeted_thinking()
                .map(|t| t.default_temperature())
                .unwrap_or_default(),
        };
        out.push(format!(
            "temperature: the tasks' own temperatures are not sent: {why}"
        ));
    }
    if tasks
        && wire.budgeted_thinking().is_some()
        && let Some(b) = cfg.thinking_budget
    {
        out.push(format!(
            "max_tokens: each task's output limit plus the thinking budget {b}, so the budget stays below max_tokens"
        ));
    }
    if let Some(c) = row
        && c.thinking == Thinking::BudgetOrAdaptive
        && cfg.thinking_budget.is_some()
    {
        out.push(format!(
            "thinking_budget is deprecated on {}: adaptive thinking (reasoning_effort) is the form Anthropic recommends",
            c.family
        ));
    }
    out.extend(super::windows::note(cfg));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(wire: Wire, model: &str) -> Option<&'static str> {
        lookup(wire, model).map(|c| c.family)
    }

    #[test]
    fn ids_match_their_snapshots_never_a_neighbour_version() {
        let a = Wire::Anthropic;
        assert_eq!(
            family(a, "claude-opus-4-1-20250805"),
            Some("Claude 4 – 4.5")
        );
        assert_eq!(family(a, "claude-opus-4-6"), Some("Claude 4.6"));
        assert_eq!(
            family(a, "claude-opus-4-7"),
            Some("Claude Opus 4.7+ / Claude 5")
        );
        assert_eq!(
            family(a, "claude-3-5-sonnet-latest"),
            Some("Claude 3 / 3.5")
        );
        // Unknown versions are unknown, not priced or shaped like the nearest prefix.
        assert_eq!(family(a, "claude-opus-4-9"), None);
        let o = Wire::OpenAi;
        assert_eq!(family(o, "gpt-5-2025-08-07"), family(o, "gpt-5"));
        assert_eq!(
            family(o, "gpt-5-pro"),
            Some("OpenAI pro reasoning models (Responses API only)")
        );
        assert_eq!(family(o, "gpt-5.4-mini"), Some("GPT-5.1 and later"));
        assert_eq!(family(o, "gpt-4o-2024-08-06"), family(o, "gpt-4o"));
        assert_ne!(family(o, "gpt-4o-mini"), None);
        assert_eq!(family(o, "o3-pro"), family(o, "gpt-5-pro"));
        assert_eq!(family(o, "o4"), None);
        assert_eq!(family(Wire::OpenAiResponses, "o3"), family(o, "gpt-5"));
        assert_eq!(family(Wire::OpenAiCompatible, "gpt-5"), None);
        let g = Wire::Gemini;
        assert_eq!(
            family(g, "gemini-2.5-flash-lite-preview-06-17"),
            family(g, "gemini-2.5-flash")
        );
        assert_eq!(
            family(g, "models/gemini-2.0-flash-001"),
            Some("Gemini 1.5 / 2.0")
        );
        assert_eq!(family(g, "gemini-3-pro-preview"), Some("Gemini 3"));
        assert_eq!(family(g, "gemini-2.5-pro"), Some("Gemini 2.5 Pro"));
    }

    fn cfg(spec: &str, f: impl FnOnce(&mut ModelConfig)) -> ModelConfig {
        let mut c = ModelConfig::from_spec(spec).unwrap();
        f(&mut c);
        c
    }

    #[test]
    fn settings_a_model_refuses_are_errors_before_any_call() {
        let refused = |c: ModelConfig| check(&c).unwrap_err().to_string();
        let e = refused(cfg("openai:gpt-5-mini", |c| c.temperature = Some(0.0)));
        assert!(
            e.starts_with("openai:gpt-5-mini: temperature 0 is rejected"),
            "{e}"
        );
        assert!(check(&cfg("openai:gpt-5-mini", |c| c.temperature = Some(1.0))).is_ok());
        let e = refused(cfg("anthropic:claude-sonnet-4-5", |c| {
            c.thinking_budget = Some(512)
        }));
        assert!(e.contains("under 1024"), "{e}");
        let e = refused(cfg("anthropic:claude-sonnet-4-5", |c| {
            c.thinking_budget = Some(4096);
            c.max_tokens = Some(4096);
        }));
        assert!(e.contains("must exceed"), "{e}");
        let e = refused(cfg("anthropic:claude-opus-4-7", |c| {
            c.thinking_budget = Some(4096)
        }));
        assert!(e.contains("adaptive thinking only"), "{e}");
        assert!(
            check(&cfg("anthropic:claude-opus-4-7", |c| c.reasoning_effort =
                Some("xhigh".into())))
            .is_ok()
        );
        let e = refused(cfg("anthropic:claude-opus-4-6", |c| {
            c.reasoning_effort = Some("xhigh".into())
        }));
        assert!(e.contains("no \"xhigh\""), "{e}");
        let e = refused(cfg("openai:o3-pro", |_| ()));
        assert!(e.contains("openai-responses"), "{e}");
        assert!(check(&cfg("openai-responses:o3-pro", |_| ())).is_ok());
        let e = refused(cfg("openai-responses:gpt-5.2", |c| {
            c.temperature = Some(0.2);
            c.reasoning_effort = Some("high".into());
        }));
        assert!(e.contains("reasoning_effort = \"none\""), "{e}");
        assert!(check(&cfg("openai-responses:gpt-5.2", |c| c.temperature = Some(0.2))).is_ok());
        let e = refused(cfg("openai:gpt-4.1", |c| {
            c.reasoning_effort = Some("low".into())
        }));
        assert!(e.contains("no thinking or reasoning setting"), "{e}");
        let e = refused(cfg("gemini:gemini-2.5-pro", |c| {
            c.thinking_budget = Some(0)
        }));
        assert!(e.contains("cannot be turned off"), "{e}");
        assert!(check(&cfg("gemini:gemini-2.5-flash", |c| c.thinking_budget = Some(0))).is_ok());
        // A model the table does not know gets what is configured.
        assert!(check(&cfg("openai:gpt-9", |c| c.temperature = Some(0.0))).is_ok());
    }

    #[test]
    fn notes_say_once_what_a_tasks_run_leaves_out() {
        let n = notes(&cfg("openai:gpt-5", |_| ()), true);
        assert_eq!(n.len(), 1, "{n:?}");
        assert!(n[0].starts_with("temperature: the tasks' own temperatures are not sent"));
        assert!(notes(&cfg("openai:gpt-5", |_| ()), false).is_empty());
        assert!(notes(&cfg("openai:gpt-4.1", |_| ()), true).is_empty());
        let n = notes(
            &cfg("anthropic:claude-opus-4-6", |c| {
                c.thinking_budget = Some(2048)
            }),
            true,
        );
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(n[1].contains("plus the thinking budget 2048"));
        assert!(n[2].contains("deprecated"));
        let n = notes(&cfg("openai:gpt-9", |_| ()), false);
        assert!(n[0].contains("not in the capability table"), "{n:?}");
    }
}
