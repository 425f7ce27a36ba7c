//! placeholder until the engine lands
pub fn decode(_: &str, _: &super::DecodeOptions) -> Result<serde_json::Value, super::ToonError> { unimplemented!() }
