DROP INDEX `journeys_user_id_unique`;--> statement-breakpoint
ALTER TABLE `journeys` ADD `owner` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `journeys_owner_user_id_unique` ON `journeys` (`owner`,`user_id`);