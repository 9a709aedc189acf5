//! Findings: data, never errors.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Blocking,
    Advisory,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Blocking => "blocking",
            Severity::Advisory => "advisory",
        }
    }
}

/// One finding about a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    /// Stable identifier; never renamed or reused.
    pub code: &'static str,
    pub severity: Severity,
    /// Addressed to the author: names the id, what is wrong and the fix.
    pub message: String,
    pub node_id: Option<String>,
    pub edge_id: Option<String>,
    /// JSON pointer of the offending value. Relative to the node when
    /// `node_id` is set (`/definition/tool`), else relative to the edge when
    /// `edge_id` is set (`/handle`), else absolute in the plan document
    /// (`/bounds/maxNodes`). Renderers resolve it against the document.
    pub pointer: Option<String>,
}

impl Issue {
    pub fn new(code: &'static str, severity: Severity, message: impl Into<String>) -> Issue {
        Issue {
            code,
            severity,
            message: message.into(),
            node_id: None,
            edge_id: None,
            pointer: None,
        }
    }
    pub fn blocking(code: &'static str, message: impl Into<String>) -> Issue {
        Issue::new(code, Severity::Blocking, message)
    }
    pub fn advisory(code: &'static str, message: impl Into<String>) -> Issue {
        Issue::new(code, Severity::Advisory, message)
    }
    pub fn node(mut self, id: impl Into<String>) -> Issue {
        self.node_id = Some(id.into());
        self
    }
    pub fn edge(mut self, id: impl Into<String>) -> Issue {
        self.edge_id = Some(id.into());
        self
    }
    pub fn at(mut self, pointer: impl Into<String>) -> Issue {
        self.pointer = Some(pointer.into());
        self
    }
    pub fn is_blocking(&self) -> bool {
        self.severity == Severity::Blocking
    }
}

/// Blocking and advisory counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub blocking: usize,
    pub advisory: usize,
}

impl Counts {
    pub fn of(issues: &[Issue]) -> Counts {
        let blocking = issues.iter().filter(|i| i.is_blocking()).count();
        Counts {
            blocking,
            advisory: issues.len() - blocking,
        }
    }
}
