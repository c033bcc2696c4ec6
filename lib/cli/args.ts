/** Tiny flag parser: positional words, then --name value pairs. */
export function parseArgs(argv: readonly string[]): { words: string[]; flags: Record<string, string> } {
  const words: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg.startsWith("--")) {
      const [name = "", inline] = arg.slice(2).split("=", 2);
      const next = argv[i + 1];
      if (inline !== undefined) flags[name] = inline;
      else if (next !== undefined && !next.startsWith("--")) {
        flags[name] = next;
        i++;
      } else flags[name] = "true";
    } else words.push(arg);
  }
  return { words, flags };
}

export class UsageError extends Error {}

export function required(flags: Record<string, string>, name: string): string {
  const value = flags[name];
  if (!value || value === "true") throw new UsageError(`--${name} is required`);
  return value;
}
