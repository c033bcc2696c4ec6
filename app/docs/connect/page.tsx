import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { oauthUrls } from "@/lib/http/oauth-urls";
import { currentMember } from "@/lib/web/session";
import { SCOPES } from "@/registry/scopes";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an assistant · Personal Data Service" };

/** How a member adds the service to an MCP client by URL, and what the consent page means. */
export default async function ConnectPage() {
  const member = await currentMember();
  const urls = oauthUrls();
  const mcp = urls.resource("mcp");
  const config = JSON.stringify({ mcpServers: { "personal-data": { type: "http", url: mcp } } }, null, 2);
  return (
    <>
      <SiteHeader email={member?.email} />
      <main id="content" className="page">
        <h1>Connect an assistant</h1>
        <p className="lead">
          Assistants and IDEs that speak MCP connect with just the server URL. They sign you in here, you choose what
          they may do, and you can revoke them at any time. Back to the <Link href="/docs">reference</Link>.
        </p>
        <h2>1. Give the assistant the URL</h2>
        <p>
          The MCP server is <code data-testid="mcp-url">{mcp}</code> (Streamable HTTP). In Claude (desktop or web), add
          it as a custom connector; in VS Code run “MCP: Add Server” and pick HTTP; in Cursor, Claude Code and other
          clients that read an <code>mcpServers</code> file:
        </p>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard */}
        <pre tabIndex={0}>
          <code>{config}</code>
        </pre>
        <p>
          No token goes in the file: the client finds the sign-in by itself (OAuth 2.1, the MCP authorization
          specification). A client without OAuth support takes a{" "}
          <Link href="/settings/tokens">personal access token</Link> in an <code>Authorization: Bearer</code> header
          instead.
        </p>
        <h2>2. Approve on the consent page</h2>
        <p>The assistant opens a page of this site in your browser. Sign in if asked; the page then shows:</p>
        <ul>
          <li>
            <strong>Which app</strong> asks, with its name and logo as it describes itself, and the address your browser
            returns to afterwards (for a desktop app, <code>127.0.0.1</code> or <code>localhost</code>: the app itself).
            An app that identifies itself by a web address (a client metadata document) shows that address.
          </li>
          <li>
            <strong>The scopes</strong> it asked for, all checked (an app that names none asks for every scope). Uncheck
            what it should not have: it can never get more than you leave checked. <code>:write</code> does not include{" "}
            <code>:read</code>.
          </li>
          <li>
            <strong>Collections.</strong> Leave them unchecked to allow every collection, or check some to limit the app
            to those: other collections, and their items, stay invisible to it.
          </li>
        </ul>
        <p>
          <strong>Approve</strong> sends the app back with a one-time code it exchanges for its tokens;{" "}
          <strong>Deny</strong> tells it you declined. Nothing is shared until you approve.
        </p>
        <h2>3. Use and revoke</h2>
        <p>
          The app sees only the tools its scopes allow and acts as you, under the same rules as your tokens. A tool
          outside them is refused with <code>insufficient_scope</code>, naming the scopes it needs, so the app can ask
          you again. Every app you approved is listed under{" "}
          <Link href="/settings/connected-apps">Settings → Connected apps</Link> with its scopes, collections and last
          use; revoking it ends its access at once.
        </p>
        <h2>For developers</h2>
        <ul>
          <li>
            Protected resource metadata: <code>{urls.resourceMetadata("mcp")}</code> (also for <code>/api/v1</code> and{" "}
            <code>/api/agent</code>; none at the root, since the bare origin is not a resource a token is issued for);
            authorization server metadata: <code>{`${urls.issuer}/.well-known/oauth-authorization-server`}</code>.
          </li>
          <li>
            Authorization code with PKCE S256 only; <code>resource</code> (RFC 8707) is required and binds the token to
            that one API; the response carries <code>iss</code> (RFC 9207). Public clients: a client ID metadata
            document (an https <code>client_id</code>) or dynamic registration at <code>{urls.register}</code>.
          </li>
          <li>
            Access tokens last an hour; refresh tokens rotate on every use, and a reused one revokes the whole grant. A
            refresh may send <code>scope</code> to narrow the new access token to some of the approved scopes (the
            answer’s <code>scope</code> says which); the approval itself keeps them all, so a refresh without{" "}
            <code>scope</code> gets every approved scope again. Asking for more is <code>invalid_scope</code>.
            Revocation (RFC 7009): <code>{urls.revoke}</code>.
          </li>
          <li>
            Scopes: {SCOPES.map((scope) => scope).join(", ")} (and <code>offline_access</code>, accepted; every client
            gets a refresh token). An authorization request without <code>scope</code> (or with an empty one) asks for
            every scope; one whose <code>scope</code> names only <code>offline_access</code> asks for none of them and
            is refused with <code>invalid_scope</code>. The consent page checks only the scopes asked for.
          </li>
        </ul>
      </main>
    </>
  );
}
