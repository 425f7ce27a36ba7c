//! The defects the corrupted suite plants, described once: each one's id (the log's `task`
//! and `sql/corrupted.sql`'s `defect`), the words `bench view` shows for it, and the phrase
//! the report's "Damaged data" section uses.

/// One defect (or the undamaged control) and how it is described.
#[derive(Debug, Clone, Copy)]
pub struct Defect {
    /// Its id, as the run log and the SQL name it.
    pub id: &'static str,
    /// What it is, as `bench view` shows it beside the id.
    pub shown: &'static str,
    /// What it is and what it is asked, as the report lists it; `None` for the control.
    pub reported: Option<&'static str>,
}

/// The defects, the control first: the order the suite plans and asks them in.
pub const DEFECTS: [Defect; 6] = [
    Defect {
        id: "control",
        shown: "none: the undamaged control",
        reported: None,
    },
    Defect {
        id: "missing_record",
        shown: "a record removed from the middle",
        reported: Some("a record removed from the middle (asked: how many records)"),
    },
    Defect {
        id: "duplicate",
        shown: "the middle record listed twice",
        reported: Some("a record listed twice (which id)"),
    },
    Defect {
        id: "truncated",
        shown: "the text cut off inside a record",
        reported: Some("the text cut inside a record (complete or cut off)"),
    },
    Defect {
        id: "missing_field",
        shown: "one record without its number field",
        reported: Some("one record without `price` (which id)"),
    },
    Defect {
        id: "wrong_type",
        shown: "one record's number given as text",
        reported: Some("one `price` that is text (which id)"),
    },
];

/// The description of the defect `id`, if it is one.
pub fn defect(id: &str) -> Option<&'static Defect> {
    DEFECTS.iter().find(|d| d.id == id)
}
