"use client";

import { useState } from "react";

/** Copies text to the clipboard and says so; selecting the field by hand still works without it. */
export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span role="status" className="muted">
        {copied === "done" ? "Copied." : copied === "failed" ? "Copy failed: select the text and copy it." : ""}
      </span>
    </>
  );
}
