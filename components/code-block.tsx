/**
 * A code block a keyboard can reach: a <pre> that may scroll sideways must take focus (WCAG 2.1.1,
 * axe's scrollable-region-focusable); the section's label tells a screen reader what it holds.
 */
export function CodeBlock({ children, label }: { children: string; label: string }) {
  return (
    <section aria-label={label} className="code-block">
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to be scrolled by keyboard. */}
      <pre tabIndex={0}>
        <code>{children}</code>
      </pre>
    </section>
  );
}
