-- AlterTable
ALTER TABLE "parked_items" ADD COLUMN "carried_from_id" TEXT;

-- CreateIndex
CREATE INDEX "parked_items_carried_from_id_idx" ON "parked_items"("carried_from_id");
