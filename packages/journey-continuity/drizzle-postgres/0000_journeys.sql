CREATE TABLE "documents" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"journey_id" text NOT NULL,
	"document_type" text NOT NULL,
	"title" text,
	"content" text,
	"metadata" text DEFAULT '{}' NOT NULL,
	"created_at" bigint NOT NULL,
	"search" "tsvector" NOT NULL,
	CONSTRAINT "documents_id_unique" UNIQUE("id"),
	CONSTRAINT "documents_document_type" CHECK ("documents"."document_type" IN ('woop_plan', 'file_upload', 'artifact', 'note'))
);
--> statement-breakpoint
CREATE TABLE "journeys" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"user_id" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"metadata" text DEFAULT '{}' NOT NULL,
	CONSTRAINT "journeys_id_is_lowercase_uuid" CHECK (length("journeys"."id") = 36 AND "journeys"."id" = lower("journeys"."id") AND substr("journeys"."id", 35, 2) ~ '^[0-9a-f]{2}$')
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sessions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"journey_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	"summary" text NOT NULL,
	"messages" text,
	"diagnosis" text,
	"confidence_score" double precision,
	"token_count" integer NOT NULL,
	"search" "tsvector" NOT NULL,
	CONSTRAINT "sessions_id_unique" UNIQUE("id"),
	CONSTRAINT "sessions_confidence_score_range" CHECK ("sessions"."confidence_score" IS NULL OR ("sessions"."confidence_score" >= 0 AND "sessions"."confidence_score" <= 100))
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_journey_created_idx" ON "documents" USING btree ("journey_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "documents_search_idx" ON "documents" USING gin ("search");--> statement-breakpoint
CREATE UNIQUE INDEX "journeys_owner_user_id_unique" ON "journeys" USING btree ("owner","user_id");--> statement-breakpoint
CREATE INDEX "sessions_journey_created_idx" ON "sessions" USING btree ("journey_id","created_at","seq");--> statement-breakpoint
CREATE INDEX "sessions_search_idx" ON "sessions" USING gin ("search");