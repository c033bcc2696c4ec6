import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ToolCard } from "@/components/docs/tool-card";
import { SiteHeader } from "@/components/site-header";
import { requestOrigin } from "@/lib/http/origin";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { asList, type Json, text } from "@/lib/web/openapi-view";
import { currentMember } from "@/lib/web/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Tool catalog · Personal Data Service" };

/** The tool catalog (x-tools of the OpenAPI document), which Scalar does not render: one card per tool. */
export default async function ToolsPage() {
  const doc = buildOpenApiDocument() as Json;
  const siteUrl = requestOrigin(await headers());
  const member = await currentMember();
  const tools = asList(doc["x-tools"]) as Json[];
  return (
    <>
      <SiteHeader email={member?.email} />
      <main id="content" className="page">
        <h1>Tool catalog</h1>
        <p className="lead">
          The same capabilities as tools for an assistant: <code>GET /api/agent/tools</code> lists those a token&apos;s
          scopes allow, <code>POST /api/agent/invoke</code> runs one, and <code>/api/mcp</code> serves them over MCP.
          Browser tools answer a directive that the page carries out; try them in the{" "}
          <Link href="/settings/assistant">tool console</Link>. Back to the <Link href="/docs">reference</Link>.
        </p>
        {tools.map((tool) => (
          <ToolCard key={text(tool.name)} doc={doc} tool={tool} siteUrl={siteUrl} />
        ))}
      </main>
    </>
  );
}
