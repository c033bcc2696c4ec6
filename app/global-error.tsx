"use client";

import "./globals.css";
import { ErrorNotice } from "@/components/error-notice";

/** When the root layout itself fails: a complete page of its own, in the site's style. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        {/* A plain link: the root layout failed, so home is a full page load. */}
        <ErrorNotice
          message="The service could not show this page."
          digest={error.digest}
          reset={reset}
          home={<a href="/">Home</a>}
        />
      </body>
    </html>
  );
}
