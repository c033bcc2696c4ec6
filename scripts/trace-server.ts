// After `NEXT_OUTPUT=standalone next build` (the Dockerfile's build stage, npm run e2e): adds
// server.ts and every file it loads at run time (lib/, registry/, the packages its API path
// imports) to .next/standalone. Next traces its own bundles into that folder, not a custom server
// (https://nextjs.org/docs/app/guides/custom-server), so the image would otherwise lack them.
// @vercel/nft is the tracer Next itself uses; it parses JavaScript, so it reads our TypeScript
// through Node's own type stripping, the same transform that runs it.
import fs from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import path from "node:path";
import { nodeFileTrace } from "@vercel/nft";

const root = process.cwd();
const out = path.join(root, ".next", "standalone");
if (!fs.existsSync(path.join(out, ".next"))) {
  console.error("No .next/standalone: build with NEXT_OUTPUT=standalone first.");
  process.exit(1);
}

const readFile = async (file: string): Promise<Buffer | string | null> => {
  if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) return null;
  const source = fs.readFileSync(file);
  const ours = file.endsWith(".ts") && !file.endsWith(".d.ts") && !file.includes(`${path.sep}node_modules${path.sep}`);
  return ours ? stripTypeScriptTypes(source.toString("utf8")) : source;
};

// The tracer also follows paths the code builds for the file system (the embedded database under
// .data, next.config.ts probed by server.ts): the image takes only code and its read-only data. Next
// itself is left to Next's own trace, which knows what its server needs at run time (followed from
// here, it would bring its dev server, compilers and image optimizer: ~60 MB more).
const SHIPPED =
  /^(?:server\.ts|package\.json|lib\/|registry\/|supabase\/migrations\/|supabase\/[^/]+\.json$|node_modules\/)/;
const ignore = (file: string) => !SHIPPED.test(file) || file.startsWith("node_modules/next/");

const { fileList, warnings } = await nodeFileTrace(["server.ts"], { base: root, readFile, ignore });
// Next's own dynamic requires (its dev server, optional native bindings) stay unresolved, as in its
// own trace; one of ours would be a file missing from the image.
const ours = [...warnings].filter((warning) => !/node_modules/.test(String(warning.message)));
if (ours.length > 0) {
  console.error(`Tracing server.ts failed:\n${ours.map((warning) => warning.message).join("\n")}`);
  process.exit(1);
}
let added = 0;
let bytes = 0;
for (const file of fileList) {
  const to = path.join(out, file);
  if (fs.existsSync(to)) continue; // already traced by Next (its node_modules/next, react, …)
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(path.join(root, file), to, { dereference: true, recursive: true });
  added++;
  bytes += fs.statSync(to).size;
}
console.log(
  `server.ts traced: ${fileList.size} files, ${added} added to .next/standalone (${(bytes / 1e6).toFixed(1)} MB)`,
);

// The image is this folder: what Next traced into it must be code and read-only data too. A data
// folder here (.data: the embedded database with its password hashes, upload bytes, generated keys)
// or a project folder beside it means a path the build followed; refuse the build, naming it.
const NEXT_STANDALONE = new Set([".next", "node_modules", "server.js", "package.json"]);
const SHIPPED_TOP = new Set(["server.ts", "lib", "registry", "supabase"]);
const strays = fs.readdirSync(out).filter((entry) => !NEXT_STANDALONE.has(entry) && !SHIPPED_TOP.has(entry));
const strayData = fs.existsSync(path.join(out, "supabase"))
  ? fs.readdirSync(path.join(out, "supabase")).filter((entry) => entry !== "migrations" && !entry.endsWith(".json"))
  : [];
if (strays.length > 0 || strayData.length > 0) {
  console.error(
    `.next/standalone holds what the image must not: ${[...strays, ...strayData.map((entry) => `supabase/${entry}`)].join(", ")}. ` +
      "Some code builds a file-system path the tracer followed: mark it /*turbopackIgnore: true*/ or exclude it in next.config.ts.",
  );
  process.exit(1);
}
