"""What GridSight refuses to write or run, and why (the reasons are shown to the user)."""

from __future__ import annotations

from gridsight.formula._tree import Call, Literal, Node, external_link, walk

#: Functions that reach outside the workbook or run code.
REFUSED_FUNCTIONS: dict[str, str] = {
    "WEBSERVICE": "it fetches data from the internet",
    "FILTERXML": "it parses XML fetched from outside the workbook",
    "IMAGE": "it downloads a picture from the internet",
    "CALL": "it calls code in a DLL",
    "REGISTER": "it registers code from a DLL",
    "REGISTER.ID": "it registers code from a DLL",
    "EXEC": "it runs a program",
    "RTD": "it reads a real-time data server outside Excel",
    "SQL.REQUEST": "it queries an external database",
}


def policy_violations(tree: Node, text: str) -> list[str]:
    """Reasons to refuse a formula; empty when it is allowed."""
    reasons: list[str] = []
    link = external_link(text)
    if link:
        reasons.append(f"it links outside this workbook ({link})")
    for node in walk(tree):
        if not isinstance(node, Call):
            continue
        name = node.name.removeprefix("_XLFN.").removeprefix("_XLWS.")
        if name in REFUSED_FUNCTIONS:
            reasons.append(f"{name} is not allowed: {REFUSED_FUNCTIONS[name]}")
        elif name == "HYPERLINK":
            target = node.args[0] if node.args else None
            if not isinstance(target, Literal) or target.kind != "text":
                reasons.append("HYPERLINK is allowed only with a literal http(s) or in-workbook (#) target")
            else:
                url = str(target.value).strip().lower()
                if not url.startswith(("http://", "https://", "#")):
                    reasons.append(f"HYPERLINK to {target.value!r} is not allowed: only http(s) or '#' links")
    return reasons
