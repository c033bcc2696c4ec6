"use client";

import Link from "next/link";
import { useEffect } from "react";
import { ErrorNotice } from "@/components/error-notice";

/** An unexpected error while rendering a page: say so plainly, offer a retry, show the digest for support. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.warn("page error", error.digest ?? error.message);
  }, [error]);
  return (
    <ErrorNotice
      message="The page could not be shown. Nothing you entered was saved twice; try again."
      digest={error.digest}
      reset={reset}
      home={<Link href="/">Home</Link>}
    />
  );
}
