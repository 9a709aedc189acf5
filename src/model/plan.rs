//! Plan content: what the fold produces and the digest covers.

use super::node::{Edge, Node};
use super::value::Map;
use std::collections::HashMap;

/// Limits a plan promises to stay within. Content: digested and approved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub max_nodes: u64,
    pub max_edges: u64,
    pub max_steps: u64,
    pub max_concurrent_frames: u64,
    pub max_encoded_bytes: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_nodes: 256,
            max_edges: 512,
            max_steps: 4096,
            max_concurrent_frames: 32,
            max_encoded_bytes: 1_048_576,
        }
    }
}

impl Bounds {
    /// The five members with their wire names, in their fixed order.
    pub fn members(&self) -> [(&'static str, u64); 5] {
        [
            ("maxNodes", self.max_nodes),
            ("maxEdges", self.max_edges),
            ("maxSteps", self.max_steps),
            ("maxConcurrentFrames", self.max_concurrent_frames),
            ("maxEncodedBytes", self.max_encoded_bytes),
        ]
    }

    pub const NAMES: [&'static str; 5] = [
        "maxNodes",
        "maxEdges",
        "maxSteps",
        "maxConcurrentFrames",
        "maxEncodedBytes",
    ];

    /// Builds bounds from the five members in `NAMES` order.
    pub fn from_members(v: [u64; 5]) -> Bounds {
        Bounds {
            max_nodes: v[0],
            max_edges: v[1],
            max_steps: v[2],
            max_concurrent_frames: v[3],
            max_encoded_bytes: v[4],
        }
    }
}

/// Where a plan came from. Content: part of the digest.
#[derive(Debug, Clone, PartialEq)]
pub enum Provenance {
    Clone {
        parent: String,
        parent_digest: String,
        parent_revision: u64,
    },
    Template {
        template: String,
        args: Map,
    },
}

/// A plan's content at one revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Content {
    pub plan_id: String,
    pub revision: u64,
    pub bounds: Bounds,
    /// In fold order (first insertion).
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub provenance: Option<Provenance>,
}

impl Content {
    pub fn empty(plan_id: impl Into<String>) -> Content {
        Content {
            plan_id: plan_id.into(),
            revision: 0,
            bounds: Bounds::default(),
            nodes: Vec::new(),
            edges: Vec::new(),
            provenance: None,
        }
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    pub fn edge(&self, id: &str) -> Option<&Edge> {
        self.edges.iter().find(|e| e.id == id)
    }

    /// The authority the plan requests: the union of the `authority` of
    /// every call reachable from the entry (over any handle), deduplicated
    /// and sorted by capability, scope, verb. Without exactly one entry,
    /// nothing is reachable and nothing is requested.
    pub fn requested_authority(&self) -> Vec<super::node::AuthorityClaim> {
        let at = self.node_index();
        let entries: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].kind == super::node::NodeKind::Entry)
            .collect();
        let [entry] = entries[..] else {
            return Vec::new();
        };
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            if let (Some(&f), Some(&t)) = (at.get(e.from.as_str()), at.get(e.to.as_str())) {
                succs[f].push(t);
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![entry];
        seen[entry] = true;
        while let Some(i) = stack.pop() {
            for &t in &succs[i] {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
        let mut set: Vec<_> = self
            .nodes
            .iter()
            .zip(&seen)
            .filter(|(n, r)| **r && n.kind == super::node::NodeKind::Call)
            .flat_map(|(n, _)| n.authority())
            .collect();
        set.sort();
        set.dedup();
        set
    }

    /// Node positions by id (the first one, should a document repeat an id).
    pub fn node_index(&self) -> HashMap<&str, usize> {
        let mut m = HashMap::with_capacity(self.nodes.len());
        for (i, n) in self.nodes.iter().enumerate() {
            m.entry(n.id.as_str()).or_insert(i);
        }
        m
    }
}
