"""CheckCellMetadata: nbgrader's own check of the cells' nbgrader metadata, with its JSON schema
compiled once.

nbgrader's validator calls `jsonschema.validate(metadata, schema)` for every cell, and that
call checks the schema itself against JSON Schema's meta-schema before it looks at the
metadata: about 1 ms a cell, 50 ms a lesson notebook, twice a submission (the autograde chain
checks before and after grading). Here the schema is checked once, when the validator class is
first used, and every cell goes through the same compiled validator. The checks are nbgrader's
own (`MetadataValidatorV3.validate_cell` and `validate_nb`, unchanged), so a notebook fails
here exactly when it fails nbgrader's: the same ValidationError, the same log lines.
"""

from __future__ import annotations

import traceback

import jsonschema
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.nbgraderformat.common import (
    BaseMetadataValidator,
    SchemaTooNewError,
    SchemaTooOldError,
)
from nbgrader.preprocessors import NbGraderPreprocessor

_COMPILED: dict[int, object] = {}  # schema version: its validator


def _compiled(version: int, schema: dict):
    """The jsonschema validator of nbgrader's schema of this version, the schema itself
    checked (against the meta-schema) the first time only."""
    if version not in _COMPILED:
        _COMPILED[version] = _check_and_compile(schema)
    return _COMPILED[version]


def _check_and_compile(schema: dict):
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


class _CompiledSchema(BaseMetadataValidator):
    """BaseMetadataValidator.validate_cell with the schema compiled once: the same version
    checks, the same ValidationError for metadata the schema refuses."""

    def validate_cell(self, cell) -> None:
        if "nbgrader" not in cell.metadata:
            return
        meta = cell.metadata["nbgrader"]
        schema = meta.get("schema_version", 0)
        if schema < self.schema_version:
            raise SchemaTooOldError(
                f"Outdated schema version: {schema} (expected {self.schema_version})",
                schema,
                self.schema_version,
            )
        if schema > self.schema_version:
            raise SchemaTooNewError(
                f"Schema version is too new: {schema} (expected {self.schema_version})",
                schema,
                self.schema_version,
            )
        validator = _compiled(self.schema_version, self.schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(meta))
        if error is not None:
            raise error


class FastMetadataValidator(MetadataValidator, _CompiledSchema):
    """nbgrader's MetadataValidator (v3) whose schema check is `_CompiledSchema`'s: in the
    method order v3's own checks call it where they called BaseMetadataValidator's."""


class CheckCellMetadata(NbGraderPreprocessor):
    """nbgrader's CheckCellMetadata (grade ids present and unique, points on grade cells,
    metadata the schema accepts), its schema compiled once."""

    def preprocess(self, nb, resources):
        try:
            FastMetadataValidator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg) from None
        return nb, resources
