"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const PAGES = [
  { href: "/settings/tokens", label: "Tokens" },
  { href: "/settings/confirmations", label: "Confirmations" },
  { href: "/settings/connected-apps", label: "Connected apps" },
  { href: "/settings/activity", label: "Activity" },
  { href: "/settings/profile", label: "Profile" },
  { href: "/settings/blocks", label: "Blocks" },
  { href: "/settings/security", label: "Password & sessions" },
  { href: "/settings/webhooks", label: "Webhooks" },
  { href: "/settings/assistant", label: "Tool console" },
  { href: "/settings/account", label: "Account" },
] as const;

export function SettingsNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="settings-nav">
      <ul>
        {PAGES.map((page) => (
          <li key={page.href}>
            <Link href={page.href} aria-current={pathname === page.href ? "page" : undefined}>
              {page.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
