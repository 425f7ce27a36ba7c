//! The code and the docs keep their shape: no import circles, live links, docs that match `--help`
//! and the registry.

mod cli_docs;
mod doc_links;
mod docs_behave;
mod module_graph;
mod names;
