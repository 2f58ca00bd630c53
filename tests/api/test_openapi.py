"""The OpenAPI document matches the routes exactly, both ways, and its references resolve."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gridsight.api import Running

from .conftest import Client


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str):
                yield v
            else:
                yield from _refs(v)
    elif isinstance(node, list):
        for v in node:
            yield from _refs(v)


def _routes(running: Running) -> set[tuple[str, str]]:
    out = set()
    for rule in running.app.url_map.iter_rules():  # type: ignore[attr-defined]
        if not rule.rule.startswith("/api/v1/"):
            continue
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule)
        for m in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((m.lower(), path))
    return out


def test_every_route_is_documented_and_every_documented_route_exists(
    client: Client, running: Running
) -> None:
    doc = client.get("/openapi.json").json
    documented = {(m, p) for p, item in doc["paths"].items() for m in item}
    routes = _routes(running)
    assert routes - documented == set(), "routes missing from the OpenAPI document"
    assert documented - routes == set(), "documented operations without a route"
    assert len(routes) >= 15


def test_document_shape(client: Client) -> None:
    doc = client.get("/openapi.json").json
    assert doc["openapi"] == "3.1.0"
    assert doc["components"]["securitySchemes"]["secret"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-GridSight-Secret",
    }
    op_ids = []
    for path, item in doc["paths"].items():
        assert path.startswith("/api/v1/")
        for method, op in item.items():
            op_ids.append(op["operationId"])
            assert op["summary"], (method, path)
            assert "401" in op["responses"] and "500" in op["responses"], (method, path)
            params = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert params == set(re.findall(r"\{([a-z_]+)\}", path)), (method, path)
    assert len(op_ids) == len(set(op_ids))


def test_component_references_resolve(client: Client) -> None:
    doc = client.get("/openapi.json").json
    schemas = doc["components"]["schemas"]
    for ref in set(_refs(doc["paths"])):
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[1] in schemas, ref
    # Embedded schemas keep their own $id, so their internal "#/$defs/..." refs resolve inside them.
    for name in ("Snapshot", "EditPlanV1"):
        assert schemas[name]["$id"].startswith("https://gridsight.invalid/schemas/")
