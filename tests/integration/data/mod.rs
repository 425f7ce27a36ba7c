//! A user's own records (`--data FILE`): read, keyed, rendered as written, refused in the user's
//! terms.

mod as_written;
mod bad_files;
mod userdata;
mod userdata_keys;
mod userdata_run;
