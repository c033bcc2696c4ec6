import { asList, type Json, text } from "@/lib/web/openapi-view";
import { CodeBlock } from "../code-block";
import { SchemaTable } from "./schema-table";

/** One tool of the catalog: name, scope, hints and both schemas, as an assistant sees them. */
export function ToolCard({ doc, tool, siteUrl }: { doc: Json; tool: Json; siteUrl: string }) {
  const name = text(tool.name);
  const hints = (tool.annotations ?? {}) as Json;
  const input = (tool.inputSchema ?? {}) as Json;
  const example = `curl -X POST "${siteUrl}/api/agent/invoke" \\\n  -H "Authorization: Bearer $PDS_TOKEN" \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify({ tool: name, input: {} })}'`;
  return (
    <article className="operation" id={`tool-${name}`} aria-labelledby={`tool-${name}-title`}>
      <h4 id={`tool-${name}-title`}>
        <span className={`method method-tool`}>{tool.kind === "directive" ? "BROWSER" : "TOOL"}</span>
        <code>{name}</code>
      </h4>
      <ul className="facts">
        <li>
          Scope:{" "}
          {asList(tool.scopes).map((scope) => (
            <code key={text(scope)}>{text(scope)}</code>
          ))}
        </li>
        {(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
          .filter((hint) => hints[hint] === true)
          .map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
      </ul>
      <p>{text(tool.description)}</p>
      <h5>Input</h5>
      <SchemaTable doc={doc} schema={input} caption={`Input of ${name}`} />
      <details>
        <summary>JSON Schemas and an example call</summary>
        <h5>inputSchema</h5>
        <CodeBlock label={`inputSchema of ${name}`}>{JSON.stringify(input, null, 2)}</CodeBlock>
        <h5>outputSchema</h5>
        <CodeBlock label={`outputSchema of ${name}`}>{JSON.stringify(tool.outputSchema ?? {}, null, 2)}</CodeBlock>
        <CodeBlock label={`Example call of ${name}`}>{example}</CodeBlock>
      </details>
    </article>
  );
}
