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
        // No toggle and no forced mode: Scalar then follows the system's scheme, also when it changes
        // while the page is open, as the rest of the site does through its CSS variables.
        hideDarkModeToggle: true,
        authentication: { preferredSecurityScheme: "bearer" },
        onLoaded: () => {
          document.getElementById("docs-outline")?.setAttribute("hidden", "");
          mount.current?.setAttribute("data-loaded", "true");
        },
      }) as { destroy?: () => void };
    });
    // "/" opens the search, as on most documentation sites (Scalar itself only knows Ctrl/⌘ K).
    // On a phone the search sits in the sidebar behind the menu button: open the menu first.
    const slash = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const root = mount.current;
      if (!root) return;
      const search = () =>
        [...root.querySelectorAll(".sidebar-search-placeholder")]
          .map((placeholder) => placeholder.closest("button"))
          .find((button) => button && button.getClientRects().length > 0);
      const menu = [...root.querySelectorAll("button")].find((button) =>
        /open menu/i.test(`${button.getAttribute("aria-label") ?? ""} ${button.textContent ?? ""}`),
      );
      if (!search() && !menu) return;
      event.preventDefault();
      if (search()) {
        search()?.click();
        return;
      }
      menu?.click();
      requestAnimationFrame(() => requestAnimationFrame(() => search()?.click()));
    };
    // On a phone the search is inside Scalar's menu, which stays open over the section a result
    // opens: close it once a result is chosen (clicked, or Enter in the search dialog).
    const chosen = (event: Event) => {
      const target = event.target instanceof Element ? event.target : null;
      const picked =
        event.type === "click"
          ? target?.closest('[role="dialog"] [role="option"]')
          : (event as KeyboardEvent).key === "Enter" && target?.closest('[role="dialog"]');
      if (!picked) return;
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const close = [...(mount.current?.querySelectorAll("button") ?? [])].find(
            (button) =>
              /close menu/i.test(`${button.getAttribute("aria-label") ?? ""} ${button.textContent ?? ""}`) &&
              button.getClientRects().length > 0,
          );
          close?.click();
        }),
      );
    };
    // Code blocks of the guide's Markdown may scroll sideways: a keyboard must reach them too (WCAG
    // 2.1.1, axe's scrollable-region-focusable), as our own CodeBlock does. Scalar renders sections as
    // they come into view, so each new block is made focusable as it appears.
    const focusable = () => {
      for (const code of mount.current?.querySelectorAll<HTMLElement>(".markdown pre > code:not([tabindex])") ?? [])
        code.tabIndex = 0;
    };
    const blocks = new MutationObserver(focusable);
    if (mount.current) blocks.observe(mount.current, { childList: true, subtree: true });
    window.addEventListener("keydown", slash);
    document.addEventListener("click", chosen, true);
    document.addEventListener("keydown", chosen, true);
    return () => {
      cancelled = true;
      window.removeEventListener("keydown", slash);
      blocks.disconnect();
      document.removeEventListener("click", chosen, true);
      document.removeEventListener("keydown", chosen, true);
      app?.destroy?.();
    };
  }, [specUrl]);
  return <div ref={mount} id="api-reference" className="api-reference" />;
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}
