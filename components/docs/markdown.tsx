import type { ReactNode } from "react";

/**
 * The small Markdown subset the OpenAPI descriptions use — headings, paragraphs, bullet lists,
 * pipe tables, `code`, **bold** and [links](…) — rendered as React elements, never as raw HTML.
 */
interface Props {
  source: string;
  /** Heading level that "## " maps to. */
  headingLevel?: 2 | 3 | 4;
  /** An id for a table row from its cells (the error table's anchors). */
  rowId?: (cells: string[]) => string | undefined;
  /** An id for a heading from its text. */
  headingId?: (title: string) => string | undefined;
}

export function Markdown({ source, headingLevel = 3, rowId, headingId }: Props) {
  const blocks: ReactNode[] = [];
  const lines = source.split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (!line.trim()) {
      i++;
    } else if (/^#{1,4} /.test(line)) {
      const title = line.replace(/^#+ /, "");
      const depth = Math.min(6, headingLevel + Math.max(0, (line.match(/^#+/)?.[0].length ?? 2) - 2));
      const Tag = `h${depth}` as "h2";
      blocks.push(
        <Tag key={i} id={headingId?.(title)}>
          {inline(title)}
        </Tag>,
      );
      i++;
    } else if (line.startsWith("|")) {
      const rows: string[][] = [];
      while (lines[i]?.startsWith("|")) {
        const cells = (lines[i] ?? "")
          .replace(/^\||\|$/g, "")
          .split("|")
          .map((cell) => cell.trim());
        if (!cells.every((cell) => /^-+$/.test(cell))) rows.push(cells);
        i++;
      }
      const [head = [], ...body] = rows;
      blocks.push(
        <div className="table-wrap" key={i}>
          <table>
            <thead>
              <tr>
                {head.map((cell) => (
                  <th scope="col" key={cell}>
                    {inline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {body.map((cells) => (
                <tr key={cells.join("|")} id={rowId?.(cells)}>
                  {cells.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells have no identity beyond their column
                    <td key={index}>{inline(cell)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
    } else if (/^\s*- /.test(line)) {
      const items: string[] = [];
      while (/^\s*- /.test(lines[i] ?? "")) items.push((lines[i++] ?? "").replace(/^\s*- /, ""));
      blocks.push(
        <ul key={i}>
          {items.map((item) => (
            <li key={item}>{inline(item)}</li>
          ))}
        </ul>,
      );
    } else {
      const paragraph: string[] = [];
      while (lines[i]?.trim() && !/^(#{1,4} |\||\s*- )/.test(lines[i] ?? "")) paragraph.push(lines[i++] ?? "");
      blocks.push(<p key={i}>{inline(paragraph.join(" "))}</p>);
    }
  }
  return <>{blocks}</>;
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;

export function inline(source: string): ReactNode[] {
  return source.split(INLINE).map((part, index) => {
    const key = `${index}:${part}`;
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1)
      return <code key={key}>{part.slice(1, -1)}</code>;
    if (part.startsWith("**") && part.endsWith("**")) return <strong key={key}>{part.slice(2, -2)}</strong>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = link[2] ?? "";
      // Only our own anchors and http(s) links become links; anything else stays text.
      return /^(#|\/|https?:\/\/)/.test(href) ? (
        <a key={key} href={href}>
          {link[1]}
        </a>
      ) : (
        part
      );
    }
    return part;
  });
}
