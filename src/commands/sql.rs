//! `bench sql [--dialect spark] FILE`: a SQL file in the dialect of another engine.

use crate::UsageError;
use crate::cli::{SqlArgs, SqlDialect};
use anyhow::Result;

/// Prints the file as it is (DuckDB) or its Spark SQL script, statements ending in `;`.
pub fn execute(args: &SqlArgs) -> Result<()> {
    let sql = crate::bundle::read_to_string(&args.file).map_err(|e| {
        UsageError::new(format!(
            "cannot read SQL file '{}': {e}",
            args.file.display()
        ))
    })?;
    match args.dialect {
        SqlDialect::Duckdb => crate::out!("{sql}")?,
        SqlDialect::Spark => {
            let script = crate::analytics::spark_script(&sql).map_err(|e| {
                UsageError::new(format!("{}: no Spark form: {e}", args.file.display()))
            })?;
            crate::outln!(
                "-- Spark SQL of {} and the derived views of sql/views.sql, made by `bench sql \
                 --dialect spark` from the same source. It reads the tables results, answers and \
                 benchmarks of a `bench export --parquet` folder (tools/spark/bench_sql.py).",
                args.file.display()
            )?;
            for s in &script.statements {
                crate::outln!("{s};\n")?;
            }
        }
    }
    Ok(())
}
