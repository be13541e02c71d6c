#!/usr/bin/env python3
"""Finds import cycles between the modules of each crate of the workspace.

A module (one .rs file: `a/b.rs` or `a/b/mod.rs` is `crate::a::b`) depends on
another when its code names a path into it (`use crate::x::y`, `super::y`,
`self::y`, a child's `y::z`, or such a path inline). Declaring a child (`mod y;`) is not a
dependency; naming its items is. A cycle is a loop of such dependencies
between distinct modules (a file's own `#[cfg(test)] mod tests` block is left
out: tests may name anything).

    python3 scripts/ci/module_cycles.py [CRATE_DIR ...]   (default: every crate with a src/)

Prints each cycle found and exits 1 if there is any; prints one summary line
and exits 0 otherwise.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATH = re.compile(r"\b(crate|super|self)((?:::\w+)+)")
USE_GROUP = re.compile(r"\buse\s+(crate|super|self)((?:::\w+)*)::\{([^;]*)\};", re.S)


def module_of(src: pathlib.Path, f: pathlib.Path) -> tuple:
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_tests(text: str) -> str:
    """The file without its `#[cfg(test)] mod NAME { ... }` blocks and comments."""
    text = re.sub(r"//[^\n]*", "", text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub\s+)?mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def resolve(base: tuple, kind: str, rest: list, modules: set) -> tuple:
    if kind == "crate":
        path = []
    elif kind == "self":
        path = list(base)
    else:
        path = list(base[:-1])
        while rest and rest[0] == "super":
            path = path[:-1]
            rest = rest[1:]
    full = path + rest
    # The longest prefix that is a module of this crate.
    for k in range(len(full), -1, -1):
        if tuple(full[:k]) in modules:
            return tuple(full[:k])
    return ()


def crate_graph(src: pathlib.Path) -> dict:
    files = {module_of(src, f): f for f in src.rglob("*.rs")}
    modules = set(files)
    graph = {m: set() for m in modules}
    for m, f in files.items():
        text = strip_tests(f.read_text())
        refs = []
        for g in USE_GROUP.finditer(text):
            prefix = [p for p in g.group(2).split("::") if p]
            for item in re.split(r"[,{}\s]+", g.group(3)):
                name = item.split("::")[0].strip()
                if name and name not in ("self", "*"):
                    refs.append((g.group(1), prefix + item.split("::")))
                elif name == "self":
                    refs.append((g.group(1), prefix))
        for p in PATH.finditer(text):
            refs.append((p.group(1), [x for x in p.group(2).split("::") if x]))
        # Bare paths into a child module (`use store::Store;`, `error::WebError`).
        for child in {c for c in modules if len(c) == len(m) + 1 and c[: len(m)] == m}:
            if re.search(r"(?<![\w:])" + child[-1] + r"::", text):
                refs.append(("self", [child[-1]]))
        for kind, rest in refs:
            target = resolve(m, kind, [r.strip() for r in rest if r.strip()], modules)
            if target != m and target in modules:
                # A module naming its own ancestor's item through the ancestor
                # (or a descendant) is a dependency like any other.
                graph[m].add(target)
    return graph


def cycles(graph: dict) -> list:
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def main() -> int:
    crates = [pathlib.Path(a) for a in sys.argv[1:]] or sorted(p.parent for p in ROOT.glob("*/src"))
    found, modules = 0, 0
    for crate in crates:
        graph = crate_graph(crate / "src")
        modules += len(graph)
        for comp in cycles(graph):
            found += 1
            names = ["crate" + "".join("::" + p for p in m) for m in comp]
            print(f"{crate.name}: import cycle among {', '.join(names)}")
    if found:
        return 1
    print(f"no import cycles: {modules} modules in {len(crates)} crates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
