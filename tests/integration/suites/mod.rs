//! Each suite as planned and run: the product formats' grading, tasks, TeaLeaf tasks, corrupted,
//! write, question files.

mod corrupted;
mod grading;
mod question_file;
mod suite_plans;
mod tasks;
mod tasks_run;
mod tealeaf_tasks;
mod write_run;
