//! `bench import` of published runs (the TOON benchmark, hoeltig, TeaLeaf).

mod import_hoeltig;
mod import_tealeaf;
mod toon;
