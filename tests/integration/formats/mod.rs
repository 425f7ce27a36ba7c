//! Every format: round trips, readers nobody on the team wrote, streaming, sizes, the TOON and
//! TeaLeaf references, properties.

mod documents;
mod outside_readers;
mod properties;
mod roundtrip;
mod sizes;
mod stream;
mod tealeaf;
mod toon_fixtures;
mod toon_golden;
