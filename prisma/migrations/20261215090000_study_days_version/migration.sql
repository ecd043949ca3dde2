-- Issue 20, round 9: the streak's runs of studied days are counted from every studied day (6,251 in
-- a 17-year history); a server keeps the runs it read and reads them again only when this number has
-- moved. The session store adds one to it in the transaction that writes study_day_totals (a session's
-- end, a build: server/sessions/history-aggregates.ts), so a reader that saw a number saw those days.
ALTER TABLE "history_aggregates" ADD COLUMN "days_version" INTEGER NOT NULL DEFAULT 0;
