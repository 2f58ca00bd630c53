"""Extraction schemas: JSON Schema, or the paper's JSON templates (one record type per template).

Both become an :class:`ExtractSchema`: record types, each with its attributes. Two forms are read:

* **templates** -- a list of objects (or JSON lines) such as
  ``{"value": "xx", "type": "IC50", "unit": "xx", "treatment compound": "xx"}``; ``"xx"`` marks a text
  attribute, ``{"xx": "yy"}`` an object attribute. A template whose only keys are value and type
  (conventionally ``"Other"``) is the fallback type for cells that match no other.
* **JSON Schema** -- an object schema (or ``oneOf``/``anyOf`` of them) whose ``type`` property is a
  ``const`` or ``enum`` naming the record type(s); other properties are attributes. It is checked
  against its meta-schema first. ``x-source`` on a property (``unit``, ``row_label``,
  ``column_header``, ``caption``) says the code copies it from the table; a property named ``unit`` is
  copied by default.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gridsight.errors import ExtractSchemaError

#: Where a deterministic attribute is copied from.
SOURCES = ("unit", "row_label", "column_header", "caption")
#: Keys a record always has; never schema attributes.
RESERVED = frozenset({"value", "type", "cell_index", "address"})
MAX_TYPES = 64
MAX_ATTRIBUTES = 32
#: Deepest nesting of a JSON Schema accepted (real extraction schemas are a few levels deep).
MAX_DEPTH = 64


@dataclass(frozen=True)
class Attribute:
    name: str
    kind: str = "string"  # "string" or "object"
    description: str = ""
    source: str | None = None  # one of SOURCES when the code fills it

    @property
    def judged(self) -> bool:
        return self.source is None


@dataclass(frozen=True)
class RecordType:
    name: str
    attributes: tuple[Attribute, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class ExtractSchema:
    types: tuple[RecordType, ...]
    fallback: str | None = None  # the type for cells no other type fits ("Other")

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.types]

    def get(self, name: str) -> RecordType | None:
        return next((t for t in self.types if t.name == name), None)

    def templates(self) -> list[str]:
        """The paper's one-line JSON templates, as the prompt shows them."""
        out = []
        for t in self.types:
            doc: dict[str, Any] = {"value": "xx", "type": t.name}
            for a in t.attributes:
                doc[a.name] = {"xx": "yy"} if a.kind == "object" else "xx"
            out.append(json.dumps(doc, ensure_ascii=False))
        return out


def _default_source(name: str) -> str | None:
    return "unit" if name.strip().lower() in ("unit", "units") else None


def _from_templates(items: list[Any]) -> ExtractSchema:
    types: list[RecordType] = []
    fallback = None
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise ExtractSchemaError(f"template {i + 1} is not a JSON object")
        name = item.get("type")
        if not isinstance(name, str) or not name.strip():
            raise ExtractSchemaError(f'template {i + 1} has no "type" naming its record type')
        attrs = []
        for key, val in item.items():
            if key in RESERVED:
                continue
            kind = "object" if isinstance(val, dict) else "string"
            attrs.append(Attribute(str(key), kind, "", _default_source(str(key))))
        if not attrs and fallback is None:
            fallback = name
        types.append(RecordType(name, tuple(attrs)))
    return _checked(types, fallback)


def _checked(types: list[RecordType], fallback: str | None) -> ExtractSchema:
    if not types:
        raise ExtractSchemaError("the schema names no record type")
    if len(types) > MAX_TYPES:
        raise ExtractSchemaError(f"the schema names {len(types)} record types; at most {MAX_TYPES}")
    names = [t.name for t in types]
    if len(set(names)) != len(names):
        raise ExtractSchemaError("the schema names a record type twice")
    for t in types:
        if len(t.attributes) > MAX_ATTRIBUTES:
            raise ExtractSchemaError(f"record type {t.name!r} has more than {MAX_ATTRIBUTES} attributes")
    return ExtractSchema(tuple(types), fallback)


