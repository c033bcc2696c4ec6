import Link from "next/link";
import { signOutAction } from "@/lib/web/sign-out-action";

/** The bar on every page we render: where you are, the reference, and your account. */
export function SiteHeader({ email }: { email?: string }) {
  return (
    <header className="site-header">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <nav aria-label="Site" className="site-nav">
        <Link href="/" className="brand">
          Personal Data Service
        </Link>
        <Link href="/docs">Reference</Link>
        {email ? (
          <>
            <Link href="/settings/tokens">Settings</Link>
            <form action={signOutAction} className="sign-out">
              <span className="muted who" title={email}>
                {email}
              </span>
              <button type="submit" className="quiet">
                Sign out
              </button>
            </form>
          </>
        ) : (
          <>
            <Link href="/sign-in">Sign in</Link>
            <Link href="/sign-up" className="button-link">
              Sign up
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}
