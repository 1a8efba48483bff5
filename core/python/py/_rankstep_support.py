# SPDX-License-Identifier: MIT
"""Glue between Rankstep's C++ runner and the learner's code. Not part of the puzzle API."""
import ast
import linecache
import sys

OUTPUT_LIMIT = 1 << 20


class Capture:
    """Keeps the first OUTPUT_LIMIT characters the learner prints and counts the rest.

    The echo to the real stdout is cut at the same place: the app reads the runner's stdout, and
    a learner printing a gibibyte must not grow it (or this process) by as much.
    """

    def __init__(self, echo):
        self.parts = []
        self.size = 0
        self.echo = echo
        self.dropped = 0
        # The real stdout, kept here: the run points sys.__stdout__ and sys.__stderr__ at this
        # object too, so that writing to them does not get around the limit.
        self.real = sys.__stdout__

    def _echo(self, text):
        if self.echo and self.real is not None:
            self.real.write(text)
            # Line by line, as on a terminal: through a pipe (the GUI, a test) Python buffers
            # whole blocks, and the embedded interpreter is never finalized to flush them.
            if "\n" in text:
                self.real.flush()

    def write(self, text):
        text = str(text)
        piece = text[: max(OUTPUT_LIMIT - self.size, 0)]
        if piece:
            self.parts.append(piece)
            self.size += len(piece)
            self._echo(piece)
        self.dropped += len(text) - len(piece)
        return len(text)

    def flush(self):
        if self.echo and self.real is not None:
            self.real.flush()

    def close(self):
        """Says once, at the end of the run, how much output was dropped."""
        if self.dropped:
            note = (f"\n[output cut at 1 MiB: {self.dropped:,} more characters were printed "
                    "and dropped]\n")
            self.parts.append(note)
            self._echo(note)
            self.dropped = 0
        self.flush()

    def text(self):
        return "".join(self.parts)


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
