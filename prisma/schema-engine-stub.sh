#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded here. StudyLoop applies its
# own migrations (server/db/migrate.ts); generate and studio never call this.
echo "studyloop: the Prisma schema engine is not installed; migrations are applied by 'studyloop web'." >&2
exit 1
