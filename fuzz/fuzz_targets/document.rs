//! Plan documents: arbitrary bytes read as JSON and as YAML, then every check
//! with the default registry (and without one), as `validate FILE` does.
//! Properties: nothing panics; a document that reads exports (JSON and YAML)
//! to text that reads back to the same nodes, edges and bounds.

#![no_main]

use libfuzzer_sys::fuzz_target;
use planforge::forge::plans::document_content;
use planforge::forge::templates::default_registry;
use planforge::forge::validate::check_document;
use planforge::model::registry::Registry;
use planforge::wire::Syntax;
use planforge::wire::codec::{self, Document};
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| default_registry().expect("the default registry reads"))
}

fn same(a: &Document, b: &Document, how: &str) {
    assert_eq!(a.nodes, b.nodes, "{how}: nodes changed");
    assert_eq!(a.edges, b.edges, "{how}: edges changed");
    assert_eq!(
        a.bounds.unwrap_or_default(),
        b.bounds.unwrap_or_default(),
        "{how}: bounds changed"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for syntax in [Syntax::Json, Syntax::Yaml] {
        if check_document("fuzz", text.to_string(), syntax, Some(registry()), &planforge::forge::validate::Options::default()).is_err() {
            continue;
        }
        let _ = check_document("fuzz", text.to_string(), syntax, None, &planforge::forge::validate::Options::default());
        let doc = codec::document(text, syntax).expect("validate read it");
        let content = document_content(&doc, "plan-fuzz");
        let exported = codec::document_json(&content, None, None, None);
        let json = planforge::wire::json::pretty(&exported);
        let back = codec::document(&json, Syntax::Json)
            .unwrap_or_else(|e| panic!("the JSON export does not read back: {e}\n{json}"));
        same(&doc, &back, "JSON export");
        let yaml = planforge::wire::json::yaml(&exported);
        let back = codec::document(&yaml, Syntax::Yaml)
            .unwrap_or_else(|e| panic!("the YAML export does not read back: {e}\n{yaml}"));
        same(&doc, &back, "YAML export");
    }
});
