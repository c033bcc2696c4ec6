/** The six collection types, which are also the resolver's domains. */
export const COLLECTION_TYPES = ["music", "film", "books", "articles", "places", "products"] as const;
export type CollectionType = (typeof COLLECTION_TYPES)[number];
