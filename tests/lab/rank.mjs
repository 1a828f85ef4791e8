// rank.mjs — which MIME type JupyterLab renders for an output, ranked as
// Lab registers its renderers: the standard factories of
// @jupyterlab/rendermime at their default ranks, plus the JSON renderer of
// @jupyterlab/json-extension at the rank its extension declares (0: first).
// Bundled for the browser with esbuild (tests/jupyter/test_lab_ranking.py
// does it) and run in headless Chromium, where Lab's code runs too.
import { RenderMimeRegistry, standardRendererFactories } from '@jupyterlab/rendermime';
import * as jsonExt from '@jupyterlab/json-extension';

const registry = new RenderMimeRegistry({ initialFactories: standardRendererFactories });
const exts = Array.isArray(jsonExt.default) ? jsonExt.default : [jsonExt.default];
for (const ext of exts) {
  registry.addFactory(ext.rendererFactory, ext.rank);
}

/** The JSON renderer's MIME types (what shows a JSON tree). */
export const jsonTypes = exts.flatMap(e => e.rendererFactory.mimeTypes);

/**
 * For each nbformat output, the MIME type Lab shows when the output is
 * trusted (just run) and when it is not (a notebook opened from disk).
 * Throws when the registry does not rank as Lab does (a bundle with
 * application/json must show the JSON tree), so a broken check cannot pass.
 */
export function rank(outputs) {
  const self = registry.preferredMimeType({ 'application/json': { a: 1 }, 'text/plain': '{a: 1}' }, 'any');
  if (self !== 'application/json') {
    throw new Error(`the registry prefers ${self} over application/json: it does not rank as JupyterLab does`);
  }
  return outputs.map(o => ({
    trusted: registry.preferredMimeType(o.data || {}, 'any') ?? null,
    untrusted: registry.preferredMimeType(o.data || {}, 'ensure') ?? null,
  }));
}
