//! What the server answers for the errors of the layers below it: the store and the
//! procedures know nothing of the wire, so their errors are mapped here, variant by
//! variant (a new variant does not compile until it has a code).

use kith_core::TxErrorKind;
use kith_procedures::ProcedureError;
use kith_protocol::ErrorCode as Code;
use kith_storage::StorageError;

/// The wire code of a store error.
pub(crate) fn of_storage(error: &StorageError) -> Code {
    match error {
        StorageError::NodeNotFound(_)
        | StorageError::RelNotFound(_)
        | StorageError::NoNodeWithId { .. }
        | StorageError::NoSuchIndex { .. } => Code::NotFound,
        StorageError::DuplicateId { .. } | StorageError::NotUnique { .. } => Code::DuplicateId,
        StorageError::ConditionFailed(_) => Code::ConditionFailed,
        StorageError::CursorMoved { .. } => Code::Conflict,
        StorageError::BadBatchReference(_)
        | StorageError::IdNotInt(_)
        | StorageError::UnsupportedPropertyValue { .. }
        | StorageError::NodeHasRelationships(_)
        | StorageError::InvalidName { .. }
        | StorageError::SchemaRefused(_)
        | StorageError::ConstraintCreationFailed { .. }
        | StorageError::CapacityExceeded(_) => Code::InvalidWrite,
        StorageError::Io { .. }
        | StorageError::Corrupt { .. }
        | StorageError::UnsupportedVersion { .. }
        | StorageError::Locked(_) => Code::StorageFailure,
    }
}

/// The wire code of a write the graph refused while a query ran.
pub(crate) fn of_refusal(kind: TxErrorKind) -> Code {
    match kind {
        TxErrorKind::NotFound => Code::NotFound,
        TxErrorKind::DuplicateId => Code::DuplicateId,
        TxErrorKind::ConditionFailed => Code::ConditionFailed,
        TxErrorKind::HasRelationships
        | TxErrorKind::InvalidValue
        | TxErrorKind::ConstraintCreationFailed
        | TxErrorKind::Other => Code::InvalidWrite,
        TxErrorKind::Failed => Code::CypherError,
    }
}

/// The wire code of a procedure error.
pub(crate) fn of_procedure(error: &ProcedureError) -> Code {
    match error {
        ProcedureError::UnknownProcedure { .. } => Code::UnknownProcedure,
        ProcedureError::MissingParameter { .. } => Code::MissingParameter,
        ProcedureError::UnknownParameter { .. } => Code::UnknownParameter,
        ProcedureError::WrongParameterType { .. } => Code::WrongParameterType,
        ProcedureError::ParameterOutOfRange { .. } => Code::ParameterOutOfRange,
        ProcedureError::NotFound { .. } => Code::NotFound,
        ProcedureError::SchemaMismatch { .. } => Code::SchemaMismatch,
        ProcedureError::UpdateNotHere { .. } => Code::ReadOnly,
    }
}
