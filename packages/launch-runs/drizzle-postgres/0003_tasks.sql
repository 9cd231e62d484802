CREATE TABLE "tasks" (
	"task_id" text PRIMARY KEY NOT NULL,
	"principal" text NOT NULL,
	"tool" text NOT NULL,
	"run_id" text NOT NULL,
	"target" text NOT NULL,
	"lease_owner" text,
	"created_ms" bigint NOT NULL,
	"updated_ms" bigint NOT NULL,
	"ttl_ms" bigint,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_run_id_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_run_idx" ON "tasks" USING btree ("run_id");