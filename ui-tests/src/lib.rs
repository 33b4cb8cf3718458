//! Holds the trybuild cases in `ui/`; see `tests/ui.rs`.

#![warn(missing_docs)]
