/**
 * Every page of the site, for the accessibility sweep (e2e/a11y.spec.ts). Add a page here when you
 * add one; `member` pages are visited signed in. `ready` is a selector to wait for before checking
 * (a page that finishes rendering in the browser).
 */
export interface SitePage {
  name: string;
  path: string;
  member?: boolean;
  ready?: string;
  /** The status the page answers (404 for the not-found page). */
  status?: number;
}

export const PAGES: readonly SitePage[] = [
  { name: "home", path: "/" },
  { name: "sign-in", path: "/sign-in" },
  { name: "sign-up", path: "/sign-up" },
  { name: "docs", path: "/docs", ready: "#api-reference[data-loaded]" },
  { name: "docs-errors", path: "/docs/errors" },
  { name: "docs-tools", path: "/docs/tools" },
  { name: "docs-connect", path: "/docs/connect" },
  { name: "not-found", path: "/no-such-page", status: 404 },
  { name: "settings-tokens", path: "/settings/tokens", member: true },
  { name: "settings-confirmations", path: "/settings/confirmations", member: true },
  { name: "settings-connected-apps", path: "/settings/connected-apps", member: true },
  { name: "settings-profile", path: "/settings/profile", member: true },
  { name: "settings-assistant", path: "/settings/assistant", member: true },
  { name: "settings-blocks", path: "/settings/blocks", member: true },
  { name: "settings-webhooks", path: "/settings/webhooks", member: true },
  { name: "settings-account", path: "/settings/account", member: true },
];

export const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

export const SCHEMES = ["light", "dark"] as const;
