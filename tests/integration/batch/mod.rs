//! Batch APIs (Anthropic Message Batches, OpenAI Batch, Gemini batch mode) against local mocks, and
//! `bench run --batch`.

mod batch_api;
mod batch_run;
mod gemini_batch_run;
mod write_batch;
