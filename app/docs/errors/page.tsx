import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { errorCatalog } from "@/lib/surfaces/error-catalog";
import { currentMember } from "@/lib/web/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Error codes · Personal Data Service" };

/** Every problem's `type` points here (/docs/errors#<code>); generated from the same cases as the OpenAPI responses. */
export default async function ErrorsPage() {
  const member = await currentMember();
  const entries = errorCatalog();
  return (
    <>
      <SiteHeader email={member?.email} />
      <main id="content" className="page">
        <h1>Error codes</h1>
        <p className="lead">
          Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code> (a link to its row
          here), <code>title</code>, <code>status</code>, <code>detail</code>, <code>code</code> and{" "}
          <code>request_id</code>. A 422 adds <code>errors[]</code> with JSON Pointers into the input; a refused write
          adds the store&apos;s <code>reason</code>. Back to the <Link href="/docs">reference</Link>.
        </p>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Error codes</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">code</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.code} id={entry.code}>
                  <td>{entry.status}</td>
                  <td>
                    <a href={`#${entry.code}`}>
                      <code>{entry.code}</code>
                    </a>
                    <span className="hint">{entry.title}</span>
                  </td>
                  <td>
                    <ul className="plain">
                      {entry.when.map((when) => (
                        <li key={when}>{when}</li>
                      ))}
                    </ul>
                    {entry.operations > 0 && (
                      <span className="hint">
                        Answered by {entry.operations} operation{entry.operations === 1 ? "" : "s"}.
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </main>
    </>
  );
}
