import type { Metadata } from "next";
import { AccountDeleteForm } from "@/components/account-delete-form";
import { requireMember } from "@/lib/web/session";
import { resources } from "@/registry/index";
import { listInProse, proseName } from "@/registry/resource-prose";
import { deleteAccountAction } from "./actions";

export const metadata: Metadata = { title: "Account · Personal Data Service" };

// Named from the registry, so a new resource is listed here without an edit.
const YOURS = resources.map(proseName);

export default async function AccountPage() {
  const member = await requireMember();
  return (
    <>
      <h1>Account</h1>
      <p className="lead">
        Signed in as <strong>{member.email}</strong> (<code>@{member.handle}</code>).
      </p>
      <section className="card stack" aria-labelledby="export-heading">
        <h2 id="export-heading">Export your data</h2>
        <p>
          A ZIP archive with one JSON document per resource you own (
          {listInProse([...YOURS, "token metadata", "uploads"])}) and <code>manifest.json</code>, which lists your
          uploaded media with download links valid for 24 hours. The same archive is available to integrators at{" "}
          <code>GET /api/v1/export</code>: a token gets the documents its read scopes allow, and the manifest lists what
          they left out with the scope each needs.
        </p>
        <form method="post" action="/settings/account/export">
          <button type="submit">Download export (.zip)</button>
        </form>
      </section>
      <section className="card stack danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete your account</h2>
        <p>
          This deletes at once and for good: your {YOURS.join(", ")}, everything that names you (also follows of members
          following you, and every message you sent or received, from the other member's conversation too), your
          uploads, tokens (they stop working immediately) and sessions. Shared catalog entries stay; they do not name
          you. Download an export first if you want to keep anything.
        </p>
        <AccountDeleteForm action={deleteAccountAction} />
      </section>
    </>
  );
}
