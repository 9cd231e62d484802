ALTER TABLE `runs` ADD `lease_request` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `lease_request_cancelled` integer DEFAULT false NOT NULL;