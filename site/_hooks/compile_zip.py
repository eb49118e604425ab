"""Run inside Pyodide (by ``compile_zip.cjs``, under Node at build time): a zip of Python
sources becomes a zip of bytecode for the browser's own interpreter.

The browser then imports compiled modules instead of compiling every source at each first
start, which was most of Pyodide's boot. Docstrings are left out (nothing the game runs reads
them; assertions stay), so the compiled zip is about the size of the sources.
"""

import ast
import importlib._bootstrap_external as external
import io
import zipfile


class _NoDocstrings(ast.NodeTransformer):
    def _strip(self, node):  # type: ignore[no-untyped-def]
        self.generic_visit(node)
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
        return node

    visit_Module = visit_ClassDef = visit_FunctionDef = visit_AsyncFunctionDef = _strip


def compile_zip(data: bytes, prefix: str) -> bytes:
    """Each ``x.py`` of the zip becomes ``x.pyc`` (named ``prefix + x.py`` in tracebacks)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            body = zin.read(info)
            if info.filename.endswith(".py"):
                tree = _NoDocstrings().visit(ast.parse(body, prefix + info.filename))
                code = compile(tree, prefix + info.filename, "exec", dont_inherit=True)
                body = bytes(external._code_to_timestamp_pyc(code, 0, 0))
                info = zipfile.ZipInfo(info.filename + "c", info.date_time)
            zout.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()
