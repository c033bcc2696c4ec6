// Operator CLI: npm run --silent cli -- <command> (see lib/cli/commands.ts for the list). package.json starts
// it with --liftoff-only: one command runs a few statements, and V8 optimising the embedded database's
// wasm in the background (then waiting for it at exit) doubled each call (5 s to 2.4 s on PGlite).
import { parseArgs, UsageError } from "../lib/cli/args.ts";
import { COMMANDS, USAGE } from "../lib/cli/commands.ts";
import { closeDb } from "../lib/db/index.ts";

const { words, flags } = parseArgs(process.argv.slice(2));
const command = COMMANDS[words.slice(0, 2).join(" ")] ?? COMMANDS[words.slice(0, 1).join(" ")];
let code = 0;
if (!command) {
  console.error(USAGE);
  code = 2;
} else {
  try {
    console.log(await command(flags));
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    code = error instanceof UsageError ? 2 : 1;
  }
}
await closeDb();
process.exit(code);
