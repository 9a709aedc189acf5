//! What renderers may see beyond the model: the wire form of the values and
//! views they print, and the few graph and store facts prose needs. Renderers
//! import only `crate::forge` and `crate::model`; everything from a lower
//! layer reaches them through here, so this file is the whole of that
//! interface.

/// A finding in its JSON form.
pub(crate) use crate::wire::findings::{cause_json, issue_json};
/// A finding's or an error's fixes as `fix` and `alternatives` keys.
pub(crate) use crate::wire::remedy::insert_fixes;

// The wire form of what renderers print (JSON documents and inline values).
pub(crate) use crate::wire::baseline::{SARIF_KEY as FINGERPRINT_KEY, fingerprint};
pub(crate) use crate::wire::codec::approval_json;
pub(crate) use crate::wire::codec::claim_json;
pub(crate) use crate::wire::codec::document_json;
pub(crate) use crate::wire::codec::edge_json;
pub(crate) use crate::wire::codec::node_json;
pub(crate) use crate::wire::codec::op_json;
pub(crate) use crate::wire::codec::op_line;
pub(crate) use crate::wire::codec::provenance_json;
pub(crate) use crate::wire::convert::{map_to_json, to_json};
pub(crate) use crate::wire::jcs::string as json_string;
pub(crate) use crate::wire::json::{compact, compact_cut, pretty};
pub(crate) use crate::wire::span::{Position, Span};
pub(crate) use crate::wire::template::param_json;

// The graph as the checks see it (prose walks nodes in its order).
pub(crate) use crate::check::Graph;

// A plan as the store loaded it.
pub(crate) use crate::store::Loaded;
