DROP INDEX `runs_idempotency_key_unique`;--> statement-breakpoint
ALTER TABLE `runs` ADD `owner` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `runs_owner_idempotency_key_unique` ON `runs` (`owner`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `runs_owner_created_idx` ON `runs` (`owner`,`created_ms`,`run_id`);