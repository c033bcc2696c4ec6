"use client";

import "./globals.css";

/** When the root layout itself fails: a complete page of its own, in the site's style. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main id="content" className="oops">
          <p className="code" aria-hidden="true">
            500
          </p>
          <h1>Something went wrong</h1>
          <p className="lead">
            The service could not show this page.
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
            <a href="/">Home</a>
          </div>
        </main>
      </body>
    </html>
  );
}
