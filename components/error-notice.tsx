import type { ReactNode } from "react";

/**
 * The body of both error boundaries (app/error.tsx, app/global-error.tsx): say so plainly, offer a
 * retry, show the digest for support. Each passes its own sentence and its own way home.
 */
export function ErrorNotice({
  message,
  digest,
  reset,
  home,
}: {
  message: string;
  digest?: string;
  reset: () => void;
  home: ReactNode;
}) {
  return (
    <main id="content" className="oops">
      <p className="code" aria-hidden="true">
        500
      </p>
      <h1>Something went wrong</h1>
      <p className="lead">
        {message}
        {digest && (
          <>
            {" "}
            Reference: <code>{digest}</code>.
          </>
        )}
      </p>
      <div className="actions">
        <button type="button" onClick={reset}>
          Try again
        </button>
        {home}
      </div>
    </main>
  );
}
