#!/usr/bin/env python3
"""Checks that the top-level modules of a crate's src/ do not import each
other in a circle: a graph of `crate::<module>` references between the
files of each top-level module (test code after `#[cfg(test)]` left out),
whose strongly connected components must all be single modules. Prints
each circle and exits 1 when there is one.

Usage: check-module-cycles.py SRC_DIR [SRC_DIR ...]
"""

import glob
import os
import re
import sys


def graph(root):
    edges = {}
    for path in glob.glob(os.path.join(root, "**", "*.rs"), recursive=True):
        rel = os.path.relpath(path, root)
        top = rel.split(os.sep)[0].removesuffix(".rs")
        if top in ("lib", "main") or rel.endswith("tests.rs") or f"{os.sep}tests{os.sep}" in rel:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        cut = text.find("#[cfg(test)]")
        if cut >= 0:
            text = text[:cut]
        used = set(re.findall(r"crate::([a-z_]+)", text))
        for group in re.findall(r"crate::\{([^}]*)\}", text):
            used.update(re.findall(r"(?:^|,)\s*([a-z_]+)", group))
        edges.setdefault(top, set()).update(u for u in used if u != top)
    return edges


def circles(edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
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
                found.append(sorted(comp))

    for v in list(edges):
        if v not in index:
            visit(v)
    return found


def main():
    bad = False
    for root in sys.argv[1:]:
        for comp in circles(graph(root)):
            print(f"{root}: modules import each other in a circle: {', '.join(comp)}")
            bad = True
    if bad:
        sys.exit(1)
    print("check-module-cycles: no circle among the top-level modules of " + ", ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
