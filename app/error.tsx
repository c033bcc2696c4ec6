"use client";

import Link from "next/link";
import { useEffect } from "react";

/** An unexpected error while rendering a page: say so plainly, offer a retry, show the digest for support. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.warn("page error", error.digest ?? error.message);
  }, [error]);
  return (
    <main id="content" className="oops">
      <p className="code" aria-hidden="true">
        500
      </p>
      <h1>Something went wrong</h1>
      <p className="lead">
        The page could not be shown. Nothing you entered was saved twice; try again.
        {error.digest && (
          <>
            {" "}
            Reference: <code>{error.digest}</code>.
          </>
        )}
      </p>
      <div className="actions">
        <button type="button" onClick={reset}>
          Try again
        </button>
        <Link href="/">Home</Link>
      </div>
    </main>
  );
}
