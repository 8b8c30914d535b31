"""Edit a bracketed literal list of strings (`[...]` in TOML/Python, `(...)` tuples) in place.

Kept items keep their quotes and trailing comments; the list keeps its shape (one line or
one item per line, indentation, trailing comma) and its order: a sorted list stays
sorted, an unsorted one gets new items at the end. Used for `packages = [...]` and
`_GROUPS = (...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

CLOSE = {"[": "]", "(": ")"}


@dataclass(frozen=True)
class Item:
    start: int  # offset of the opening quote
    end: int  # offset after the closing quote
    value: str
    quote: str
    comment: str  # trailing `# ...` on the item's line, "" if none


@dataclass(frozen=True)
class ListLiteral:
    start: int  # offset of the opening bracket
    end: int  # offset after the closing bracket
    items: tuple[Item, ...]
    lead: tuple[tuple[str, ...], ...]  # standalone comment lines before each item, + tail
    only_strings: bool

    def values(self) -> list[str]:
        return [i.value for i in self.items]


def parse_list(text: str, open_at: int) -> ListLiteral | None:
    """The literal whose opening bracket is at `open_at`, or None if it is not one."""
    opener = text[open_at]
    if opener not in CLOSE:
        return None
    close, i, n = CLOSE[opener], open_at + 1, len(text)
    items, lead, pending, only_strings = [], [], [], True
    while i < n:
        c = text[i]
        if c in "\"'":
            j = text.find(c, i + 1)
            while j != -1 and text[j - 1] == "\\":
                j = text.find(c, j + 1)
            if j == -1:
                return None
            eol = text.find("\n", j)
            eol = n if eol == -1 else eol
            rest = text[j + 1 : eol]
            hash_at = rest.find("#")
            comment = rest[hash_at:].rstrip("\r") if hash_at != -1 else ""
            if comment and rest[:hash_at].strip(" ,\t"):
                comment = ""  # more items on this line: the comment belongs to the last one
            items.append(Item(i, j + 1, text[i + 1 : j], c, comment))
            lead.append(tuple(pending))
            pending = []
            i = j + 1
        elif c == "#":
            eol = text.find("\n", i)
            eol = n if eol == -1 else eol
            line_start = text.rfind("\n", 0, i) + 1
            if not text[line_start:i].strip():
                pending.append(text[i:eol].rstrip("\r"))
            i = eol
        elif c == close:
            lead.append(tuple(pending))
            return ListLiteral(open_at, i + 1, tuple(items), tuple(lead), only_strings)
        elif c in CLOSE or not (c.isspace() or c == ","):
            only_strings = False
            i += 1
        else:
            i += 1
    return None


def updated(values: list[str], remove: set[str], add: list[str]) -> list[str]:
    """`values` minus `remove` plus `add`: sorted if it was sorted, else appended."""
    kept = [v for v in values if v not in remove]
    extra = [a for a in dict.fromkeys(add) if a not in kept]
    if values == sorted(values):
        return sorted(kept + extra)
    return kept + extra


def render(text: str, lit: ListLiteral, new_values: list[str]) -> str:
    """The literal's new source text holding `new_values`, in the original's style."""
    opener, closer = text[lit.start], text[lit.end - 1]
    quote = lit.items[0].quote if lit.items else '"'
    by_value = {i.value: (i, lead) for i, lead in zip(lit.items, lit.lead[:-1], strict=True)}
    body = text[lit.start + 1 : lit.end - 1]
    if "\n" not in body:
        inner = body.strip()
        pad = " " if body.startswith(" ") and inner else ""
        parts = [
            f"{by_value[v][0].quote if v in by_value else quote}{v}"
            f"{by_value[v][0].quote if v in by_value else quote}"
            for v in new_values
        ]
        joined = ", ".join(parts)
        if opener == "(" and len(parts) == 1 or inner.endswith(",") and parts:
            joined += ","
        return f"{opener}{pad}{joined}{pad}{closer}"
    first = lit.items[0].start if lit.items else lit.end - 1
    indent = text[text.rfind("\n", 0, first) + 1 : first] if lit.items else "    "
    if lit.items and indent.strip():
        indent = "    "
    close_line = text.rfind("\n", 0, lit.end - 1) + 1
    close_indent = text[close_line : lit.end - 1]
    after_last = body[lit.items[-1].end - lit.start - 1 :] if lit.items else ""
    trailing = after_last.lstrip().startswith(",")
    lines = []
    for k, v in enumerate(new_values):
        item, lead = by_value.get(v, (None, ()))
        lines += [indent + c for c in lead]
        q = item.quote if item else quote
        comma = "," if k < len(new_values) - 1 or trailing else ""
        comment = f"  {item.comment}" if item and item.comment else ""
        lines.append(f"{indent}{q}{v}{q}{comma}{comment}")
    lines += [indent + c for c in lit.lead[-1]]
    nl = "\r\n" if "\r\n" in body else "\n"
    close_indent = close_indent if not close_indent.strip() else ""
    return opener + nl + nl.join(lines) + nl + close_indent + closer
