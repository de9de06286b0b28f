// Builds the server and the CLI ahead of time (src/ + compat-rest/ → dist/), so `npm start` and
// `npm run ctl` run plain JavaScript with node instead of compiling TypeScript at every start (tsx).
// esbuild bundles our own modules into dist/main.js and dist/ctl.js (shared code in dist/chunks/,
// split at dynamic imports so the CLI loads only what it uses); packages stay in node_modules.
// Type checking is `npm run typecheck`'s job, not this build's.
//
// Like build-admin.mjs it does nothing when its inputs (the sources, the generated Prisma client, the
// lock file, this script) hash to the stamp of the last build; `--force` rebuilds anyway. Files are
// written to a temporary name and renamed, so a process starting meanwhile never reads half a file.
// `node scripts/build-server.mjs [--force]`, or `buildServer()` from scripts/prestart.mjs (`serverBuildIsFresh()`
// from scripts/start.mjs).
import { createHash } from "node:crypto";
import fs from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "dist");
const stamp = path.join(out, ".build-hash");
const entries = { main: "src/main.ts", ctl: "src/cli/ctl.ts" };
const generated = path.join(root, "src/generated");

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(ts|mts|js|mjs|json)$/.test(e.name) ? [p] : [];
  });
}

/**
 * The inputs' hash: every source file's path and content, except the generated Prisma client's (8 MB,
 * most of what a check read at every start), which count by path, size and modification time: `prisma
 * generate` writes them anew whenever it runs, so a regenerated client still rebuilds.
 */
function inputsDigest() {
  const inputs = [...files(path.join(root, "src")), ...files(path.join(root, "compat-rest")), ...["package-lock.json", "tsconfig.json", "scripts/build-server.mjs"].map((f) => path.join(root, f))].sort();
  const hash = createHash("sha256");
  for (const f of inputs) {
    hash.update(path.relative(root, f)).update("\0");
    if (f.startsWith(generated + path.sep)) {
      const { size, mtimeMs } = fs.statSync(f);
      hash.update(`${size} ${mtimeMs}\0`);
    } else hash.update(fs.readFileSync(f));
  }
  return hash.digest("hex");
}

/** Whether dist/ was built from the sources as they are now (its inputs hash to the stamp of the last build). */
export function serverBuildIsFresh(digest = inputsDigest()) {
  const built = Object.keys(entries).every((name) => fs.existsSync(path.join(out, `${name}.js`)));
  return built && fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === digest;
}

/** Builds dist/ when its inputs changed (or with `force`); returns whether it ran. */
export async function buildServer({ force = false } = {}) {
  const digest = inputsDigest();
  if (!force && serverBuildIsFresh(digest)) return false;
  await build();
  fs.writeFileSync(stamp, digest);
  return true;
}

// Prisma's generated client carries its query compiler as a module exporting the WebAssembly as a base64
// string (2.3 MB), which then stays in the V8 heap twice for the life of the process (the module's source
// and the string) beside the compiled module. The bundle reads the same bytes from a .wasm file written
// next to it instead (docs/performance.md, "Idle memory, second round"). Should a Prisma upgrade change
// the generated code, the build says so and keeps Prisma's own loading.
const WASM_FILE = "query-compiler.wasm";
const WASM_IMPORT = /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_[\w.]+\.wasm-base64\.mjs)"\)\s*return await decodeBase64AsWasm\(wasm\)/;
let wasmModule; // the base64 module the generated client named
const wasmFromFile = {
  name: "prisma-wasm-from-file",
  setup(build) {
    build.onLoad({ filter: /generated[\\/]prisma[\\/]internal[\\/]class\.ts$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      const found = WASM_IMPORT.exec(text);
      if (!found) {
        console.warn("build-server: Prisma's query compiler loading was not recognised; it stays a base64 module in the heap");
        return undefined;
      }
      wasmModule = found[1];
      const load = `return new WebAssembly.Module(await (await import("node:fs/promises")).readFile(new URL(${JSON.stringify(`./${WASM_FILE}`)}, import.meta.url)))`;
      return { loader: "ts", contents: text.replace(found[0], load) };
    });
  },
};

// Packages bundled into dist/ with our code, and everything they import. Loading one file instead of
// hundreds at start (~530 module files, most of them these packages' CommonJS trees) is the largest part of
// the start-up time the build can save (docs/performance.md, "Twelfth round"). Only pure-JavaScript
// packages whose bundled form the process-level tests run (they start dist/): a package that reads files
// beside itself, loads native code or WebAssembly, or whose CommonJS and ESM entries disagree (pg did) stays
// in node_modules, and so does every package not named here.
const BUNDLED = new Set([
  "zod", "zod-openapi", // one copy: zod-openapi must see the schemas' own zod
  "express", "cookie", "qs", "path-to-regexp", "multer",
  "sanitize-html", "markdown-it", "emoji-regex",
  "image-size", "blurhash", "dataloader",
  "@oslojs/crypto", "@oslojs/encoding", "@oslojs/otp",
  "@trpc/server",
]);
const packageOf = (specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
const allowlisted = {
  name: "bundle-allowlisted-packages",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || isBuiltin(args.path)) return { external: true };
      // inside a bundled package: its own imports come along (they are pure JavaScript by the same test)
      if (args.importer.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      return BUNDLED.has(packageOf(args.path)) ? undefined : { external: true };
    });
  },
};

async function build() {
  const started = Date.now();
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: out,
    bundle: true,
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    format: "esm",
    platform: "node",
    target: "node20.19",
    // the other packages are loaded from node_modules as they are (native addons, WASM files, their own paths)
    plugins: [wasmFromFile, allowlisted],
    // bundled CommonJS calls require() for Node's built-ins, which an ES module has not got
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    sourcemap: "linked", // `node --enable-source-maps dist/main.js` maps stack traces back to src/
    sourcesContent: false,
    legalComments: "none",
    // the sources of loaded modules stay in the V8 heap for lazy compilation: without indentation and line breaks
    // the live heap is 4–5 MB smaller (names are kept, so stack traces still read; the source map maps them back)
    minifyWhitespace: true,
    logLevel: "warning",
    write: false,
    metafile: false,
  });
  const outputs = result.outputFiles.map((file) => ({ path: file.path, contents: file.contents }));
  if (wasmModule) {
    // the query compiler's bytes, beside the output that loads them (esbuild picks the chunk)
    const { wasm } = await import(import.meta.resolve(wasmModule));
    const bytes = Buffer.from(wasm, "base64");
    for (const file of result.outputFiles.filter((f) => f.text.includes(`"./${WASM_FILE}"`))) outputs.push({ path: path.join(path.dirname(file.path), WASM_FILE), contents: bytes });
  }
  const fresh = new Set();
  for (const file of outputs) {
    fs.mkdirSync(path.dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, file.contents);
    fs.renameSync(tmp, file.path);
    fresh.add(file.path);
  }
  // chunks of earlier builds (names carry a content hash) are removed; a process still running from an
  // older build has loaded its chunks already (static imports) or fails loudly on a lazy one
  const chunks = path.join(out, "chunks");
  for (const f of fs.readdirSync(chunks)) if (!fresh.has(path.join(chunks, f)) && !f.endsWith(".tmp")) fs.rmSync(path.join(chunks, f), { force: true });
  console.error(`built the server (dist/) in ${Date.now() - started} ms`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer({ force: process.argv.includes("--force") });
