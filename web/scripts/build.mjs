// Bundles the page into web/dist: the page, its worker, the engine's WebAssembly, and the shipped
// rulesets as examples (read from rulesets/, the one list of them).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { web, dist, rulesets, wasmPackage } from './paths.mjs';

const pkgDist = path.join(wasmPackage, 'dist');
const wasm = path.join(pkgDist, 'mettle_bg.wasm');
if (!fs.existsSync(wasm)) {
  console.error(`build: ${wasm} is missing: run \`npm run build:wasm\` first`);
  process.exit(1);
}

// `import examples from 'examples'`: every shipped ruleset with the script files it names.
const examplesPlugin = {
  name: 'examples',
  setup(build) {
    build.onResolve({ filter: /^examples$/ }, () => ({ path: 'examples', namespace: 'examples' }));
    build.onLoad({ filter: /.*/, namespace: 'examples' }, () => {
      const names = fs.readdirSync(rulesets).filter((f) => f.endsWith('.mettle')).sort();
      const list = names.map((name) => {
        const text = fs.readFileSync(path.join(rulesets, name), 'utf8');
        const files = { [name]: text };
        for (const [, script] of text.matchAll(/^\s*script\s+"([^"]+)"/gm)) {
          files[script] = fs.readFileSync(path.join(rulesets, script), 'utf8');
        }
        const title = text.match(/^ruleset\s+"([^"]*)"/m)?.[1] ?? name;
        return { name, title, files };
      });
      return {
        contents: `export default ${JSON.stringify(list)};`,
        loader: 'js',
        watchFiles: names.map((n) => path.join(rulesets, n)),
      };
    });
  },
};

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
const t0 = Date.now();
await esbuild.build({
  entryPoints: [path.join(web, 'src', 'main.js'), path.join(web, 'src', 'worker.js')],
  outdir: dist,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: !process.env.PLAYGROUND_DEBUG,
  sourcemap: true,
  alias: { mettle: path.join(pkgDist, 'mettle.js') },
  // The package reads its WebAssembly from the file system under Node; the page gives it a URL.
  external: ['node:*'],
  plugins: [examplesPlugin],
  logLevel: 'warning',
});
fs.copyFileSync(wasm, path.join(dist, 'mettle_bg.wasm'));
fs.copyFileSync(path.join(web, 'src', 'index.html'), path.join(dist, 'index.html'));
console.log(`build: web/dist in ${Date.now() - t0} ms`);
