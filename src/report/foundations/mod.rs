//! What every layer of the report writes in: the document model (rendered as Markdown and
//! HTML) and the charts (SVG and PNG). They import nothing else of the report, so sections
//! build blocks and charts without reaching up to the renderers that write them out.

pub mod charts;
pub mod doc;
