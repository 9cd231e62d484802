CREATE TABLE `documents` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`journey_id` text NOT NULL,
	`document_type` text NOT NULL,
	`title` text,
	`content` text,
	`metadata` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`jkey` text GENERATED ALWAYS AS ('j' || replace(lower(journey_id), '-', '') || '0') VIRTUAL,
	FOREIGN KEY (`journey_id`) REFERENCES `journeys`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "documents_document_type" CHECK("documents"."document_type" IN ('woop_plan', 'file_upload', 'artifact', 'note'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_id_unique` ON `documents` (`id`);--> statement-breakpoint
CREATE INDEX `documents_journey_created_idx` ON `documents` (`journey_id`,`created_at`,`seq`);--> statement-breakpoint
CREATE TABLE `journeys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	CONSTRAINT "journeys_id_is_lowercase_uuid" CHECK(length("journeys"."id") = 36 AND "journeys"."id" = lower("journeys"."id") AND substr("journeys"."id", 35, 2) GLOB '[0-9a-f][0-9a-f]')
);
--> statement-breakpoint
CREATE UNIQUE INDEX `journeys_user_id_unique` ON `journeys` (`user_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`journey_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`summary` text NOT NULL,
	`messages` text,
	`diagnosis` text,
	`confidence_score` real,
	`jkey` text GENERATED ALWAYS AS ('j' || replace(lower(journey_id), '-', '') || '0') VIRTUAL,
	`fts_shard` integer GENERATED ALWAYS AS (((instr('0123456789abcdef', substr(lower(journey_id), 35, 1)) - 1) * 16 + instr('0123456789abcdef', substr(lower(journey_id), 36, 1)) - 1) % 64) VIRTUAL,
	FOREIGN KEY (`journey_id`) REFERENCES `journeys`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sessions_confidence_score_range" CHECK("sessions"."confidence_score" IS NULL OR ("sessions"."confidence_score" >= 0 AND "sessions"."confidence_score" <= 100))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_id_unique` ON `sessions` (`id`);--> statement-breakpoint
CREATE INDEX `sessions_journey_created_idx` ON `sessions` (`journey_id`,`created_at`,`seq`);