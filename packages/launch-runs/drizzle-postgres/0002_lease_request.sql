ALTER TABLE "runs" ADD COLUMN "lease_request" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "lease_request_cancelled" boolean DEFAULT false NOT NULL;