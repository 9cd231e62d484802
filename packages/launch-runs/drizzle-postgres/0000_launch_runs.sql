CREATE TABLE "artifacts" (
	"run_id" text NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"worker" text NOT NULL,
	"written_at" text NOT NULL,
	"content" "bytea" NOT NULL,
	CONSTRAINT "artifacts_run_id_name_pk" PRIMARY KEY("run_id","name")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text NOT NULL,
	"run_id" text NOT NULL,
	"run_seq" integer NOT NULL,
	"ts" text NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"trace_id" text,
	"span_id" text,
	"prev_hash" text NOT NULL,
	"event_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "issues" (
	"run_id" text NOT NULL,
	"ord" integer NOT NULL,
	"issue_id" text NOT NULL,
	"gate" text NOT NULL,
	"severity" text NOT NULL,
	"error_code" text NOT NULL,
	"message" text NOT NULL,
	"path" text NOT NULL,
	"line" integer NOT NULL,
	"status" text NOT NULL,
	"suggested_fix" text,
	CONSTRAINT "issues_run_id_ord_pk" PRIMARY KEY("run_id","ord")
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"owner" text DEFAULT '' NOT NULL,
	"product_slug" text NOT NULL,
	"config" text NOT NULL,
	"config_hash" text NOT NULL,
	"idempotency_key" text,
	"state" text NOT NULL,
	"last_stable_state" text,
	"section_states" text NOT NULL,
	"fix_attempts" integer DEFAULT 0 NOT NULL,
	"last_report_ok" boolean,
	"active_worker" text,
	"last_error" text,
	"interrupted_at" text,
	"source_sha" text,
	"site_sha" text,
	"pr_url" text,
	"branch" text,
	"commit_sha" text,
	"created_at" text NOT NULL,
	"created_ms" bigint NOT NULL,
	"updated_at" text NOT NULL,
	"finished_at" text,
	"lease_owner" text,
	"lease_expires_ms" bigint
);
--> statement-breakpoint
ALTER TABLE "artifacts" ADD CONSTRAINT "artifacts_run_id_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_run_id_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "issues" ADD CONSTRAINT "issues_run_id_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_event_id_unique" ON "events" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_run_seq_unique" ON "events" USING btree ("run_id","run_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "runs_owner_idempotency_key_unique" ON "runs" USING btree ("owner","idempotency_key");--> statement-breakpoint
CREATE INDEX "runs_created_idx" ON "runs" USING btree ("created_ms","run_id" COLLATE "C");--> statement-breakpoint
CREATE INDEX "runs_owner_created_idx" ON "runs" USING btree ("owner","created_ms","run_id" COLLATE "C");--> statement-breakpoint
CREATE INDEX "runs_product_created_idx" ON "runs" USING btree ("product_slug","created_ms");--> statement-breakpoint
CREATE INDEX "runs_state_created_idx" ON "runs" USING btree ("state","created_ms");--> statement-breakpoint
CREATE INDEX "runs_held_lease_idx" ON "runs" USING btree ("lease_expires_ms","created_ms") WHERE "runs"."lease_owner" IS NOT NULL;