def _type_names(prop: Any) -> list[str]:
    if not isinstance(prop, dict):
        return []
    if isinstance(prop.get("const"), str):
        return [prop["const"]]
    if isinstance(prop.get("enum"), list):
        return [v for v in prop["enum"] if isinstance(v, str)]
    return []


def _depth(doc: Any, limit: int = 1000) -> int:
    """How deep JSON nests (counted without recursion; stops counting past ``limit``)."""
    deepest, stack = 0, [(doc, 1)]
    while stack and deepest <= limit:
        node, d = stack.pop()
        deepest = max(deepest, d)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((c, d + 1) for c in children if isinstance(c, dict | list))
    return deepest


def _from_json_schema(doc: dict[str, Any]) -> ExtractSchema:
    from jsonschema import validators
    from jsonschema.exceptions import SchemaError

    if _depth(doc) > MAX_DEPTH:
        raise ExtractSchemaError(f"the schema is nested more than {MAX_DEPTH} levels deep")
    try:
        validators.validator_for(doc).check_schema(doc)
    except RecursionError:
        raise ExtractSchemaError("the schema is nested too deeply to check") from None
    except SchemaError as exc:
        raise ExtractSchemaError(f"not a valid JSON Schema: {exc.message}") from None
    branches = doc.get("oneOf") or doc.get("anyOf") or [doc]
    if not isinstance(branches, list):
        raise ExtractSchemaError("oneOf/anyOf must be a list of object schemas")
    types: list[RecordType] = []
    fallback = doc.get("x-fallback") if isinstance(doc.get("x-fallback"), str) else None
    for i, branch in enumerate(branches):
        props = branch.get("properties") if isinstance(branch, dict) else None
        if not isinstance(props, dict):
            raise ExtractSchemaError(f"schema branch {i + 1} has no properties")
        names = _type_names(props.get("type"))
        if not names:
            raise ExtractSchemaError(
                f'schema branch {i + 1}: the "type" property must be a const or enum naming the record type'
            )
        attrs = []
        for key, spec in props.items():
            if key in RESERVED:
                continue
            spec = spec if isinstance(spec, dict) else {}
            source = spec.get("x-source", _default_source(key))
            if source is not None and source not in SOURCES:
                raise ExtractSchemaError(f"property {key!r}: x-source must be one of {', '.join(SOURCES)}")
            kind = "object" if spec.get("type") == "object" else "string"
            attrs.append(Attribute(key, kind, str(spec.get("description", "")), source))
        desc = str(branch.get("description", ""))
        for name in names:
            types.append(RecordType(name, tuple(attrs), desc))
            if not attrs and fallback is None:
                fallback = name
    return _checked(types, fallback)


def parse_schema(source: object) -> ExtractSchema:
    """Read a schema given as JSON text (an object, a list, or JSON lines) or as parsed JSON (any value:
    anything else is refused).

    Raises:
        ExtractSchemaError: not JSON, not valid JSON Schema, or no record type in it.
    """
    doc: Any = source
    if isinstance(source, str):
        text = source.strip()
        if not text:
            raise ExtractSchemaError("the schema is empty")
        try:
            doc = json.loads(text)
        except ValueError:
            try:
                doc = [json.loads(line) for line in text.splitlines() if line.strip()]
            except ValueError as exc:
                raise ExtractSchemaError(f"the schema is not JSON (nor JSON lines): {exc}") from None
    if isinstance(doc, list):
        return _from_templates(doc)
    if isinstance(doc, dict):
        if "properties" in doc or "oneOf" in doc or "anyOf" in doc or "$schema" in doc:
            return _from_json_schema(doc)
        if "type" in doc and isinstance(doc["type"], str) and doc["type"] not in _JSON_TYPES:
            return _from_templates([doc])
        return _from_json_schema(doc)
    raise ExtractSchemaError("the schema must be a JSON object (JSON Schema) or a list of templates")


_JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})
