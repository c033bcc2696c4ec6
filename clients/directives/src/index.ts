/**
 * Carries out the browser directives the service answers (play_song, listen, open_url) in a page,
 * with no framework: `runDirective(directive, container)` renders into `container` and returns a
 * handle whose `stop()` ends playback, closes the microphone and empties the container.
 *
 * The shapes are the OpenAPI document's `x-directives` (GET /api/v1/openapi.json).
 */

export type EmbedPlatform = "spotify" | "youtube" | "apple_music" | "deezer" | "soundcloud";

export interface PlayerEmbed {
  platform: EmbedPlatform;
  embed_url: string;
  open_url: string;
}

export interface PlayMedia {
  type: "play_media";
  /** Absent on answers from before the field existed: then whatever is present is tried. */
  playable?: boolean;
  reason?: string | null;
  url: string | null;
  title: string | null;
  artwork?: string | null;
  song_id?: string | null;
  embeds?: PlayerEmbed[];
  preview_url?: string | null;
  links?: Record<string, string>;
}

export type Directive =
  | PlayMedia
  | { type: "start_listening"; lang: string | null }
  | { type: "open_url"; url: string };

export interface RunOptions {
  /** Asked before a tab is opened (default: window.confirm). A tool must never open a page unasked. */
  confirm?: (message: string) => boolean;
  /** Opens a tab (default: window.open with noopener). */
  open?: (url: string) => void;
  /** Called with the microphone's stream once the member allows it (for speech recognition). */
  onListening?: (stream: MediaStream) => void;
}

export interface DirectiveHandle {
  stop(): void;
}

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
const EMBED_HEIGHT: Record<EmbedPlatform, number> = {
  spotify: 152,
  youtube: 200,
  apple_music: 175,
  deezer: 150,
  soundcloud: 166,
};

export const platformName = (platform: string): string => PLATFORM_NAMES[platform] ?? platform;

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
};

type Attributes = Record<string, string | undefined>;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const openLink = (url: string, label: string) =>
  el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "open-link" }, label);

/** Renders a directive into `container` and carries it out. */
export function runDirective(directive: Directive, container: HTMLElement, options: RunOptions = {}): DirectiveHandle {
  const stops: (() => void)[] = [];
  if (directive.type === "play_media") stops.push(playMedia(directive, container));
  else if (directive.type === "start_listening") stops.push(listen(directive.lang, container, options));
  else if (directive.type === "open_url") openUrl(directive.url, container, options);
  else container.append(el("p", { class: "muted" }, "Unknown directive."));
  return {
    stop() {
      for (const stop of stops.splice(0)) stop();
      container.replaceChildren();
    },
  };
}

/**
 * The platform's own player in an iframe when there is one (a streaming page never plays in an
 * <audio> element); else the preview or audio file; when nothing can play, the reason. The links
 * to open the song on each platform are always shown.
 */
function playMedia(directive: PlayMedia, container: HTMLElement): () => void {
  const title = directive.title ?? "Playing a link";
  const embeds = directive.embeds ?? [];
  const root = el("div", { class: "stack directive" }, el("strong", {}, title));
  container.append(root);
  let stopAudio = () => {};
  if (embeds.length > 0) showEmbeds(embeds, title, root);
  else if (directive.preview_url) stopAudio = playAudio(directive.preview_url, root);
  else {
    const reason = directive.reason ?? "Nothing here can play this song: open it below.";
    root.append(el("p", { role: "status", "data-testid": "not-playable" }, reason));
  }
  const links = Object.entries(directive.links ?? {});
  const linkRow = el("p", { class: "small", "data-testid": "open-links" });
  if (links.length > 0)
    for (const [platform, url] of links) linkRow.append(openLink(url, `Open in ${platformName(platform)}`));
  else if (directive.url) linkRow.append(openLink(directive.url, `Open in ${hostOf(directive.url)}`));
  if (linkRow.childNodes.length > 0) root.append(linkRow);
  return stopAudio;
}

