//! The kinds of notification kith raises, each with what Neo4j 5.26 says of it: its
//! GQL status, its Neo4j code, its title, severity and classification (recorded on
//! the real one, `bench/difftest/notifications.py`).

/// A kind of notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoticeKind {
    /// A MATCH of disconnected patterns (03N90).
    CartesianProduct,
    /// A shortest path over a relationship pattern with no upper bound (03N91).
    UnboundedShortestPath,
    /// A label the graph does not know (01N50).
    UnknownLabel,
    /// A relationship type the graph does not know (01N51).
    UnknownRelType,
    /// A property key the graph does not know (01N52).
    UnknownPropertyKey,
    /// A deprecated feature with no one replacement (01N00).
    Deprecated,
    /// A deprecated feature with a replacement (01N01).
    DeprecatedWithReplacement,
    /// A deprecated feature to be removed without replacement (01N02).
    DeprecatedWithoutReplacement,
    /// A runtime option kith cannot honour (01N40).
    RuntimeUnsupported,
    /// An EXPLAIN naming parameters the request did not give (01N60).
    ParameterMissing,
    /// `CREATE ... IF NOT EXISTS` of an index or constraint there already (00NA0).
    SchemaRuleExists,
    /// `DROP ... IF EXISTS` of an index or constraint not there (00NA1).
    SchemaRuleMissing,
}

/// How much a notification matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing.
    Information,
    /// Probably a mistake.
    Warning,
}

impl Severity {
    /// Neo4j's name for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Information => "INFORMATION",
            Severity::Warning => "WARNING",
        }
    }
}

impl NoticeKind {
    /// Its GQL status code.
    pub fn gql_status(self) -> &'static str {
        match self {
            NoticeKind::CartesianProduct => "03N90",
            NoticeKind::UnboundedShortestPath => "03N91",
            NoticeKind::UnknownLabel => "01N50",
            NoticeKind::UnknownRelType => "01N51",
            NoticeKind::UnknownPropertyKey => "01N52",
            NoticeKind::Deprecated => "01N00",
            NoticeKind::DeprecatedWithReplacement => "01N01",
            NoticeKind::DeprecatedWithoutReplacement => "01N02",
            NoticeKind::RuntimeUnsupported => "01N40",
            NoticeKind::ParameterMissing => "01N60",
            NoticeKind::SchemaRuleExists => "00NA0",
            NoticeKind::SchemaRuleMissing => "00NA1",
        }
    }

    /// Its Neo4j status code (what drivers before GQL statuses read).
    pub fn neo4j_code(self) -> &'static str {
        match self {
            NoticeKind::CartesianProduct => "Neo.ClientNotification.Statement.CartesianProduct",
            NoticeKind::UnboundedShortestPath => {
                "Neo.ClientNotification.Statement.UnboundedVariableLengthPattern"
            }
            NoticeKind::UnknownLabel => "Neo.ClientNotification.Statement.UnknownLabelWarning",
            NoticeKind::UnknownRelType => {
                "Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning"
            }
            NoticeKind::UnknownPropertyKey => {
                "Neo.ClientNotification.Statement.UnknownPropertyKeyWarning"
            }
            NoticeKind::Deprecated
            | NoticeKind::DeprecatedWithReplacement
            | NoticeKind::DeprecatedWithoutReplacement => {
                "Neo.ClientNotification.Statement.FeatureDeprecationWarning"
            }
            NoticeKind::RuntimeUnsupported => {
                "Neo.ClientNotification.Statement.RuntimeUnsupportedWarning"
            }
            NoticeKind::ParameterMissing => "Neo.ClientNotification.Statement.ParameterNotProvided",
            NoticeKind::SchemaRuleExists => {
                "Neo.ClientNotification.Schema.IndexOrConstraintAlreadyExists"
            }
            NoticeKind::SchemaRuleMissing => {
                "Neo.ClientNotification.Schema.IndexOrConstraintDoesNotExist"
            }
        }
    }

    /// Its title (a schema command's names the command: [`Notification::title`]).
    pub fn title(self) -> &'static str {
        match self {
            NoticeKind::CartesianProduct => {
                "This query builds a cartesian product between disconnected patterns."
            }
            NoticeKind::UnboundedShortestPath => {
                "The provided pattern is unbounded, consider adding an upper limit to the \
                 number of node hops."
            }
            NoticeKind::UnknownLabel => "The provided label is not in the database.",
            NoticeKind::UnknownRelType => "The provided relationship type is not in the database.",
            NoticeKind::UnknownPropertyKey => "The provided property key is not in the database",
            NoticeKind::Deprecated
            | NoticeKind::DeprecatedWithReplacement
            | NoticeKind::DeprecatedWithoutReplacement => {
                "This feature is deprecated and will be removed in future versions."
            }
            NoticeKind::RuntimeUnsupported => "This query is not supported by the chosen runtime.",
            NoticeKind::ParameterMissing => {
                "The statement refers to a parameter that was not provided in the request."
            }
            NoticeKind::SchemaRuleExists | NoticeKind::SchemaRuleMissing => {
                "The command has no effect."
            }
        }
    }

    /// The words its GQL status description begins with.
    pub(crate) fn status_prefix(self) -> &'static str {
        match self {
            NoticeKind::CartesianProduct => "info: cartesian product",
            NoticeKind::UnboundedShortestPath => "info: unbounded variable length pattern",
            NoticeKind::UnknownLabel => "warn: label does not exist",
            NoticeKind::UnknownRelType => "warn: relationship type does not exist",
            NoticeKind::UnknownPropertyKey => "warn: property key does not exist",
            NoticeKind::Deprecated => "warn: feature deprecated",
            NoticeKind::DeprecatedWithReplacement => "warn: feature deprecated with replacement",
            NoticeKind::DeprecatedWithoutReplacement => {
                "warn: feature deprecated without replacement"
            }
            NoticeKind::RuntimeUnsupported => "warn: unsupported runtime",
            NoticeKind::ParameterMissing => "warn: parameter missing",
            NoticeKind::SchemaRuleExists => {
                "note: successful completion - index or constraint already exists"
            }
            NoticeKind::SchemaRuleMissing => {
                "note: successful completion - index or constraint does not exist"
            }
        }
    }

    /// How much it matters.
    pub fn severity(self) -> Severity {
        match self {
            NoticeKind::CartesianProduct
            | NoticeKind::UnboundedShortestPath
            | NoticeKind::SchemaRuleExists
            | NoticeKind::SchemaRuleMissing => Severity::Information,
            _ => Severity::Warning,
        }
    }

    /// What it is about (Neo4j's classification, the older drivers' category).
    pub fn classification(self) -> &'static str {
        match self {
            NoticeKind::CartesianProduct | NoticeKind::UnboundedShortestPath => "PERFORMANCE",
            NoticeKind::UnknownLabel
            | NoticeKind::UnknownRelType
            | NoticeKind::UnknownPropertyKey => "UNRECOGNIZED",
            NoticeKind::Deprecated
            | NoticeKind::DeprecatedWithReplacement
            | NoticeKind::DeprecatedWithoutReplacement => "DEPRECATION",
            NoticeKind::RuntimeUnsupported => "UNSUPPORTED",
            NoticeKind::ParameterMissing => "GENERIC",
            NoticeKind::SchemaRuleExists | NoticeKind::SchemaRuleMissing => "SCHEMA",
        }
    }
}
