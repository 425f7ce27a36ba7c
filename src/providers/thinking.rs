//! An API whose thinking is a token budget counted inside `max_tokens` (Anthropic's): the
//! rules its row in `wire.rs` carries, so the capability checks name no provider.

/// The rules of budgeted thinking for one API.
#[derive(Debug, Clone, Copy)]
pub struct BudgetedThinking {
    /// Who makes the API, as the messages name it (`Anthropic`).
    pub maker: &'static str,
    /// The least budget the API accepts.
    pub min_budget: u32,
}

impl BudgetedThinking {
    /// Why `budget` with `max_tokens` would be refused by the API, if it would.
    pub fn refusal(&self, budget: u32, max_tokens: Option<u32>) -> Option<String> {
        if budget < self.min_budget {
            return Some(format!(
                "thinking_budget {budget} is under {}, the least {} accepts",
                self.min_budget, self.maker
            ));
        }
        max_tokens.filter(|&m| m <= budget).map(|m| {
            format!(
                "max_tokens {m} must exceed thinking_budget {budget} ({} counts thinking in max_tokens)",
                self.maker
            )
        })
    }

    /// Why a thinking model is sent the default temperature only.
    pub fn default_temperature(&self) -> String {
        format!(
            "{} requires the default temperature while thinking",
            self.maker
        )
    }
}
