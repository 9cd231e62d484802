CREATE TABLE `tasks` (
	`task_id` text PRIMARY KEY NOT NULL,
	`principal` text NOT NULL,
	`tool` text NOT NULL,
	`run_id` text NOT NULL,
	`target` text NOT NULL,
	`lease_owner` text,
	`created_ms` integer NOT NULL,
	`updated_ms` integer NOT NULL,
	`ttl_ms` integer,
	`outcome` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`run_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tasks_run_idx` ON `tasks` (`run_id`);