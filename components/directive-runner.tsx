"use client";

import { useEffect, useRef } from "react";
import { type Directive, runDirective } from "@/clients/directives/src/index";

export type { Directive } from "@/clients/directives/src/index";

/**
 * Carries out a browser directive in the page through the framework-free runtime
 * (clients/directives), the same module the product's assistant imports; unmounting stops
 * playback and the microphone.
 */
export function DirectiveRunner({ directive }: { directive: Directive }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    const handle = runDirective(directive, container.current);
    return () => handle.stop();
  }, [directive]);
  return <div ref={container} />;
}
