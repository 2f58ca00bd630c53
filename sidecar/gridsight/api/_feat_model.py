"""Model status: which chat model would be used and whether it can run -- without loading it."""

from __future__ import annotations

import importlib
from typing import Any

from flask import jsonify

from gridsight.api._openapi import Api


def model_status() -> dict[str, Any]:
    """Cheap checks only (no assembly, no load): the runtime package, the configured or default file."""
    import gridsight.llm as llm

    out: dict[str, Any] = {"runtime": importlib.util.find_spec("llama_cpp") is not None}
    try:
        from gridsight.llm._locate import configured_model_path

        path, source = configured_model_path()
    except Exception as exc:  # a broken settings file is reported, not raised
        return {**out, "ready": False, "error": str(exc)[:300]}
    default = getattr(llm, "DEFAULT_MODEL", None)
    if path is None and default is not None:
        path = llm.data_dir() / "models" / default.filename
        packages = all(importlib.util.find_spec(m) is not None for m, _f in default.packages)
        out["default_packages_installed"] = packages
    out.update(
        {"source": source, "path": str(path) if path else None, "file_present": bool(path and path.is_file())}
    )
    out["ready"] = bool(out["runtime"] and (out["file_present"] or out.get("default_packages_installed")))
    return out


def model_on_disk() -> bool:
    """The model file is in place (assembled or configured), so using it costs at most a load: a
    request never starts assembling the model."""
    status = model_status()
    return bool(status.get("runtime") and status.get("file_present"))


def register(api: Api) -> None:
    @api.route(
        "/model",
        "GET",
        summary="Model status (which model, whether it can run; never loads it)",
        tag="model",
        result={"type": "object"},
    )
    def model() -> Any:
        return jsonify(model_status())