function showEmbeds(embeds: PlayerEmbed[], title: string, root: HTMLElement): void {
  const frame = el("iframe", {
    class: "player-embed",
    allow: "autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture",
    loading: "lazy",
    "data-testid": "player-embed",
  });
  const choose = (embed: PlayerEmbed) => {
    frame.src = embed.embed_url;
    frame.title = `${platformName(embed.platform)} player: ${title}`;
    frame.height = String(EMBED_HEIGHT[embed.platform] ?? 166);
    frame.dataset.platform = embed.platform;
  };
  const first = embeds[0];
  if (first) choose(first);
  root.append(frame);
  if (embeds.length < 2) return;
  const choice = el("fieldset", { class: "row player-choice" }, el("legend", { class: "visually-hidden" }, "Player"));
  const buttons = embeds.map((embed, index) => {
    const button = el(
      "button",
      { type: "button", class: "quiet", "aria-pressed": String(index === 0) },
      platformName(embed.platform),
    );
    button.addEventListener("click", () => {
      choose(embed);
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === button));
    });
    return button;
  });
  choice.append(...buttons);
  root.append(choice);
}

function playAudio(src: string, root: HTMLElement): () => void {
  const audio = el("audio", { src, controls: "", autoplay: "", "data-testid": "player" });
  const state = el("p", { role: "status", "data-testid": "player-state" }, "Loading…");
  const say = (text: string) => () => {
    state.textContent = text;
  };
  audio.addEventListener("playing", say("Playing."));
  audio.addEventListener("pause", say("Paused."));
  audio.addEventListener("ended", say("Finished."));
  audio.addEventListener("error", say("This audio cannot play here: open it below."));
  root.append(audio, state);
  // A refused autoplay leaves the controls for the member; the error event explains a broken file.
  audio.play().catch(() => {});
  return () => {
    audio.pause();
    audio.removeAttribute("src");
    audio.load();
  };
}

function listen(lang: string | null, container: HTMLElement, options: RunOptions): () => void {
  const root = el("div", { class: "stack directive", role: "status", "data-testid": "listener" });
  container.append(root);
  let stream: MediaStream | null = null;
  let ended = false;
  const stopTracks = () => {
    for (const track of stream?.getTracks() ?? []) track.stop();
  };
  const show = (...children: (Node | string)[]) => root.replaceChildren(...children);
  show(el("span", {}, "Asking for the microphone…"));
  const devices = typeof navigator !== "undefined" ? navigator.mediaDevices : undefined;
  if (!devices) show(el("span", { class: "error" }, "The microphone was not allowed."));
  devices
    ?.getUserMedia({ audio: true })
    .then((granted) => {
      stream = granted;
      if (ended) return stopTracks();
      const stopButton = el("button", { type: "button", class: "quiet" }, "Stop listening");
      stopButton.addEventListener("click", () => {
        stopTracks();
        show(el("span", {}, "Stopped listening."));
      });
      show(el("span", { class: "listening" }, `Listening${lang ? ` (${lang})` : ""}…`), stopButton);
      options.onListening?.(granted);
    })
    .catch(() => show(el("span", { class: "error" }, "The microphone was not allowed.")));
  return () => {
    ended = true;
    stopTracks();
  };
}

function openUrl(url: string, container: HTMLElement, options: RunOptions): void {
  const confirm = options.confirm ?? ((message: string) => window.confirm(message));
  const open = options.open ?? ((target: string) => void window.open(target, "_blank", "noopener,noreferrer"));
  let said: string;
  if (confirm(`Open ${url} in a new tab?`)) {
    open(url);
    said = "Opened in a new tab.";
  } else {
    said = "Not opened.";
  }
  container.append(
    el("p", { role: "status", class: "directive", "data-testid": "opener" }, `${said} `, openLink(url, url)),
  );
}
