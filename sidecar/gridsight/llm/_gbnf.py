"""A small GBNF reader that checks a grammar can always finish, before llama.cpp runs it.

Why: llama-cpp-python 0.3.x does not validate a grammar when it is built; llama.cpp parses it only
when sampling starts, and a grammar with a syntax error or an undefined rule then crashes the whole
process (segfault), as does a grammar that reaches a state no token can satisfy ("Unexpected empty
grammar stack"). We parse the GBNF here and require that every element reachable from ``root`` can
derive a finite string the model can produce (no NUL characters; no rule that only recurses), so the
model can never walk into a dead end. The runtime additionally asks llama.cpp's own parser (with the
model's vocabulary) before sampling.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridsight.errors import GrammarError

MAX_CODEPOINT = 0x10FFFF


@dataclass(frozen=True)
class Lit:
    text: str


@dataclass(frozen=True)
class CharClass:
    negated: bool
    ranges: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Any_:
    pass


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Token:
    text: str  # <...> token syntax; always producible


@dataclass(frozen=True)
class Group:
    alts: tuple[tuple[Element, ...], ...]


@dataclass(frozen=True)
class Repeat:
    inner: Element
    min: int
    max: int | None


Element = Lit | CharClass | Any_ | Ref | Token | Group | Repeat
Rules = dict[str, tuple[tuple[Element, ...], ...]]

_ESCAPES = {
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "\\": "\\",
    '"': '"',
    "[": "[",
    "]": "]",
    "-": "-",
    "^": "^",
    "/": "/",
}


class _Parser:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def error(self, msg: str) -> GrammarError:
        line = self.s.count("\n", 0, self.i) + 1
        return GrammarError(f"grammar syntax error at line {line}: {msg}")

    def space(self, newlines: bool) -> None:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t" or (newlines and c in "\r\n"):
                self.i += 1
            elif c == "#":
                while self.i < len(s) and s[self.i] not in "\r\n":
                    self.i += 1
            else:
                return

    def name(self) -> str:
        start = self.i
        while self.i < len(self.s) and (self.s[self.i].isalnum() or self.s[self.i] in "-_"):
            self.i += 1
        if start == self.i:
            raise self.error("expected a rule name")
        return self.s[start : self.i]

    def char(self) -> int:
        s = self.s
        if self.i >= len(s):
            raise self.error("unexpected end of grammar")
        c = s[self.i]
        if c != "\\":
            self.i += 1
            return ord(c)
        if self.i + 1 >= len(s):
            raise self.error("unexpected end after '\\'")
        e = s[self.i + 1]
        widths = {"x": 2, "u": 4, "U": 8}
        if e in widths:
            hexpart = s[self.i + 2 : self.i + 2 + widths[e]]
            try:
                value = int(hexpart, 16)
            except ValueError:
                raise self.error(f"bad escape \\{e}{hexpart}") from None
            self.i += 2 + widths[e]
            return value
        if e in _ESCAPES:
            self.i += 2
            return ord(_ESCAPES[e])
        raise self.error(f"unknown escape \\{e}")

    def rules(self) -> Rules:
        rules: dict[str, list[tuple[Element, ...]]] = {}
        self.space(True)
        while self.i < len(self.s):
            name = self.name()
            self.space(False)
            if not self.s.startswith("::=", self.i):
                raise self.error(f"expected '::=' after {name!r}")
            self.i += 3
            self.space(True)
            alts = self.alternatives(nested=False)
            rules.setdefault(name, []).extend(alts)
            self.space(True)
        return {k: tuple(v) for k, v in rules.items()}

    def alternatives(self, nested: bool) -> list[tuple[Element, ...]]:
        alts = [self.sequence(nested)]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            self.space(True)
            alts.append(self.sequence(nested))
        return alts

    def sequence(self, nested: bool) -> tuple[Element, ...]:
        out: list[Element] = []
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c == '"':
                self.i += 1
                chars = []
                while self.i < len(s) and s[self.i] != '"':
                    chars.append(chr(self.char()))
                if self.i >= len(s):
                    raise self.error("unterminated string literal")
                self.i += 1
                out.append(Lit("".join(chars)))
            elif c == "[":
                self.i += 1
                negated = self.i < len(s) and s[self.i] == "^"
                if negated:
                    self.i += 1
                ranges = []
                while self.i < len(s) and s[self.i] != "]":
                    first = self.char()
                    last = first
                    if self.i + 1 < len(s) and s[self.i] == "-" and s[self.i + 1] != "]":
                        self.i += 1
                        last = self.char()
                    ranges.append((first, last))
                if self.i >= len(s):
                    raise self.error("unterminated character class")
                self.i += 1
                out.append(CharClass(negated, tuple(ranges)))
            elif c == ".":
                self.i += 1
                out.append(Any_())
            elif c == "<":
                end = s.find(">", self.i)
                if end < 0:
                    raise self.error("unterminated <token>")
                out.append(Token(s[self.i : end + 1]))
                self.i = end + 1
            elif c == "(":
                self.i += 1
                self.space(True)
                alts = self.alternatives(nested=True)
                if self.i >= len(s) or s[self.i] != ")":
                    raise self.error("expected ')'")
                self.i += 1
                out.append(Group(tuple(alts)))
            elif c.isalnum() or c in "-_":
                save = self.i
                name = self.name()
                j = self.i
                while j < len(s) and s[j] in " \t":
                    j += 1
                if s.startswith("::=", j):  # the next rule begins: this sequence ended at the newline
                    self.i = save
                    break
                out.append(Ref(name))
            elif c in "*+?":
                if not out:
                    raise self.error(f"'{c}' with nothing before it")
                self.i += 1
                lo, hi = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
                out[-1] = Repeat(out[-1], lo, hi)
            elif c == "{":
                if not out:
                    raise self.error("'{' with nothing before it")
                end = s.find("}", self.i)
                if end < 0:
                    raise self.error("unterminated {m,n}")
                body = s[self.i + 1 : end].replace(" ", "")
                try:
                    if "," in body:
                        a, b = body.split(",", 1)
                        lo, hi = int(a), (int(b) if b else None)
                    else:
                        lo = hi = int(body)
                except ValueError:
                    raise self.error(f"bad repetition {{{body}}}") from None
                self.i = end + 1
                out[-1] = Repeat(out[-1], lo, hi)
            elif c in "|)":
                break
            elif c in "\r\n":
                if nested:
                    self.space(True)
                    continue
                break
            else:
                raise self.error(f"unexpected character {c!r}")
            self.space(nested)
        return tuple(out)


def parse_gbnf(text: str) -> Rules:
    """Parse GBNF text into rules (name -> alternatives). Raises GrammarError on a syntax error."""
    if not isinstance(text, str) or not text.strip():
        raise GrammarError("empty grammar")
    return _Parser(text).rules()


def _class_producible(cc: CharClass) -> bool:
    """Whether some non-NUL character matches (tokens can never produce NUL)."""
    if not cc.negated:
        return any(hi >= max(lo, 1) for lo, hi in cc.ranges)
    covered = sorted((max(lo, 1), hi) for lo, hi in cc.ranges if hi >= 1)
    nxt = 1
    for lo, hi in covered:
        if lo > nxt:
            return True
        nxt = max(nxt, hi + 1)
    return nxt <= MAX_CODEPOINT


def check_grammar(text: str, root: str = "root") -> Rules:
    """Parse and check that every element reachable from ``root`` can finish with producible text.

    Raises:
        GrammarError: syntax error, undefined rule, missing root, or an element that can never
            complete (only recursion, or text containing NUL) -- the states that crash llama.cpp.
    """
    rules = parse_gbnf(text)
    if root not in rules:
        raise GrammarError(f"grammar has no {root!r} rule")
    # Reachability and undefined references.
    reachable: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in reachable:
            continue
        if name not in rules:
            raise GrammarError(f"grammar uses rule {name!r} but never defines it")
        reachable.add(name)
        for alt in rules[name]:
            for el in alt:
                todo.extend(_refs(el))
    # Productivity fixpoint.
    productive: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name in reachable - productive:
            if any(all(_productive(el, productive, lenient=True) for el in alt) for alt in rules[name]):
                productive.add(name)
                changed = True
    for name in sorted(reachable):
        for n, alt in enumerate(rules[name], 1):
            for el in alt:
                if not _productive(el, productive):
                    raise GrammarError(
                        f"grammar rule {name!r} (alternative {n}) can never finish: "
                        + _describe(el, productive)
                    )
    return rules


def _refs(el: Element) -> list[str]:
    if isinstance(el, Ref):
        return [el.name]
    if isinstance(el, Group):
        return [r for alt in el.alts for e in alt for r in _refs(e)]
    if isinstance(el, Repeat):
        return _refs(el.inner)
    return []


def _productive(el: Element, productive: set[str], lenient: bool = False) -> bool:
    """Whether ``el`` can derive a finite producible string. The fixpoint runs ``lenient`` (an optional
    element is fine as empty); the final check is strict: even an optional element must be completable,
    because the model may start it and then be stuck."""
    if isinstance(el, Lit):
        return "\x00" not in el.text
    if isinstance(el, CharClass):
        return _class_producible(el)
    if isinstance(el, Ref):
        return el.name in productive
    if isinstance(el, Group):
        return any(all(_productive(e, productive, lenient) for e in alt) for alt in el.alts)
    if isinstance(el, Repeat):
        return (lenient and el.min == 0) or _productive(el.inner, productive, lenient)
    return True  # Any_, Token


def _describe(el: Element, productive: set[str]) -> str:
    if isinstance(el, Lit):
        return f"literal {el.text!r} contains NUL, which no token can produce"
    if isinstance(el, CharClass):
        return "a character class that matches no producible character"
    if isinstance(el, Ref):
        return f"rule {el.name!r} has no finite expansion (it only recurses or dead-ends)"
    if isinstance(el, Repeat):
        return _describe(el.inner, productive)
    if isinstance(el, Group):
        return "a group none of whose alternatives can finish"
    return "unknown"
