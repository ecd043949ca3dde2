-- CreateTable
CREATE TABLE "notification_devices" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "device_id" TEXT,
    "name" TEXT NOT NULL,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "sound" BOOLEAN NOT NULL DEFAULT true,
    "push_endpoint" TEXT,
    "push_p256dh" TEXT,
    "push_auth" TEXT,
    "ntfy_url" TEXT,
    "origin" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" DATETIME,
    CONSTRAINT "notification_devices_device_id_fkey" FOREIGN KEY ("device_id") REFERENCES "devices" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "notification_log" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "session_id" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "link" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acted_at" DATETIME,
    "deliveries" TEXT
);

-- CreateIndex
CREATE INDEX "notification_devices_device_id_idx" ON "notification_devices"("device_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_log_key_key" ON "notification_log"("key");

-- CreateIndex
CREATE INDEX "notification_log_created_at_idx" ON "notification_log"("created_at");
