#!/usr/bin/env bash
# Restore a dump into a NEW database (never over an existing one):
#   deploy/restore.sh /var/backups/truco/truco-20261201-030000.dump \
#       postgresql://truco@127.0.0.1:5432/truco_restored
# Then point DATABASE_URL at it and start the bot: the tables resume where the dump left them.
# A password in the URL goes to psql and pg_restore through PGPASSWORD, not their arguments.
set -euo pipefail
. "$(dirname "$0")/pgurl.sh"
file="${1:?usage: restore.sh DUMP_FILE TARGET_DATABASE_URL}"
target="${2:?usage: restore.sh DUMP_FILE TARGET_DATABASE_URL}"
target="${target/postgresql+psycopg:/postgresql:}"
export_password "$target"
target=$(without_password "$target")
[ -r "$file" ] || { echo "restore.sh: cannot read $file" >&2; exit 2; }
name="${target##*/}"
name="${name%%\?*}"
maintenance="${target%/*}/postgres"
case "$name" in
  *[!A-Za-z0-9_]*|"") echo "restore.sh: database name must be letters, digits and _" >&2; exit 2;;
esac
exists=$(psql "$maintenance" -Atc "SELECT 1 FROM pg_database WHERE datname = '$name'")
if [ "$exists" = "1" ]; then
  echo "restore.sh: database $name already exists; restore into a new one" >&2
  exit 2
fi
psql "$maintenance" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE \"$name\""
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$target" "$file"
echo "restored $file into $name"
