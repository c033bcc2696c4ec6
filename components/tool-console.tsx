"use client";

import { type FormEvent, useMemo, useState } from "react";
import type { ConsoleAnswer } from "@/lib/web/action-states";
import { formFields, inputFromForm, type JsonSchema } from "@/lib/web/schema-form";
import { type Directive, DirectiveRunner } from "./directive-runner";
import { SchemaFields } from "./schema-fields";

export interface ConsoleTool {
  name: string;
  title: string;
  description: string;
  kind: "server" | "directive";
  scope: string;
  inputSchema: JsonSchema;
}

interface Props {
  tools: readonly ConsoleTool[];
  invoke: (tool: string, input: unknown) => Promise<ConsoleAnswer>;
}

/** Pick a tool, fill the form generated from its input schema, run it as yourself, see the answer. */
export function ToolConsole({ tools, invoke }: Props) {
  // The list shows browser tools first; start on the first entry the member sees.
  const [name, setName] = useState((tools.find((tool) => tool.kind === "directive") ?? tools[0])?.name ?? "");
  const [answer, setAnswer] = useState<ConsoleAnswer | null>(null);
  const [runs, setRuns] = useState(0);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState("");
  const tool = tools.find((candidate) => candidate.name === name);
  const fields = useMemo(() => (tool ? formFields(tool.inputSchema) : []), [tool]);

  // Another tool starts clean: the old answer goes, and with it any player or open microphone
  // (unmounting the directive stops its MediaStream tracks).
  const pick = (next: string) => {
    setName(next);
    setAnswer(null);
    setFormError("");
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!tool) return;
    const values: Record<string, string> = {};
    new FormData(event.currentTarget).forEach((value, key) => {
      values[key] = String(value);
    });
    const built = inputFromForm(fields, values);
    if (!built.ok) {
      setFormError(built.message);
      return;
    }
    setFormError("");
    setBusy(true);
    try {
      setAnswer(await invoke(tool.name, built.input));
      setRuns((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  const directive = answer?.body.ok && "directive" in answer.body ? (answer.body.directive as Directive) : null;
  return (
    <div className="console">
      <form className="card stack" onSubmit={submit} aria-label="Invoke a tool">
        <label htmlFor="console-tool">Tool</label>
        <select id="console-tool" value={name} onChange={(event) => pick(event.target.value)}>
          {(["directive", "server"] as const).map((kind) => (
            <optgroup key={kind} label={kind === "directive" ? "Browser tools" : "Server tools"}>
              {tools
                .filter((candidate) => candidate.kind === kind)
                .map((candidate) => (
                  <option key={candidate.name} value={candidate.name}>
                    {candidate.name}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        {tool && (
          <p className="muted small">
            {tool.description} Scope: <code>{tool.scope}</code>
          </p>
        )}
        {/* A new key per tool resets the fields when another tool is picked. */}
        <SchemaFields key={name} fields={fields} />
        {formError && (
          <p role="alert" className="error">
            {formError}
          </p>
        )}
        <button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Running…" : "Invoke"}
        </button>
      </form>
      <section className="card result" aria-live="polite" aria-labelledby="result-title">
        <h2 id="result-title">Result</h2>
        {answer ? (
          <>
            <p>
              <span className={`badge ${answer.body.ok ? "" : "error"}`} data-testid="result-status">
                {answer.status} {answer.body.ok ? "ok" : "error"}
              </span>
            </p>
            {directive && <DirectiveRunner key={runs} directive={directive} />}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable result must be reachable by keyboard (axe scrollable-region-focusable). */}
            <pre tabIndex={0}>
              <code data-testid="result-json">{JSON.stringify(answer.body, null, 2)}</code>
            </pre>
          </>
        ) : (
          <p className="muted">Run a tool to see its answer here.</p>
        )}
      </section>
    </div>
  );
}
