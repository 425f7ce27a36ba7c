//! A sample's conversation so far, when its suite follows a reply up (the write suite's repair
//! requests): the replies, the requests that followed them and each turn's usage. The live
//! runner keeps it in memory for one sample; batch mode keeps it in `batches.json` between
//! rounds, so a run stopped between two rounds resumes where it was without asking again.

use crate::prompt::Message;
use crate::providers::Usage;
use serde::{Deserialize, Serialize};

/// The turns a sample has had before its current request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    /// The model's replies so far, oldest first.
    pub replies: Vec<String>,
    /// The request that followed each reply (same length as `replies`).
    pub follow_ups: Vec<String>,
    /// Each answered turn's usage (one per reply).
    pub turns: Vec<Usage>,
    /// When its first request was sent or submitted (Unix milliseconds).
    #[serde(default)]
    pub started_ms: u64,
}

impl Conversation {
    /// A conversation that starts at `started_ms`.
    pub fn new(started_ms: u64) -> Self {
        Self {
            started_ms,
            ..Self::default()
        }
    }

    /// Which request comes next: 0 for the first, n for the nth follow-up.
    pub fn round(&self) -> u32 {
        self.replies.len() as u32
    }

    /// Adds an answered turn and the request that follows it.
    pub fn push(&mut self, reply: &str, usage: Usage, follow_up: String) {
        self.replies.push(reply.to_string());
        self.turns.push(usage);
        self.follow_ups.push(follow_up);
    }

    /// The messages of the next request: the first prompt, then every reply and the request
    /// that followed it.
    pub fn messages(&self, first: &[Message]) -> Vec<Message> {
        let mut m = first.to_vec();
        for (reply, next) in self.replies.iter().zip(&self.follow_ups) {
            m.push(Message::new("assistant", reply));
            m.push(Message::new("user", next));
        }
        m
    }

    /// What the earlier turns used, summed.
    pub fn used(&self) -> Usage {
        self.turns
            .iter()
            .fold(Usage::default(), |sum, t| sum.plus(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_interleave_replies_and_follow_ups_and_usage_sums() {
        let first = [Message::new("user", "write it")];
        let mut c = Conversation::new(5);
        assert_eq!(c.messages(&first), first.to_vec());
        let u = Usage {
            input: 10,
            output: 3,
            ..Usage::default()
        };
        c.push("bad", u, "fix it".into());
        c.push("worse", u, "again".into());
        assert_eq!(c.round(), 2);
        let roles: Vec<_> = c
            .messages(&first)
            .iter()
            .map(|m| format!("{}:{}", m.role, m.content))
            .collect();
        assert_eq!(
            roles,
            [
                "user:write it",
                "assistant:bad",
                "user:fix it",
                "assistant:worse",
                "user:again"
            ]
        );
        assert_eq!((c.used().input, c.used().output), (20, 6));
        let back: Conversation = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
}
