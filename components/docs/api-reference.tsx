"use client";

import "@scalar/api-reference/style.css";
import { useEffect, useRef } from "react";

/**
 * Scalar's reference, bundled from the package (no CDN) and mounted in the browser over the
 * server-rendered outline. Nothing leaves the site: telemetry, Scalar's fonts, its AI agent and MCP
 * features are off, and only our own x-codeSamples are shown (curl, the typed client, Python). The
 * token pasted into "try it" lives in memory only (persistAuth: false): a reload forgets it.
 */
export function ApiReference({ specUrl }: { specUrl: string }) {
  const mount = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // Problems used to point at /docs#error-<code>; a fragment never reaches the server, so redirect here.
    const legacy = /^#error-([a-z_]+)$/.exec(window.location.hash);
    if (legacy) {
      window.location.replace(`/docs/errors#${legacy[1]}`);
      return;
    }
    let app: { destroy?: () => void } | undefined;
    let cancelled = false;
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    void import("@scalar/api-reference").then(({ createApiReference }) => {
      if (cancelled || !mount.current) return;
      app = createApiReference(mount.current, {
        url: specUrl,
        baseServerURL: window.location.origin,
        telemetry: false,
        withDefaultFonts: false,
        persistAuth: false,
        hiddenClients: true,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: "never",
        documentDownloadType: "json",
        hideDarkModeToggle: true,
        forceDarkModeState: dark.matches ? "dark" : "light",
        authentication: { preferredSecurityScheme: "bearer" },
        onLoaded: () => {
          document.getElementById("docs-outline")?.setAttribute("hidden", "");
          mount.current?.setAttribute("data-loaded", "true");
        },
      }) as { destroy?: () => void };
    });
    return () => {
      cancelled = true;
      app?.destroy?.();
    };
  }, [specUrl]);
  return <div ref={mount} id="api-reference" className="api-reference" />;
}
