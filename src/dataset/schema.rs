//! The 22 logical fields of a product: flat key, nested path, question label and kind.

/// What kind of value a field holds; drives generation and question templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Free text or identifier.
    Text,
    /// Long free text, graded by keyword match.
    LongText,
    /// Whole number.
    Integer,
    /// Decimal number.
    Decimal,
    /// true / false.
    Boolean,
    /// A small set of repeated values (category, country, …).
    Categorical,
}

/// One logical field of a product record.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// Key in the flat structure and in graded answers.
    pub name: &'static str,
    /// Path of keys in the nested structure.
    pub nested: &'static [&'static str],
    /// Structure-neutral wording used in question text.
    pub label: &'static str,
    /// Value kind.
    pub kind: Kind,
    /// Whether the `optional` variant may set it to null.
    pub optional: bool,
}

const fn f(
    name: &'static str,
    nested: &'static [&'static str],
    label: &'static str,
    kind: Kind,
    optional: bool,
) -> Field {
    Field {
        name,
        nested,
        label,
        kind,
        optional,
    }
}

/// All fields in flat column order: 19 always set, 3 optional.
pub const FIELDS: [Field; 22] = [
    f("id", &["id"], "ID", Kind::Text, false),
    f("name", &["name"], "name", Kind::Text, false),
    f(
        "category",
        &["category"],
        "category",
        Kind::Categorical,
        false,
    ),
    f(
        "price",
        &["pricing", "price"],
        "price",
        Kind::Decimal,
        false,
    ),
    f(
        "currency",
        &["pricing", "currency"],
        "currency",
        Kind::Categorical,
        false,
    ),
    f(
        "discount_percent",
        &["pricing", "discount_percent"],
        "discount percentage",
        Kind::Integer,
        true,
    ),
    f(
        "description",
        &["description"],
        "description",
        Kind::LongText,
        false,
    ),
    f(
        "stock_quantity",
        &["inventory", "stock_quantity"],
        "stock quantity",
        Kind::Integer,
        false,
    ),
    f(
        "min_stock_threshold",
        &["inventory", "min_threshold"],
        "minimum stock threshold",
        Kind::Integer,
        false,
    ),
    f(
        "max_stock_threshold",
        &["inventory", "max_threshold"],
        "maximum stock threshold",
        Kind::Integer,
        false,
    ),
    f(
        "warehouse_code",
        &["inventory", "location", "warehouse", "code"],
        "warehouse code",
        Kind::Categorical,
        false,
    ),
    f(
        "supplier_name",
        &["supplier", "name"],
        "supplier name",
        Kind::Categorical,
        false,
    ),
    f(
        "supplier_email",
        &["supplier", "contact", "email"],
        "supplier email address",
        Kind::Text,
        false,
    ),
    f(
        "supplier_country",
        &["supplier", "country"],
        "supplier country",
        Kind::Categorical,
        false,
    ),
    f(
        "lead_time_days",
        &["supplier", "lead_time_days"],
        "supplier lead time in days",
        Kind::Integer,
        false,
    ),
    f(
        "created_at",
        &["timestamps", "created_at"],
        "creation timestamp",
        Kind::Text,
        false,
    ),
    f(
        "updated_at",
        &["timestamps", "updated_at"],
        "last update timestamp",
        Kind::Text,
        false,
    ),
    f(
        "last_restock_date",
        &["timestamps", "last_restock_date"],
        "last restock date",
        Kind::Text,
        false,
    ),
    f(
        "is_active",
        &["is_active"],
        "active flag (true or false)",
        Kind::Boolean,
        false,
    ),
    f(
        "rating",
        &["rating"],
        "customer rating",
        Kind::Decimal,
        false,
    ),
    f(
        "color",
        &["attributes", "color"],
        "color",
        Kind::Categorical,
        true,
    ),
    f(
        "warranty_months",
        &["attributes", "warranty", "months"],
        "warranty in months",
        Kind::Integer,
        true,
    ),
];

/// Looks a field up by its flat name.
pub fn field(name: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.name == name)
}
