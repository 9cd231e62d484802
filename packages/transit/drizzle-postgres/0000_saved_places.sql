CREATE TABLE "saved_places" (
	"principal" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"value" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "saved_places_principal_key_pk" PRIMARY KEY("principal","key")
);
