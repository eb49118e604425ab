/* Build step of the play page (site/_hooks/jogo.py): compile zips of Python sources to
 * bytecode with the very Pyodide the page ships, under Node.
 * node compile_zip.cjs PYODIDE_DIR LOCK_INFO_JSON IN.zip OUT.zip PREFIX [IN OUT PREFIX ...] */
"use strict";
const fs = require("fs");
const path = require("path");

async function main(argv) {
  const dir = path.resolve(argv[0]);
  const { loadPyodide } = require(path.join(dir, "pyodide.js"));
  const py = await loadPyodide({
    indexURL: dir + path.sep,
    lockFileContents: { info: JSON.parse(fs.readFileSync(argv[1], "utf8")), packages: {} },
    stdout: () => {},
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  py.runPython(fs.readFileSync(path.join(__dirname, "compile_zip.py"), "utf8"));
  const compileZip = py.globals.get("compile_zip");
  for (let i = 2; i + 2 < argv.length; i += 3) {
    const source = py.toPy(new Uint8Array(fs.readFileSync(argv[i])));
    const out = compileZip(source, argv[i + 2]);
    fs.writeFileSync(argv[i + 1], out.toJs());
    source.destroy();
    out.destroy();
  }
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
