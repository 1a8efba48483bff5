# SPDX-License-Identifier: MIT
"""Glue between Rankstep's C++ runner and the learner's code. Not part of the puzzle API."""
import ast
import linecache


def without_bom(source):
    """The source without a leading byte order mark, which CPython skips in a file it reads."""
    return source[1:] if source.startswith("\ufeff") else source


def register_source(source, filename):
    """Lets tracebacks quote the learner's lines even when the file is not on disk."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def compile_source(source, filename):
    source = without_bom(source)
    register_source(source, filename)
    return compile(source, filename, "exec", dont_inherit=True)


def list_functions(source, filename):
    """[(name, line, is_async)] of the top-level functions, or raises SyntaxError."""
    tree = ast.parse(without_bom(source), filename)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node.lineno, isinstance(node, ast.AsyncFunctionDef)))
    return found
