"use client";

import { useEffect, useRef, useState } from "react";

export interface PlayerEmbed {
  platform: "spotify" | "youtube" | "apple_music" | "deezer" | "soundcloud";
  embed_url: string;
  open_url: string;
}

export type Directive =
  | {
      type: "play_media";
      url: string;
      title: string | null;
      artwork: string | null;
      embeds?: PlayerEmbed[];
      preview_url?: string | null;
      links?: Record<string, string>;
    }
  | { type: "start_listening"; lang: string | null }
  | { type: "open_url"; url: string };

const PLATFORM_NAMES: Record<string, string> = {
  spotify: "Spotify",
  youtube: "YouTube",
  youtube_music: "YouTube Music",
  apple_music: "Apple Music",
  deezer: "Deezer",
  soundcloud: "SoundCloud",
  tidal: "Tidal",
  bandcamp: "Bandcamp",
  amazon_music: "Amazon Music",
};

// Each platform's player has its own natural height; these are the sizes their embed codes use.
const EMBED_HEIGHT: Record<PlayerEmbed["platform"], number> = {
  spotify: 152,
  youtube: 200,
  apple_music: 175,
  deezer: 150,
  soundcloud: 166,
};

const platformName = (platform: string) => PLATFORM_NAMES[platform] ?? platform;
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
};

/** Carries out a browser directive in the page: play, listen (after the browser asks) or open a tab. */
export function DirectiveRunner({ directive }: { directive: Directive }) {
  if (directive.type === "play_media") return <MediaPlayer directive={directive} />;
  if (directive.type === "start_listening") return <Listener lang={directive.lang} />;
  if (directive.type === "open_url") return <UrlOpener url={directive.url} />;
  return <p className="muted">Unknown directive.</p>;
}

/**
 * The platform's own player in an iframe when there is one (a streaming page can never play in an
 * <audio> element); else the catalog's preview, or the link itself when it is an audio file; and
 * always "Open in …" links as the fallback.
 */
function MediaPlayer({ directive }: { directive: Extract<Directive, { type: "play_media" }> }) {
  const [choice, setChoice] = useState(0);
  const embeds = directive.embeds ?? [];
  const embed = embeds[choice];
  const links = Object.entries(directive.links ?? {});
  const title = directive.title ?? "Playing a link";
  return (
    <div className="stack directive">
      <strong>{title}</strong>
      {embed ? (
        <>
          <iframe
            key={embed.embed_url}
            src={embed.embed_url}
            title={`${platformName(embed.platform)} player: ${title}`}
            height={EMBED_HEIGHT[embed.platform]}
            className="player-embed"
            allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"
            loading="lazy"
            data-testid="player-embed"
            data-platform={embed.platform}
          />
          {embeds.length > 1 && (
            <fieldset className="row player-choice">
              <legend className="visually-hidden">Player</legend>
              {embeds.map((candidate, index) => (
                <button
                  key={candidate.platform}
                  type="button"
                  className="quiet"
                  aria-pressed={index === choice}
                  onClick={() => setChoice(index)}
                >
                  {platformName(candidate.platform)}
                </button>
              ))}
            </fieldset>
          )}
        </>
      ) : (
        <AudioPlayer src={directive.preview_url ?? directive.url} />
      )}
      <p className="small" data-testid="open-links">
        {links.length > 0 ? (
          links.map(([platform, url]) => (
            <a key={platform} href={url} target="_blank" rel="noopener noreferrer" className="open-link">
              Open in {platformName(platform)}
            </a>
          ))
        ) : (
          <a href={directive.url} target="_blank" rel="noopener noreferrer" className="open-link">
            Open in {hostOf(directive.url)}
          </a>
        )}
      </p>
    </div>
  );
}

function AudioPlayer({ src }: { src: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [state, setState] = useState("Loading…");
  useEffect(() => {
    audio.current?.play().catch(() => {
      // The error event explains a link that is not audio; a refused autoplay waits for the play button.
    });
  }, []);
  return (
    <>
      {/* biome-ignore lint/a11y/useMediaCaption: music from a catalog has no captions to offer */}
      <audio
        ref={audio}
        src={src}
        controls
        autoPlay
        data-testid="player"
        onPlaying={() => setState("Playing.")}
        onPause={() => setState("Paused.")}
        onEnded={() => setState("Finished.")}
        onError={() => setState("No player for this link here: open it below.")}
      />
      <p role="status" data-testid="player-state">
        {state}
      </p>
    </>
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
