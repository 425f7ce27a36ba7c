//! Each provider's wire, counter and limits against local mock servers, and what a real server
//! says.

mod billed;
mod contracts;
mod counting;
mod dead_endpoint;
mod local_model;
mod served;
mod tokens;
mod wires;
