//! The built-in templates: one per mechanism of seed 003, with fixed arity.
//!
//! Each is built by the orchestration emitter (`orchestrate::emit`) with
//! holes where `orchestrate` puts a decomposition's literals, so a template
//! and an orchestrated plan have one shape. The files under `builtin/` are
//! that output, embedded in the binary; the test `builtin_files_are_fresh`
//! fails when they are stale, and
//! `PLANFORGE_UPDATE_TEMPLATES=1 cargo test --lib builtin_files_are_fresh`
//! rewrites them.

/// The embedded files: (template id, YAML text).
pub(crate) const FILES: &[(&str, &str)] = &[
    ("single", include_str!("builtin/single.yaml")),
    (
        "advocate_critic",
        include_str!("builtin/advocate_critic.yaml"),
    ),
    (
        "ordered_handoff_2",
        include_str!("builtin/ordered_handoff_2.yaml"),
    ),
    (
        "ordered_handoff_3",
        include_str!("builtin/ordered_handoff_3.yaml"),
    ),
    ("fan_out_2", include_str!("builtin/fan_out_2.yaml")),
    ("fan_out_3", include_str!("builtin/fan_out_3.yaml")),
    (
        "bounded_digest_2",
        include_str!("builtin/bounded_digest_2.yaml"),
    ),
];
