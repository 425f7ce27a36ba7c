//! The binary as a user runs it anywhere: bad input, exit codes, pipes, the terminal, `latest`.

mod anywhere;
mod basics;
mod exit_codes;
mod latest;
mod pipes;
mod terminal;
