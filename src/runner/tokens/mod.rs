//! Data tokens as the providers count them: the counter that asks a provider ([`counter`]),
//! what each model's ranking in a run rests on ([`ranking_basis`]), and what a dry run's
//! estimate rests on ([`estimate_basis`]).

pub mod counter;
pub mod estimate_basis;
pub mod ranking_basis;
