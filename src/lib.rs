//! planforge: author, read, validate, freeze and submit plans.

pub mod model;
pub mod wire;
