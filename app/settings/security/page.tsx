import type { Metadata } from "next";
import { PasswordForm } from "@/components/password-form";
import { SubmitButton } from "@/components/submit-button";
import { listSessions } from "@/lib/auth/sessions";
import { authBackend } from "@/lib/web/auth-context";
import { formatDateTime } from "@/lib/web/format";
import { requireMember } from "@/lib/web/session";
import { changePasswordAction, endSessionAction } from "./actions";

export const metadata: Metadata = { title: "Password & sessions · Personal Data Service" };

export default async function SecurityPage() {
  const member = await requireMember();
  const sessions = await listSessions(member.id);
  const supabase = authBackend().mode === "supabase";
  return (
    <>
      <h1>Password &amp; sessions</h1>
      <p className="lead">
        {supabase
          ? "You sign in with your account on the product (Supabase Auth)."
          : "Changing the password signs out every other browser."}
      </p>
      <section aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <PasswordForm action={changePasswordAction} />
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Signed-in browsers</h2>
        <ul className="list">
          {sessions.map((session) => (
            <li key={session.id} data-testid="session">
              <span>
                <strong>{session.user_agent || "Unknown browser"}</strong>
                {session.id === member.sessionId && <span className="muted"> · this browser</span>}
                <span className="muted small">
                  {" "}
                  · since {formatDateTime(session.created_at)} · last seen {formatDateTime(session.last_seen_at)}
                </span>
              </span>
              {session.id !== member.sessionId && (
                <form action={endSessionAction}>
                  <input type="hidden" name="id" value={session.id} />
                  <SubmitButton variant="quiet">End session</SubmitButton>
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
