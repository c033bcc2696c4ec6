import { describe, expect, it } from "vitest";
import { classify } from "@/lib/catalog/recognise";

/** [input, platform, domain (null = open), kind, namespace, value] — real-world URL shapes. */
type Row = [string, string, string | null, string, string, string];

const KITCHEN = "0Jcij1eWd5bDMU5iPbxe2i";
const base: Row[] = [
  // Spotify: plain, intl locale paths, embed, legacy user playlists, URIs, host-only input
  [`https://open.spotify.com/track/${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  [`https://open.spotify.com/intl-de/track/${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  [
    `https://open.spotify.com/intl-zh-tw/playlist/37i9dQZF1DXcBWIGoYBM5M`,
    "spotify",
    "music",
    "playlist",
    "spotify:playlist",
    "37i9dQZF1DXcBWIGoYBM5M",
  ],
  [
    `https://open.spotify.com/intl-pt_BR/album/4m2880jivSbbyEGAKfITCa`,
    "spotify",
    "music",
    "album",
    "spotify:album",
    "4m2880jivSbbyEGAKfITCa",
  ],
  [`https://open.spotify.com/embed/episode/${KITCHEN}`, "spotify", "music", "episode", "spotify:episode", KITCHEN],
  [
    `https://open.spotify.com/user/spotify/playlist/37i9dQZF1DXcBWIGoYBM5M`,
    "spotify",
    "music",
    "playlist",
    "spotify:playlist",
    "37i9dQZF1DXcBWIGoYBM5M",
  ],
  [
    `https://open.spotify.com/artist/0LcJLqbBmaGUft1e9Mm8HV`,
    "spotify",
    "music",
    "artist",
    "spotify:artist",
    "0LcJLqbBmaGUft1e9Mm8HV",
  ],
  [`https://play.spotify.com/track/${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  [`https://embed.spotify.com/?uri=spotify:track:${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  [`spotify:track:${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  [
    `spotify:user:someone:playlist:37i9dQZF1DXcBWIGoYBM5M`,
    "spotify",
    "music",
    "playlist",
    "spotify:playlist",
    "37i9dQZF1DXcBWIGoYBM5M",
  ],
  [`open.spotify.com/track/${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  // Apple Music and legacy iTunes
  [
    "https://music.apple.com/us/album/kitchen/1443108737?i=1443109064",
    "apple_music",
    "music",
    "track",
    "apple:song",
    "1443109064",
  ],
  ["https://music.apple.com/us/song/kitchen/1443109064", "apple_music", "music", "track", "apple:song", "1443109064"],
  [
    "https://music.apple.com/gb/album/passion-pain-demon-slayin/1443108737",
    "apple_music",
    "music",
    "album",
    "apple:album",
    "1443108737",
  ],
  ["https://music.apple.com/album/1443108737", "apple_music", "music", "album", "apple:album", "1443108737"],
  [
    "https://geo.music.apple.com/us/album/_/1443108737?i=1443109064&app=music",
    "apple_music",
    "music",
    "track",
    "apple:song",
    "1443109064",
  ],
  [
    "https://itunes.apple.com/us/album/kitchen/id1443108737?i=1443109064",
    "apple_music",
    "music",
    "track",
    "apple:song",
    "1443109064",
  ],
  ["https://music.apple.com/us/artist/weezer/115234", "apple_music", "music", "artist", "apple:artist", "115234"],
  [
    "https://music.apple.com/us/playlist/todays-hits/pl.f4d106fed2bd41149aaacabb233eb5eb",
    "apple_music",
    "music",
    "playlist",
    "apple:playlist",
    "pl.f4d106fed2bd41149aaacabb233eb5eb",
  ],
  [
    "https://embed.music.apple.com/us/album/kitchen/1443108737?i=1443109064",
    "apple_music",
    "music",
    "track",
    "apple:song",
    "1443109064",
  ],
  // YouTube and YouTube Music
  ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://m.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://youtu.be/dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://youtu.be/dQw4w9WgXcQ?si=AbCdEf123", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://www.youtube.com/shorts/dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://www.youtube.com/embed/dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  ["https://www.youtube.com/live/dQw4w9WgXcQ", "youtube", null, "video", "youtube:video", "dQw4w9WgXcQ"],
  [
    "https://www.youtube.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI",
    "youtube",
    null,
    "playlist",
    "youtube:playlist",
    "PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI",
  ],
  ["https://music.youtube.com/watch?v=w3LJ2bDvDJs", "youtube_music", "music", "track", "youtube:video", "w3LJ2bDvDJs"],
  [
    "https://music.youtube.com/watch?v=w3LJ2bDvDJs&list=RDAMVMw3LJ2bDvDJs",
    "youtube_music",
    "music",
    "track",
    "youtube:video",
    "w3LJ2bDvDJs",
  ],
  [
    "https://music.youtube.com/playlist?list=OLAK5uy_kRx4mEkG7nVZ-Fy3MUDxpM5dgdR1pG7xQ",
    "youtube_music",
    "music",
    "album",
    "youtube:playlist",
    "OLAK5uy_kRx4mEkG7nVZ-Fy3MUDxpM5dgdR1pG7xQ",
  ],
  [
    "https://music.youtube.com/browse/MPREb_abc123DEF",
    "youtube_music",
    "music",
    "album",
    "youtube_music:album",
    "MPREb_abc123DEF",
  ],
  [
    "https://music.youtube.com/channel/UCZU9T1ceaOgwfLRq7OKFU4Q",
    "youtube_music",
    "music",
    "artist",
    "youtube:channel",
    "UCZU9T1ceaOgwfLRq7OKFU4Q",
  ],
  // Deezer, SoundCloud, Tidal, Bandcamp, Amazon Music, song.link
  ["https://www.deezer.com/track/138127073", "deezer", "music", "track", "deezer:track", "138127073"],
  ["https://www.deezer.com/fr/album/302127", "deezer", "music", "album", "deezer:album", "302127"],
  ["https://deezer.com/en/artist/27", "deezer", "music", "artist", "deezer:artist", "27"],
  ["https://www.deezer.com/us/playlist/908622995", "deezer", "music", "playlist", "deezer:playlist", "908622995"],
  [
    "https://soundcloud.com/forss/flickermood",
    "soundcloud",
    "music",
    "track",
    "soundcloud:permalink",
    "forss/flickermood",
  ],
  [
    "https://m.soundcloud.com/forss/flickermood",
    "soundcloud",
    "music",
    "track",
    "soundcloud:permalink",
    "forss/flickermood",
  ],
  [
    "https://soundcloud.com/forss/sets/soulhack",
    "soundcloud",
    "music",
    "playlist",
    "soundcloud:permalink",
    "forss/sets/soulhack",
  ],
  ["https://soundcloud.com/forss", "soundcloud", "music", "artist", "soundcloud:permalink", "forss"],
  [
    "https://w.soundcloud.com/player/?url=https%3A%2F%2Fsoundcloud.com%2Fforss%2Fflickermood&auto_play=false",
    "soundcloud",
    "music",
    "track",
    "soundcloud:permalink",
    "forss/flickermood",
  ],
  ["https://tidal.com/browse/track/67784545", "tidal", "music", "track", "tidal:track", "67784545"],
  ["https://listen.tidal.com/track/67784545", "tidal", "music", "track", "tidal:track", "67784545"],
  ["https://tidal.com/track/67784545/u", "tidal", "music", "track", "tidal:track", "67784545"],
  ["https://tidal.com/browse/album/67784544", "tidal", "music", "album", "tidal:album", "67784544"],
  [
    "https://tidal.com/browse/playlist/0a7a5b8e-1d2c-4f3e-9a8b-7c6d5e4f3a2b",
    "tidal",
    "music",
    "playlist",
    "tidal:playlist",
    "0a7a5b8e-1d2c-4f3e-9a8b-7c6d5e4f3a2b",
  ],
  [
    "https://someartist.bandcamp.com/album/some-album",
    "bandcamp",
    "music",
    "album",
    "bandcamp:url",
    "someartist/album/some-album",
  ],
  [
    "https://someartist.bandcamp.com/track/some-track?from=search",
    "bandcamp",
    "music",
    "track",
    "bandcamp:url",
    "someartist/track/some-track",
  ],
  ["https://someartist.bandcamp.com/", "bandcamp", "music", "artist", "bandcamp:url", "someartist"],
  [
    "https://music.amazon.com/albums/B01N48U32A?trackAsin=B01NAE38YO&do=play",
    "amazon_music",
    "music",
    "track",
    "amazon:asin",
    "B01NAE38YO",
  ],
  ["https://music.amazon.co.uk/albums/B01N48U32A", "amazon_music", "music", "album", "amazon:asin", "B01N48U32A"],
  ["https://song.link/us/i/1443109064", "apple_music", "music", "track", "apple:song", "1443109064"],
  [`https://song.link/s/${KITCHEN}`, "spotify", "music", "track", "spotify:track", KITCHEN],
  // Film
  ["https://www.imdb.com/title/tt0111161/", "imdb", "film", "movie", "imdb", "tt0111161"],
  ["https://m.imdb.com/title/tt0133093/", "imdb", "film", "movie", "imdb", "tt0133093"],
  ["https://www.imdb.com/title/tt0133093/?ref_=nv_sr_srsg_0", "imdb", "film", "movie", "imdb", "tt0133093"],
  ["https://www.imdb.com/de/title/tt0133093/", "imdb", "film", "movie", "imdb", "tt0133093"],
  ["https://www.imdb.com/title/tt0133093/reviews", "imdb", "film", "movie", "imdb", "tt0133093"],
  ["https://www.imdb.com/name/nm0000206/", "imdb", "film", "person", "imdb", "nm0000206"],
  ["https://www.imdb.com/title/tt15398776/", "imdb", "film", "movie", "imdb", "tt15398776"],
  ["tt0133093", "imdb", "film", "movie", "imdb", "tt0133093"],
  ["https://www.themoviedb.org/movie/603-the-matrix", "tmdb", "film", "movie", "tmdb:movie", "603"],
  ["https://www.themoviedb.org/movie/603", "tmdb", "film", "movie", "tmdb:movie", "603"],
  ["https://www.themoviedb.org/tv/1399-game-of-thrones", "tmdb", "film", "tv_series", "tmdb:tv", "1399"],
  [
    "https://www.themoviedb.org/tv/1399-game-of-thrones/season/1/episode/1",
    "tmdb",
    "film",
    "tv_series",
    "tmdb:tv",
    "1399",
  ],
  ["https://letterboxd.com/film/the-matrix/", "letterboxd", "film", "movie", "letterboxd:film", "the-matrix"],
  ["https://letterboxd.com/someone/film/the-matrix/", "letterboxd", "film", "movie", "letterboxd:film", "the-matrix"],
  ["https://letterboxd.com/film/dune-2021/reviews/", "letterboxd", "film", "movie", "letterboxd:film", "dune-2021"],
  ["https://www.netflix.com/title/80057281", "netflix", "film", "movie", "netflix:title", "80057281"],
  ["https://www.netflix.com/de-en/title/80057281", "netflix", "film", "movie", "netflix:title", "80057281"],
  // Books
  ["https://openlibrary.org/works/OL45804W/Fantastic_Mr_Fox", "open_library", "books", "work", "olid:work", "OL45804W"],
  ["https://openlibrary.org/works/OL45804W", "open_library", "books", "work", "olid:work", "OL45804W"],
  ["https://openlibrary.org/books/OL7353617M", "open_library", "books", "edition", "olid:edition", "OL7353617M"],
  [
    "https://openlibrary.org/books/OL7353617M/Fantastic_Mr._Fox.json",
    "open_library",
    "books",
    "edition",
    "olid:edition",
    "OL7353617M",
  ],
  ["https://openlibrary.org/authors/OL34184A", "open_library", "books", "author", "olid:author", "OL34184A"],
  ["https://openlibrary.org/isbn/9780140328721", "isbn", "books", "edition", "isbn13", "9780140328721"],
  ["https://openlibrary.org/isbn/0140328726", "isbn", "books", "edition", "isbn13", "9780140328721"],
  ["https://www.goodreads.com/book/show/5907.The_Hobbit", "goodreads", "books", "edition", "goodreads:book", "5907"],
  ["https://www.goodreads.com/book/show/5907-the-hobbit", "goodreads", "books", "edition", "goodreads:book", "5907"],
  ["https://goodreads.com/book/show/5907", "goodreads", "books", "edition", "goodreads:book", "5907"],
  [
    "https://www.goodreads.com/book/show/5907.The_Hobbit?from_search=true&qid=abc&rank=1",
    "goodreads",
    "books",
    "edition",
    "goodreads:book",
    "5907",
  ],
  [
    "https://www.goodreads.com/work/editions/1540236-the-hobbit",
    "goodreads",
    "books",
    "work",
    "goodreads:work",
    "1540236",
  ],
  [
    "https://www.goodreads.com/author/show/656983.J_R_R_Tolkien",
    "goodreads",
    "books",
    "author",
    "goodreads:author",
    "656983",
  ],
  [
    "https://books.google.com/books?id=zyTCAlFPjgYC",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://books.google.co.uk/books?id=zyTCAlFPjgYC&printsec=frontcover",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://www.google.com/books/edition/_/zyTCAlFPjgYC",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://www.google.com/books/edition/The_Google_Story/zyTCAlFPjgYC?hl=en",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://books.google.com/books/about/The_Google_Story.html?id=zyTCAlFPjgYC",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://play.google.com/store/books/details?id=zyTCAlFPjgYC",
    "google_books",
    "books",
    "edition",
    "google_books:volume",
    "zyTCAlFPjgYC",
  ],
  [
    "https://www.amazon.com/Fantastic-Mr-Fox-Roald-Dahl/dp/0140328726/ref=sr_1_1?keywords=fox&qid=1&sr=8-1",
    "amazon",
    "books",
    "edition",
    "isbn13",
    "9780140328721",
  ],
  ["https://www.amazon.co.uk/gp/product/0140328726", "amazon", "books", "edition", "isbn13", "9780140328721"],
  ["https://www.amazon.de/dp/0140328726?tag=affiliate-21", "amazon", "books", "edition", "isbn13", "9780140328721"],
  ["https://smile.amazon.com/dp/080442957X", "amazon", "books", "edition", "isbn13", "9780804429573"],
  ["https://bookshop.org/p/books/x/123?ean=9780140328721", "bookshop", "books", "edition", "isbn13", "9780140328721"],
  ["978-0-14-032872-1", "isbn", "books", "edition", "isbn13", "9780140328721"],
  ["ISBN 0-14-032872-6", "isbn", "books", "edition", "isbn13", "9780140328721"],
  ["ISBN-13: 9780306406157", "isbn", "books", "edition", "isbn13", "9780306406157"],
  ["080442957x", "isbn", "books", "edition", "isbn13", "9780804429573"],
  // Products
  [
    "https://www.amazon.com/Alexander-Theatre-Sessions-Poets-Fall/dp/B08NT852YT/ref=sr_1_1?crid=X&keywords=x",
    "amazon",
    "products",
    "product",
    "amazon:asin",
    "B08NT852YT",
  ],
  ["https://www.amazon.com/gp/aw/d/B08NT852YT", "amazon", "products", "product", "amazon:asin", "B08NT852YT"],
  ["https://www.amazon.co.jp/dp/B08NT852YT/", "amazon", "products", "product", "amazon:asin", "B08NT852YT"],
  ["https://amazon.fr/exec/obidos/ASIN/B08NT852YT", "amazon", "products", "product", "amazon:asin", "B08NT852YT"],
  // Places
  [
    "https://www.google.com/maps/place/The+White+House++United+States/@38.8864874,-77.0377681,15z/data=!4m6!3m5!1s0x89b7b7bcdecbb1df:0x715969d86d0b76bf!8m2!3d38.8976763!4d-77.0365298!16zL20vMDgxc3E",
    "google_maps",
    "places",
    "place",
    "gmaps:cid",
    "8167675777476425407",
  ],
  [
    "https://www.google.co.uk/maps/place/The+White+House/data=!3m1!4b1!4m6!3m5!1s0x89b7b7bcdecbb1df:0x715969d86d0b76bf!8m2!3d38.8976763!4d-77.0365298",
    "google_maps",
    "places",
    "place",
    "gmaps:cid",
    "8167675777476425407",
  ],
  [
    "https://maps.google.com/?cid=8167675777476425407",
    "google_maps",
    "places",
    "place",
    "gmaps:cid",
    "8167675777476425407",
  ],
  [
    "https://www.google.com/maps/search/?api=1&query=Eiffel%20Tower&query_place_id=ChIJLU7jZClu5kcR4PcOOO6p3I0",
    "google_maps",
    "places",
    "place",
    "gmaps:place_id",
    "ChIJLU7jZClu5kcR4PcOOO6p3I0",
  ],
  [
    "https://www.google.com/maps/@48.8583701,2.2944813,17z",
    "google_maps",
    "places",
    "place",
    "geo",
    "48.85837,2.29448",
  ],
  ["https://www.google.com/maps?q=48.8584,2.2945", "google_maps", "places", "place", "geo", "48.85840,2.29450"],
  ["https://www.openstreetmap.org/node/240109189", "openstreetmap", "places", "place", "osm:node", "240109189"],
  ["https://www.openstreetmap.org/way/5013364", "openstreetmap", "places", "place", "osm:way", "5013364"],
  ["https://openstreetmap.org/relation/7444", "openstreetmap", "places", "place", "osm:relation", "7444"],
  [
    "https://www.openstreetmap.org/#map=17/38.89768/-77.03654",
    "openstreetmap",
    "places",
    "place",
    "geo",
    "38.89768,-77.03654",
  ],
  [
    "https://www.openstreetmap.org/?mlat=44.4605&mlon=-110.8281#map=15/44.4605/-110.8281",
    "openstreetmap",
    "places",
    "place",
    "geo",
    "44.46050,-110.82810",
  ],
  [
    "https://maps.apple.com/?q=Old+Faithful&ll=44.4605,-110.8281",
    "apple_maps",
    "places",
    "place",
    "geo",
    "44.46050,-110.82810",
  ],
  [
    "https://maps.apple.com/?address=1600+Pennsylvania+Ave&auid=1234567890123&ll=38.8977,-77.0365",
    "apple_maps",
    "places",
    "place",
    "apple_maps:auid",
    "1234567890123",
  ],
  [
    "https://maps.apple.com/place?place-id=I5D4B5A6C7E8F9&coordinate=48.8584,2.2945&name=Eiffel%20Tower",
    "apple_maps",
    "places",
    "place",
    "apple_maps:place_id",
    "I5D4B5A6C7E8F9",
  ],
  ["48.8584, 2.2945", "coordinates", "places", "place", "geo", "48.85840,2.29450"],
  // Wikipedia
  ["https://en.wikipedia.org/wiki/Old_Faithful", "wikipedia", null, "article", "wikipedia:en", "Old Faithful"],
  [
    "https://en.m.wikipedia.org/wiki/Old_Faithful#History",
    "wikipedia",
    null,
    "article",
    "wikipedia:en",
    "Old Faithful",
  ],
  ["https://de.wikipedia.org/wiki/Albert_Einstein", "wikipedia", null, "article", "wikipedia:de", "Albert Einstein"],
  ["https://fr.wikipedia.org/wiki/Tour_Eiffel", "wikipedia", null, "article", "wikipedia:fr", "Tour Eiffel"],
  ["https://es.wikipedia.org/wiki/S%C3%A3o_Paulo", "wikipedia", null, "article", "wikipedia:es", "São Paulo"],
  [
    "https://en.wikipedia.org/w/index.php?title=Old_Faithful&oldid=123",
    "wikipedia",
    null,
    "article",
    "wikipedia:en",
    "Old Faithful",
  ],
  ["https://en.wikipedia.org/?curid=4232", "wikipedia", null, "article", "wikipedia:en", "curid:4232"],
  ["https://en.wikipedia.org/wiki/old_Faithful", "wikipedia", null, "article", "wikipedia:en", "Old Faithful"],
  // Articles: tracking removed, normalised dedupe key
  [
    "https://www.theatlantic.com/magazine/archive/1945/07/as-we-may-think/303881/?utm_source=twitter&utm_medium=social",
    "website",
    "articles",
    "article",
    "url",
    "https://theatlantic.com/magazine/archive/1945/07/as-we-may-think/303881",
  ],
  [
    "HTTPS://Example.COM:443/news/story/?b=2&a=1&fbclid=IwAR0abc&utm_campaign=x#comments",
    "website",
    "articles",
    "article",
    "url",
    "https://example.com/news/story?a=1&b=2",
  ],
  [
    "https://m.example.com/news/story?gclid=abc",
    "website",
    "articles",
    "article",
    "url",
    "https://example.com/news/story",
  ],
  ["http://paulgraham.com/avg.html", "website", "articles", "article", "url", "https://paulgraham.com/avg.html"],
  [
    "https://www.google.com/url?q=https://paulgraham.com/avg.html&sa=D&source=editors",
    "website",
    "articles",
    "article",
    "url",
    "https://paulgraham.com/avg.html",
  ],
  [
    "https://l.facebook.com/l.php?u=https%3A%2F%2Fexample.com%2Fpost%3Futm_source%3Dfb&h=AT0",
    "website",
    "articles",
    "article",
    "url",
    "https://example.com/post",
  ],
  [
    "https://www.google.com/amp/s/www.example.com/amp/story-123",
    "website",
    "articles",
    "article",
    "url",
    "https://example.com/amp/story-123",
  ],
  [
    "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/story?mc_cid=1&mc_eid=2",
    "website",
    "articles",
    "article",
    "url",
    "https://example.com/story",
  ],
  [
    "https://news.example.org/2024/05/why-we-sleep.html?ref_src=twsrc&igshid=xyz",
    "website",
    "articles",
    "article",
    "url",
    "https://news.example.org/2024/05/why-we-sleep.html",
  ],
  [
    "https://blog.example.net/p/on-writing?s=r&_hsenc=p2&_hsmi=9",
    "website",
    "articles",
    "article",
    "url",
    "https://blog.example.net/p/on-writing?s=r",
  ],
];

/** Real pastes carry noise: the same URLs with share and tracking parameters appended. */
const NOISE = [
  "utm_source=copy-link&utm_medium=share",
  "fbclid=IwAR2xYz",
  "si=AbC123xyz",
  "gclid=EAIaIQobChMI",
  "mc_cid=abc&mc_eid=def",
];

function withNoise(row: Row, noise: string): Row | null {
  const [input] = row;
  if (!/^https?:/i.test(input) || input.includes("#")) return null;
  return [`${input}${input.includes("?") ? "&" : "?"}${noise}`, ...row.slice(1)] as Row;
}

const noisy = base.flatMap((row) => NOISE.map((noise) => withNoise(row, noise)).filter((r): r is Row => r !== null));
const table = [...base, ...noisy];

describe("URL recognition (offline)", () => {
  it("covers hundreds of real-world shapes", () => {
    expect(table.length).toBeGreaterThan(500);
  });

  it.each(table)("%s", (input, platform, domain, kind, namespace, value) => {
    const classified = classify(input);
    if (classified.type === "phrase") throw new Error(`${input} was not recognised`);
    const { ref } = classified;
    expect({ platform: ref.platform, domain: ref.domain, kind: ref.kind }).toEqual({ platform, domain, kind });
    expect(ref.ids[0]).toEqual({ namespace, value });
    // The canonical address never keeps tracking noise.
    expect(ref.canonicalUrl).not.toMatch(/utm_|fbclid|gclid|mc_cid|[?&]si=/);
  });

  it("builds partial titles and coordinates from the URL itself", () => {
    const maps = classify(base[base.findIndex((r) => r[4] === "gmaps:cid")]?.[0] ?? "");
    expect(maps.type === "url" && maps.ref.hints).toMatchObject({
      title: "The White House, United States",
      lat: 38.8976763,
      lng: -77.0365298,
    });
    const letterboxd = classify("https://letterboxd.com/film/dune-2021/");
    expect(letterboxd.type === "url" && letterboxd.ref.hints).toEqual({ title: "Dune", year: "2021" });
    const goodreads = classify("https://www.goodreads.com/book/show/5907.The_Hobbit");
    expect(goodreads.type === "url" && goodreads.ref.hints.title).toBe("The Hobbit");
  });

  it("marks short links as needing the network", () => {
    for (const input of [
      "https://spotify.link/AbCdEfG",
      "https://maps.app.goo.gl/abc123",
      "https://boxd.it/2bcA",
      "https://on.soundcloud.com/xyz",
      "https://amzn.to/3abcdef",
      "https://deezer.page.link/abc",
    ]) {
      const classified = classify(input);
      expect(classified.type === "url" && classified.ref.needsNetwork, input).toBe(true);
    }
  });

  it("treats plain words, domain hints and near-URLs as phrases", () => {
    expect(classify("bohemian rhapsody")).toEqual({ type: "phrase", phrase: "bohemian rhapsody", domain: null });
    expect(classify("book: the hobbit")).toEqual({ type: "phrase", phrase: "the hobbit", domain: "books" });
    expect(classify("film:Dune")).toEqual({ type: "phrase", phrase: "Dune", domain: "film" });
    expect(classify("place: Eiffel Tower")).toEqual({ type: "phrase", phrase: "Eiffel Tower", domain: "places" });
    expect(classify("Mr. Brightside")).toMatchObject({ type: "phrase" });
  });

  it("refuses links of any scheme but http(s) with unsupported_scheme", () => {
    for (const input of [
      "ftp://example.com/file",
      "javascript:alert(1)",
      "JavaScript:void(0)",
      "data:text/html,hi",
      "file:///etc/passwd",
      "mailto:a@example.com",
      "sftp://host/x",
    ]) {
      expect(() => classify(input), input).toThrow(expect.objectContaining({ code: "invalid_request" }));
    }
  });

  it("classes Google Maps links as places, by name when the link has no id", () => {
    for (const [input, title] of [
      ["https://maps.google.com/?q=Eiffel+Tower", "Eiffel Tower"],
      ["https://www.google.com/maps?q=Eiffel%20Tower", "Eiffel Tower"],
      ["https://www.google.com/maps/place/Eiffel+Tower/", "Eiffel Tower"],
      ["https://www.google.com/maps/search/Eiffel+Tower", "Eiffel Tower"],
    ] as const) {
      const classified = classify(input);
      if (classified.type !== "url") throw new Error(`${input} was not recognised`);
      expect(
        { platform: classified.ref.platform, domain: classified.ref.domain, kind: classified.ref.kind },
        input,
      ).toEqual({ platform: "google_maps", domain: "places", kind: "place" });
      expect(classified.ref.ids[0], input).toEqual({ namespace: "gmaps:query", value: "eiffel tower" });
      expect(classified.ref.hints.title, input).toBe(title);
    }
    const short = classify("https://maps.app.goo.gl/abc123");
    expect(short.type === "url" && { domain: short.ref.domain, needsNetwork: short.ref.needsNetwork }).toEqual({
      domain: "places",
      needsNetwork: true,
    });
  });

  it("makes proper titles from Goodreads and Amazon slugs, and leaves an Amazon book to its ISBN", () => {
    const title = (input: string) => {
      const classified = classify(input);
      return classified.type === "url" ? classified.ref.hints.title : undefined;
    };
    expect(title("https://www.goodreads.com/book/show/3.Harry_Potter_and_the_Sorcerer_s_Stone")).toBe(
      "Harry Potter and the Sorcerer's Stone",
    );
    expect(title("https://www.goodreads.com/book/show/3-harry-potter-and-the-sorcerer-s-stone")).toBe(
      "Harry Potter and the Sorcerer's Stone",
    );
    expect(title("https://www.goodreads.com/book/show/33.The_Lord_of_the_Rings")).toBe("The Lord of the Rings");
    expect(title("https://www.amazon.com/Alexander-Theatre-Sessions-Poets-Fall/dp/B08NT852YT")).toBe(
      "Alexander Theatre Sessions Poets Fall",
    );
    // The slug of a book is keywords (title, author, format): the ISBN names it through Open Library.
    expect(title("https://www.amazon.com/Fantastic-Mr-Fox-Roald-Dahl/dp/0140328726")).toBeUndefined();
  });

  it("never makes a title from an id or a host", () => {
    for (const input of [
      "9780140328721",
      "48.8584, 2.2945",
      "https://www.google.com/maps/@48.8583701,2.2944813,17z",
      "https://maps.google.com/",
      "https://open.spotify.com/track/4cOdK2wGLETKBW3PvgPWqT",
      "https://example.com/",
    ]) {
      const classified = classify(input);
      expect(classified.type !== "phrase" && classified.ref.hints.title, input).toBeFalsy();
    }
  });
});
