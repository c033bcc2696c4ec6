import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { currentMember } from "@/lib/web/session";
import { MEMBER_DATA_IN_PROSE } from "@/registry/resource-prose";

export const dynamic = "force-dynamic";

export default async function Home() {
  const member = await currentMember();
  return (
    <>
      <SiteHeader email={member?.email} />
      <main id="content">
        <h1>Personal Data Service</h1>
        <p className="lead">
          Keep favorites in collections — music, film, books, articles, places, products — and the rest of your data:{" "}
          {MEMBER_DATA_IN_PROSE}. Reach them over a versioned JSON API at <code>/api/v1</code>, or let an assistant use
          the same capabilities as tools at <code>/api/agent</code> and <code>/api/mcp</code>.
        </p>
        <div className="row">
          <section className="card grow">
            <h2>Get a token</h2>
            <p>
              {member ? (
                <Link href="/settings/tokens">Create a personal access token</Link>
              ) : (
                <>
                  <Link href="/sign-up">Sign up</Link> or <Link href="/sign-in">sign in</Link>, then create a personal
                  access token
                </>
              )}{" "}
              with just the scopes your integration needs.
            </p>
          </section>
          <section className="card grow">
            <h2>Read the reference</h2>
            <p>
              <Link href="/docs">Every resource, operation, scope, error and tool</Link>, generated from the same
              registry that serves the API.
            </p>
          </section>
        </div>
      </main>
    </>
  );
}
