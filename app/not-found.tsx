import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = { title: "Not found · Personal Data Service" };

/** Any page that does not exist (API paths answer problem+json 404 instead). */
export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="content" className="oops">
        <p className="code" aria-hidden="true">
          404
        </p>
        <h1>This page does not exist</h1>
        <p className="lead">The address may be mistyped, or the page has moved.</p>
        <div className="actions">
          <Link href="/" className="button-link">
            Home
          </Link>
          <Link href="/docs">API reference</Link>
          <Link href="/settings/tokens">Settings</Link>
        </div>
      </main>
    </>
  );
}
