import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "@/components/docs/api-reference";
import { SiteHeader } from "@/components/site-header";
import { buildOpenApiDocument } from "@/lib/surfaces/openapi";
import { guideEntries, scalarSlug } from "@/lib/surfaces/openapi-guide";
import { type Json, tagsWithOperations, text } from "@/lib/web/openapi-view";
import { currentMember } from "@/lib/web/session";
import { capabilities } from "@/registry/capabilities";
import { KEEP_EVENTS_DAYS } from "@/registry/limits";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API reference · Personal Data Service" };

/**
 * The developer reference: Scalar renders the OpenAPI document (search, one section per operation,
 * "try it", code samples). Before and without JavaScript the page is this outline, rendered on the
 * server from the same document, with links to the sections Scalar opens.
 */
export default async function DocsPage() {
  const doc = buildOpenApiDocument() as Json;
  const member = await currentMember();
  const info = (doc.info ?? {}) as Json;
  const tags = tagsWithOperations(doc);
  const webhooks = Object.keys((doc.webhooks ?? {}) as Json);
  // The tools that have no REST route: each is an entry (a tag) of its own in the reference.
  const toolTags = capabilities.filter((capability) => !capability.http).map((capability) => capability.tool);
  return (
    <>
      <SiteHeader email={member?.email} />
      <div id="docs-outline" className="docs-outline">
        <main id="content">
          <h1>{text(info.title)}</h1>
          <p className="lead">
            {text(info.summary)} OpenAPI {text(doc.openapi)}: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
            Also: <Link href="/docs/connect">connect an assistant</Link>, <Link href="/docs/errors">error codes</Link>,{" "}
            <Link href="/docs/tools">tool catalog</Link>, the typed client in <code>clients/typescript</code>.
          </p>
          <noscript>
            <p>The interactive reference (search, try it, code samples) needs JavaScript; this outline does not.</p>
          </noscript>
          <nav aria-labelledby="outline-guide">
            <h2 id="outline-guide">Guide</h2>
            <ul className="outline-ops">
              {guideEntries().map((entry) => (
                <li key={entry.slug} id={`guide-${entry.slug}`}>
                  <a href={`#description/${entry.slug}`}>{entry.title}</a>
                </li>
              ))}
            </ul>
          </nav>
          {tags.map((tag) => (
            <section key={tag.name} aria-labelledby={`outline-${tag.name}`}>
              <h2 id={`outline-${tag.name}`}>
                <a href={`#tag/${tag.name}`}>{tag.name}</a>
              </h2>
              <ul className="outline-ops">
                {tag.operations.map((view) => (
                  <li key={`${view.method} ${view.path}`} id={`op-${text(view.op.operationId)}`}>
                    <a href={`#tag/${tag.name}/${view.method.toUpperCase()}${view.path}`}>
                      <span className={`method method-${view.method}`}>{view.method.toUpperCase()}</span>{" "}
                      <code>{view.path}</code> {text(view.op.summary)}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <section aria-labelledby="outline-tools">
            <h2 id="outline-tools">Tools without a REST route</h2>
            <ul className="outline-ops">
              {toolTags.map((name) => (
                <li key={name} id={`tool-${name}`}>
                  <a href={`#tag/${scalarSlug(name)}`}>
                    <code>{name}</code>
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <section id="webhooks" aria-labelledby="outline-webhooks">
            <h2 id="outline-webhooks">Webhook events</h2>
            <p>
              Register an endpoint with <code>POST /webhook-endpoints</code> (or on{" "}
              <Link href="/settings/webhooks">Settings → Webhooks</Link>); every event below is POSTed to it as{" "}
              <code>{"{id, type, created_at, sequence, data}"}</code>, signed, at least once. Each payload's schema is
              in the reference's Webhooks section.
            </p>
            <p>
              Every event is kept {KEEP_EVENTS_DAYS} days, whether or not an endpoint wanted it:{" "}
              <code>GET /events?after=</code> pulls the member's events in order, with the same ids and payloads, and{" "}
              <code>POST /webhook-endpoints/{"{id}"}/redeliver</code> sends an endpoint everything since a time again.
              <code>sequence</code> numbers each record's events, so a receiver can order updates that arrive out of
              order.
            </p>
            <ul className="outline-ops">
              {webhooks.map((type) => (
                <li key={type} id={`event-${type}`}>
                  <a href={`#webhook/${type}`}>
                    <code>{type}</code>
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </main>
      </div>
      <ApiReference specUrl="/api/v1/openapi.json" />
    </>
  );
}
