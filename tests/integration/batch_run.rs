//! Placeholder: filled by the batch run tests.
