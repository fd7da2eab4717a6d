"""Error codes map to exception classes (docs/protocol.md 1.5)."""

import pytest

import kith
from kith.errors import error_from_code, error_from_document


@pytest.mark.parametrize(
    "code,cls",
    [
        ("not_found", kith.NotFound),
        ("unknown_procedure", kith.UnknownProcedure),
        ("missing_parameter", kith.ParameterError),
        ("unknown_parameter", kith.ParameterError),
        ("wrong_parameter_type", kith.ParameterError),
        ("parameter_out_of_range", kith.ParameterError),
        ("busy", kith.Busy),
        ("timeout", kith.Timeout),
        ("bad_frame", kith.ProtocolError),
        ("bad_request", kith.ProtocolError),
        ("frame_too_large", kith.ProtocolError),
        ("result_too_large", kith.ResultTooLarge),
        ("internal", kith.KithError),
        ("schema_mismatch", kith.KithError),
        ("something_new", kith.KithError),
    ],
)
def test_codes_map_to_classes(code, cls):
    err = error_from_code(code, "why")
    assert type(err) is cls
    assert isinstance(err, kith.KithError)
    assert (err.code, err.message) == (code, "why")
    assert str(err) == f"{code}: why"


def test_malformed_error_documents_are_protocol_errors():
    assert isinstance(error_from_document({"message": "x"}), kith.ProtocolError)
    assert type(error_from_document({"code": "busy"})) is kith.Busy


def test_hierarchy():
    assert issubclass(kith.ConnectionFailed, kith.ConnectionClosed)
    assert issubclass(kith.HandshakeError, kith.ProtocolError)
