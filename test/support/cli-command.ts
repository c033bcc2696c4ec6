import fs from "node:fs";
import path from "node:path";

/**
 * The operator CLI as `npm run cli` starts it (package.json's script, with its Node flags), so the
 * tests run the command operators run: the node binary and its arguments before the CLI's own.
 */
export const CLI_NODE = path.join(process.cwd(), "node_modules", ".bin", "node");
const script = (
  JSON.parse(fs.readFileSync(path.join(process.cwd(), "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts.cli;
if (!script?.startsWith("node ")) throw new Error(`package.json's cli script should start with node: ${script}`);
export const CLI_ARGS: readonly string[] = script.split(/\s+/).slice(1);
