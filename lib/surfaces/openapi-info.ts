import { EXPORT_SECTIONS } from "../../registry/export-sections.ts";
import { operations, resources } from "../../registry/index.ts";
import { guideEntries } from "./openapi-guide.ts";

/**
 * The reference's prose, generated from the registry so the decisions it states cannot drift: the
 * guide entries (lib/surfaces/openapi-guide.ts), then export and every design decision. Each "## "
 * heading is an entry of Scalar's navigation and search.
 */
export function documentDescription(): string {
  return [
    ...guideEntries().flatMap((entry) => [`## ${entry.title}`, entry.markdown, ""]),
    "## Export",
    "`GET /export` answers what the token's read scopes allow; any one read scope lets it run, and `manifest.json` lists in `omitted` each part left out with the scope that would include it. A token without any read scope is 403 `insufficient_scope`.",
    "",
    "| Document | Part | Read scope |",
    "|---|---|---|",
    ...EXPORT_SECTIONS.map(
      (s) => `| \`${s.file}\` | ${s.purpose ? `uploads for ${s.purpose}` : s.resource} | \`${s.scope}\` |`,
    ),
    "",
    "## Design decisions",
    ...resources.flatMap((resource) => (resource.rules ?? []).map((rule) => `- **${resource.name}**: ${rule}`)),
    ...operations.flatMap((operation) => (operation.rules ?? []).map((rule) => `- **${operation.name}**: ${rule}`)),
  ].join("\n");
}

export function tagDescription(resource: (typeof resources)[number]): string {
  const lines = [resource.description];
  if (resource.rules?.length) lines.push("", ...resource.rules.map((rule) => `- ${rule}`));
  if (resource.events?.length)
    lines.push("", `Events (for webhooks, declared): ${resource.events.map((e) => `\`${e}\``).join(", ")}.`);
  return lines.join("\n");
}
