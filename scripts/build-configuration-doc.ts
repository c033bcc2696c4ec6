// Writes docs/configuration.md from the environment schema (lib/config/env.ts): every variable with its
// type, default and meaning, by section, then the notes below. Run by npm run generate (--check: stale).
import fs from "node:fs";
import { envSchema, SECTIONS } from "../lib/config/env.ts";

const FILE = "docs/configuration.md";

interface Meta {
  section: keyof typeof SECTIONS;
  description: string;
  type: string;
  shown?: string;
}

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The default as parsing an unset variable gives it, unless the schema words it itself. */
function shownDefault(schema: (typeof envSchema.shape)[keyof typeof envSchema.shape], meta: Meta): string {
  if (meta.shown) return meta.shown;
  const value = schema.parse(undefined);
  if (value === undefined || value === "" || value === false) return "—";
  return `\`${String(value)}\``;
}

const rows = new Map<string, string[]>();
for (const [name, schema] of Object.entries(envSchema.shape)) {
  const meta = schema.meta() as Meta | undefined;
  if (!meta?.section || !meta.description)
    throw new Error(`${name} has no section or description in lib/config/env.ts`);
  const row = `| \`${name}\` | ${cell(meta.type)} | ${cell(shownDefault(schema, meta))} | ${cell(meta.description)} |`;
  rows.set(meta.section, [...(rows.get(meta.section) ?? []), row]);
}

const tables = Object.entries(SECTIONS)
  .filter(([section]) => rows.has(section))
  .map(([section, title]) =>
    [
      `## ${title}`,
      "",
      "| Variable | Type | Default | Meaning |",
      "|---|---|---|---|",
      ...(rows.get(section) ?? []),
    ].join("\n"),
  )
  .join("\n\n");

const NOTES = `## Migrations

Migrations in \`supabase/migrations/\` are applied automatically on first use, under an advisory lock, and recorded
in Supabase's own ledger (\`supabase_migrations.schema_migrations\`), so \`supabase db push\` agrees with them. The
migrator applies every name the Supabase CLI applies (\`<digits>_<name>.sql\`) and refuses to start, naming the file,
on any other \`.sql\` in the folder (a skipped migration would exist on Supabase and not here).

## The client address

The sign-in form of the settings pages is throttled per email + client address (and, more loosely,
per email alone), so the client address must be one a client cannot choose:

- **\`npm start\` and the Docker image** (\`server.ts\`): the address of the TCP connection, unless
  \`TRUSTED_PROXY_HOPS\` is set. Each proxy appends the address it received the request from to
  \`X-Forwarded-For\`, so everything to the left of the entries your own proxies wrote is the client's own
  word: with one proxy (nginx, Caddy, a cloud load balancer) set \`TRUSTED_PROXY_HOPS=1\`, with a CDN in front
  of a load balancer \`2\`. Set it only when the server's port is reachable through those proxies alone:
  a client that can reach the port directly can write any \`X-Forwarded-For\` it likes. A port on an entry
  (\`203.0.113.7:5123\`, \`[2001:db8::1]:443\`) is ignored; an entry that is not an IP address falls back to the
  connection's address.
- **Vercel** (\`VERCEL=1\`, set by the platform): Vercel's own \`X-Vercel-Forwarded-For\`, which its edge writes
  and a client cannot set. \`TRUSTED_PROXY_HOPS\` does not apply.
- **\`next dev\` / \`next start\`**: no address a client could not forge reaches the page, so every client counts
  as one ("unknown"): sign-in is throttled per email only. Production runs \`server.ts\`.

With \`TRUSTED_PROXY_HOPS=0\` a proxy that rewrites \`Host\` (nginx's default \`proxy_set_header Host
$proxy_host\`) and passes the public name in \`X-Forwarded-Host\` no longer has it believed, and the settings
forms refuse every post as cross-site: set \`TRUSTED_PROXY_HOPS\`, or have the proxy pass \`Host\` through
(\`proxy_set_header Host $host\`).
`;

fs.writeFileSync(
  FILE,
  `<!-- Generated from lib/config/env.ts by scripts/build-configuration-doc.ts (npm run generate); do not edit. -->
# Configuration

Every setting is an environment variable; all are optional on the embedded default. The code reads them in one
place, the schema in \`lib/config/env.ts\` (biome's \`noProcessEnv\` refuses a read anywhere else), and this page is
generated from it.

${tables}

${NOTES}`,
);
console.log(`wrote ${FILE}`);
