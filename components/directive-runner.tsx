"use client";

import { useEffect, useRef, useState } from "react";

export type Directive =
  | { type: "play_media"; url: string; title: string | null; artwork: string | null }
  | { type: "start_listening"; lang: string | null }
  | { type: "open_url"; url: string };

/** Carries out a browser directive in the page: play, listen (after the browser asks) or open a tab. */
export function DirectiveRunner({ directive }: { directive: Directive }) {
  if (directive.type === "play_media") return <MediaPlayer directive={directive} />;
  if (directive.type === "start_listening") return <Listener lang={directive.lang} />;
  if (directive.type === "open_url") return <UrlOpener url={directive.url} />;
  return <p className="muted">Unknown directive.</p>;
}

function MediaPlayer({ directive }: { directive: { url: string; title: string | null } }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [state, setState] = useState("Loading…");
  useEffect(() => {
    audio.current?.play().catch(() => {
      // The error event explains a link that is not audio; a refused autoplay waits for the play button.
    });
  }, []);
  return (
    <div className="stack directive">
      <strong>{directive.title ?? "Playing a link"}</strong>
      {/* biome-ignore lint/a11y/useMediaCaption: music from a catalog has no captions to offer */}
      <audio
        ref={audio}
        src={directive.url}
        controls
        autoPlay
        data-testid="player"
        onPlaying={() => setState("Playing.")}
        onPause={() => setState("Paused.")}
        onEnded={() => setState("Finished.")}
        onError={() => setState("This link is a page, not an audio file: open it to listen.")}
      />
      <p role="status" data-testid="player-state">
        {state}{" "}
        <a href={directive.url} target="_blank" rel="noopener noreferrer">
          Open the link
        </a>
      </p>
    </div>
  );
}

function stopAll(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

function Listener({ lang }: { lang: string | null }) {
  const [state, setState] = useState<"asking" | "listening" | "stopped" | "refused">("asking");
  const stream = useRef<MediaStream | null>(null);
  useEffect(() => {
    let cancelled = false;
    navigator.mediaDevices
      ?.getUserMedia({ audio: true })
      .then((granted) => {
        if (cancelled) {
          stopAll(granted);
          return;
        }
        stream.current = granted;
        setState("listening");
      })
      .catch(() => setState("refused"));
    if (!navigator.mediaDevices) setState("refused");
    return () => {
      cancelled = true;
      stopAll(stream.current);
    };
  }, []);
  const stop = () => {
    stopAll(stream.current);
    setState("stopped");
  };
  return (
    <div className="stack directive" role="status" data-testid="listener">
      {state === "asking" && <span>Asking for the microphone…</span>}
      {state === "listening" && (
        <>
          <span className="listening">Listening{lang ? ` (${lang})` : ""}…</span>
          <button type="button" className="quiet" onClick={stop}>
            Stop listening
          </button>
        </>
      )}
      {state === "stopped" && <span>Stopped listening.</span>}
      {state === "refused" && <span className="error">The microphone was not allowed.</span>}
    </div>
  );
}

function UrlOpener({ url }: { url: string }) {
  const [state, setState] = useState("");
  useEffect(() => {
    // Confirm first: a tool must never open a page the member did not agree to.
    if (window.confirm(`Open ${url} in a new tab?`)) {
      window.open(url, "_blank", "noopener,noreferrer");
      setState("Opened in a new tab.");
    } else {
      setState("Not opened.");
    }
  }, [url]);
  return (
    <p role="status" className="directive" data-testid="opener">
      {state}{" "}
      <a href={url} target="_blank" rel="noopener noreferrer">
        {url}
      </a>
    </p>
  );
}
