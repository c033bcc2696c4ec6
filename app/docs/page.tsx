import type { Metadata } from "next";
import { headers } from "next/headers";
import { Markdown } from "@/components/docs/markdown";
import { OperationCard } from "@/components/docs/operation-card";
import { SchemaTable } from "@/components/docs/schema-table";
import { ToolCard } from "@/components/docs/tool-card";
import { SiteHeader } from "@/components/site-header";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { asList, type Json, refName, successResponse, tagsWithOperations, text } from "@/lib/web/openapi-view";
import { currentMember } from "@/lib/web/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference · Personal Data Service" };

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

// The error table's rows become the targets of every problem's `type` (/docs#error-<code>).
const errorRowId = (cells: string[]) => {
  const code = /^`([a-z_]+)`$/.exec(cells[1] ?? "")?.[1];
  return code ? `error-${code}` : undefined;
};

function siteUrlOf(requestHeaders: Headers): string {
  const host = requestHeaders.get("x-forwarded-host") ?? requestHeaders.get("host") ?? "localhost:3000";
  const local = host.startsWith("localhost") || host.startsWith("127.");
  return `${requestHeaders.get("x-forwarded-proto") ?? (local ? "http" : "https")}://${host}`;
}

/** The developer reference: the OpenAPI document rendered by our own components. Public. */
export default async function DocsPage() {
  const doc = buildOpenApiDocument() as Json;
  const siteUrl = siteUrlOf(await headers());
  const member = await currentMember();
  const info = (doc.info ?? {}) as Json;
  const description = text(info.description);
  const overviewTitles = [...description.matchAll(/^## (.+)$/gm)].map((match) => match[1] ?? "");
  const tags = tagsWithOperations(doc);
  const tools = asList(doc["x-tools"]) as Json[];
  const schemas = Object.entries(((doc.components ?? {}) as Json).schemas ?? {}) as [string, Json][];
  const webhooks = Object.entries((doc.webhooks ?? {}) as Json) as [string, Json][];
  return (
    <>
      <SiteHeader email={member?.email} />
      <div className="docs">
        <nav className="docs-toc" aria-label="Reference contents">
          <ul>
            <li>
              <a href="#start">Getting started</a>
            </li>
            {overviewTitles.map((title) => (
              <li key={title}>
                <a href={`#${slug(title)}`}>{title}</a>
              </li>
            ))}
            <li>
              <a href="#resources">Resources and operations</a>
              <ul>
                {tags.map((tag) => (
                  <li key={tag.name}>
                    <a href={`#resource-${tag.name}`}>{tag.name}</a>
                  </li>
                ))}
              </ul>
            </li>
            <li>
              <a href="#webhooks">Webhook events</a>
            </li>
            <li>
              <a href="#tools">Tool catalog</a>
            </li>
            <li>
              <a href="#schemas">Schemas</a>
            </li>
          </ul>
        </nav>
        <main id="content">
          <h1>{text(info.title)}</h1>
          <p className="lead">
            {text(info.summary)} Version {text(info.version)}, OpenAPI {text(doc.openapi)}:{" "}
            <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          </p>
          <section id="start" aria-labelledby="start-title">
            <h2 id="start-title">Getting started</h2>
            <ol>
              <li>
                <a href="/sign-up">Create an account</a> and make a token on{" "}
                <a href="/settings/tokens">Settings → Tokens</a>.
              </li>
              <li>Call the API with it:</li>
            </ol>
            <pre>
              <code>{`export PDS_TOKEN=pds_…\ncurl "${siteUrl}/api/v1/collections" -H "Authorization: Bearer $PDS_TOKEN"`}</code>
            </pre>
          </section>
          <Markdown source={description} headingLevel={2} headingId={slug} rowId={errorRowId} />
          <h2 id="resources">Resources and operations</h2>
          {tags.map((tag) => {
            const record = tag.operations
              .map((view) => successResponse(view.op))
              .map((success) => (success ? refName(success.schema) : ""))
              .find((name) => name && !name.endsWith("Page"));
            return (
              <section
                key={tag.name}
                id={`resource-${tag.name}`}
                className="resource"
                aria-labelledby={`resource-${tag.name}-title`}
              >
                <h3 id={`resource-${tag.name}-title`}>{tag.name}</h3>
                <Markdown source={tag.description} headingLevel={4} />
                {record && (
                  <>
                    <h4>Fields of {record}</h4>
                    <SchemaTable
                      doc={doc}
                      schema={{ $ref: `#/components/schemas/${record}` }}
                      caption={`Fields of ${record}`}
                    />
                  </>
                )}
                {tag.operations.map((view) => (
                  <OperationCard key={`${view.method} ${view.path}`} doc={doc} view={view} siteUrl={siteUrl} />
                ))}
              </section>
            );
          })}
          <section id="webhooks" aria-labelledby="webhooks-title">
            <h2 id="webhooks-title">Webhook events</h2>
            <p>
              Register an endpoint with <code>POST /webhook-endpoints</code> (or on{" "}
              <a href="/settings/webhooks">Settings → Webhooks</a>); every event below is POSTed to it as{" "}
              <code>{"{id, type, created_at, data}"}</code>, signed, at least once.
            </p>
            {webhooks.map(([type, item]) => {
              const post = (item.post ?? {}) as Json;
              const body = (((post.requestBody as Json)?.content as Json)?.["application/json"] ?? {}) as Json;
              return (
                <section key={type} id={`event-${type}`} className="schema">
                  <h3>{type}</h3>
                  <p>{text(post.description)}</p>
                  <SchemaTable doc={doc} schema={body.schema as Json} caption={`Payload of ${type}`} />
                </section>
              );
            })}
          </section>
          <section id="tools" aria-labelledby="tools-title">
            <h2 id="tools-title">Tool catalog</h2>
            <p>
              The same capabilities as tools for an assistant: <code>GET /api/agent/tools</code> lists those a
              token&apos;s scopes allow, <code>POST /api/agent/invoke</code> runs one, and <code>/api/mcp</code> serves
              them over MCP. Browser tools answer a directive that the page carries out; try them in the{" "}
              <a href="/settings/assistant">tool console</a>.
            </p>
            {tools.map((tool) => (
              <ToolCard key={text(tool.name)} doc={doc} tool={tool} siteUrl={siteUrl} />
            ))}
          </section>
          <section id="schemas" aria-labelledby="schemas-title">
            <h2 id="schemas-title">Schemas</h2>
            {schemas.map(([name, schema]) => (
              <section key={name} id={`schema-${name}`} className="schema">
                <h3>{name}</h3>
                {text(schema.description) && <p>{text(schema.description)}</p>}
                <SchemaTable doc={doc} schema={schema} caption={`Schema ${name}`} />
              </section>
            ))}
          </section>
        </main>
      </div>
    </>
  );
}
