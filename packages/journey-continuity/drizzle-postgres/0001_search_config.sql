-- The text search configuration of the journey tables (written by hand: drizzle-kit does not model one).
-- The English Snowball stemmer without a stop word list: like FTS5's porter tokenizer, every word is kept
-- (stop words count toward bm25's lengths and can be searched). The text reaches to_tsvector already split
-- into words and without accents (src/journeys/search-text.ts), as FTS5's unicode61 tokenizer splits it.
CREATE TEXT SEARCH DICTIONARY switchyard_journey_stem (TEMPLATE = snowball, LANGUAGE = english);
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION switchyard_journey (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION switchyard_journey
  ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart
  WITH switchyard_journey_stem;
