//! What a `corrupted` call adds to its answer's page in `bench view`: the defect it asked
//! about, in words, and the record its expected answer names highlighted in the data.

use crate::html::esc;
use crate::runlog::ResultRecord;
use crate::suites::panel::Panel;

/// The corrupted suite's panel. The words for each defect are the suite's own (`defect_words`
/// in its mod.rs, beside the other descriptions of the defects), handed in by its registry
/// entry so this file needs nothing back from the suite's module.
pub struct CorruptedPanel {
    /// The damage of a defect (`duplicate`), in words.
    pub words: fn(&str) -> &'static str,
}

impl Panel for CorruptedPanel {
    /// The defect line (the call's `task` names the defect).
    fn after_question(&self, call: &ResultRecord) -> String {
        match call.task.as_deref() {
            Some(t) => format!(
                "<p id=\"defect\" data-defect=\"{}\">Defect: <b>{}</b> — {}.</p>",
                esc(t),
                esc(t),
                (self.words)(t)
            ),
            None => String::new(),
        }
    }

    /// The expected answer names the duplicated or damaged record.
    fn expected_names_record(&self) -> bool {
        true
    }
}
