"use client";

import { SCOPE_FAMILIES, type Scope } from "@/registry/scopes";

export interface ScopeInfo {
  scope: Scope;
  description: string;
  covers: string;
}

export interface Preset {
  label: string;
  scopes: readonly Scope[];
}

interface Props {
  /** The scopes offered, each described from the registry; a family with none offered is left out. */
  scopes: readonly ScopeInfo[];
  picked: ReadonlySet<string>;
  onChange: (picked: ReadonlySet<string>) => void;
  presets?: readonly Preset[];
  legend?: string;
}

/**
 * The scope checkboxes of the tokens page and the OAuth consent page: one row per family, read and
 * write, each with its description and what it unlocks; checked boxes submit as `scopes`.
 */
export function ScopePicker({ scopes, picked, onChange, presets = [], legend = "Scopes" }: Props) {
  const info = new Map(scopes.map((s) => [s.scope, s]));
  const toggle = (scope: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(scope);
    else next.delete(scope);
    onChange(next);
  };
  return (
    <fieldset>
      <legend>{legend}</legend>
      <p className="muted small">
        Pick only what is needed; <code>:write</code> does not include <code>:read</code>.
      </p>
      <div className="presets">
        {presets.map((preset) => (
          <button key={preset.label} type="button" className="quiet" onClick={() => onChange(new Set(preset.scopes))}>
            {preset.label}
          </button>
        ))}
        <button type="button" className="quiet" onClick={() => onChange(new Set())}>
          Clear
        </button>
      </div>
      <div className="scope-list">
        {SCOPE_FAMILIES.filter((family) => info.has(`${family}:read`) || info.has(`${family}:write`)).map((family) => (
          <div key={family} className="scope-family">
            <span className="scope-name">{family}</span>
            {(["read", "write"] as const).map((access) => {
              const scope = `${family}:${access}` as Scope;
              const about = info.get(scope);
              if (!about) return <span key={scope} />;
              return (
                <label key={scope} className="check scope-check">
                  <input
                    type="checkbox"
                    name="scopes"
                    value={scope}
                    checked={picked.has(scope)}
                    onChange={(event) => toggle(scope, event.target.checked)}
                    aria-label={scope}
                    aria-describedby={`scope-${family}-${access}`}
                  />
                  <span>
                    {access}
                    <span id={`scope-${family}-${access}`} className="hint">
                      {about.description} <span className="covers">{about.covers}</span>
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        ))}
      </div>
      <p className="muted small" aria-live="polite">
        {picked.size} of {scopes.length} scopes picked.
      </p>
    </fieldset>
  );
}
