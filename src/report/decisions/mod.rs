//! What the numbers decide, as pure functions of the data layer: each family's decision and
//! verdict row, and two runs of one suite compared answer by answer.

pub mod compare_runs;
pub mod family;
