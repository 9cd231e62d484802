CREATE TABLE `artifacts` (
	`run_id` text NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`sha256` text NOT NULL,
	`size` integer NOT NULL,
	`content_type` text NOT NULL,
	`worker` text NOT NULL,
	`written_at` text NOT NULL,
	PRIMARY KEY(`run_id`, `name`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`run_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_id` text NOT NULL,
	`run_id` text NOT NULL,
	`run_seq` integer NOT NULL,
	`ts` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`trace_id` text,
	`span_id` text,
	`prev_hash` text NOT NULL,
	`event_hash` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`run_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_event_id_unique` ON `events` (`event_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_run_seq_unique` ON `events` (`run_id`,`run_seq`);--> statement-breakpoint
CREATE TABLE `issues` (
	`run_id` text NOT NULL,
	`ord` integer NOT NULL,
	`issue_id` text NOT NULL,
	`gate` text NOT NULL,
	`severity` text NOT NULL,
	`error_code` text NOT NULL,
	`message` text NOT NULL,
	`path` text NOT NULL,
	`line` integer NOT NULL,
	`status` text NOT NULL,
	`suggested_fix` text,
	PRIMARY KEY(`run_id`, `ord`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`run_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`product_slug` text NOT NULL,
	`config` text NOT NULL,
	`config_hash` text NOT NULL,
	`idempotency_key` text,
	`state` text NOT NULL,
	`last_stable_state` text,
	`section_states` text NOT NULL,
	`fix_attempts` integer DEFAULT 0 NOT NULL,
	`last_report_ok` integer,
	`active_worker` text,
	`last_error` text,
	`interrupted_at` text,
	`source_sha` text,
	`site_sha` text,
	`pr_url` text,
	`branch` text,
	`commit_sha` text,
	`created_at` text NOT NULL,
	`created_ms` integer NOT NULL,
	`updated_at` text NOT NULL,
	`finished_at` text,
	`lease_owner` text,
	`lease_expires_ms` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runs_idempotency_key_unique` ON `runs` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `runs_created_idx` ON `runs` (`created_ms`,`run_id`);--> statement-breakpoint
CREATE INDEX `runs_product_created_idx` ON `runs` (`product_slug`,`created_ms`);--> statement-breakpoint
CREATE INDEX `runs_state_created_idx` ON `runs` (`state`,`created_ms`);--> statement-breakpoint
CREATE TABLE `spans` (
	`span_id` text PRIMARY KEY NOT NULL,
	`trace_id` text NOT NULL,
	`parent_span_id` text,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`tool` text,
	`worker` text,
	`run_id` text,
	`correlation_id` text,
	`started_at` text NOT NULL,
	`duration_ms` real NOT NULL,
	`outcome` text NOT NULL,
	`error_code` text
);
--> statement-breakpoint
CREATE INDEX `spans_run_idx` ON `spans` (`run_id`);--> statement-breakpoint
CREATE INDEX `spans_trace_idx` ON `spans` (`trace_id`);