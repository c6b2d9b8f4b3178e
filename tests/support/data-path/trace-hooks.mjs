// Module hooks that mark every function of the workspace packages' sources: each function body
// starts by telling `globalThis.__pagewiseTrace` which file it is in. Registered after tsx, so
// they see tsx's JavaScript. Used by data-path.ts only; nothing of the packages changes.
import ts from 'typescript';

const PACKAGE_SOURCE = /\/packages\/([^/]+)\/src\/(.+)\.(?:ts|js)$/;

/** `text` with `__pagewiseTrace("<file>")` at the start of every function body. */
function mark(text, file) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const call = `__pagewiseTrace(${JSON.stringify(file)})`;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body !== undefined) {
      if (ts.isBlock(node.body)) edits.push([node.body.getStart(source) + 1, `${call};`]);
      else {
        edits.push([node.body.getStart(source), `(${call}, `]);
        edits.push([node.body.getEnd(), ')']);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [at, insert] of edits) out = out.slice(0, at) + insert + out.slice(at);
  return out;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  const match = PACKAGE_SOURCE.exec(new URL(url).pathname);
  if (match === null || url.includes('node_modules') || result.source === undefined) return result;
  const file = `${match[1]}/${match[2]}.ts`;
  return { ...result, source: mark(String(result.source), file) };
}
