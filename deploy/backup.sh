#!/usr/bin/env bash
# Back up the bot's database while it runs (pg_dump takes a consistent snapshot):
#   DATABASE_URL=postgresql://truco@127.0.0.1:5432/truco deploy/backup.sh [/var/backups/truco]
# Writes truco-YYYYmmdd-HHMMSS.dump (pg_dump custom format) and prints its path.
# Keeps the newest $KEEP dumps (default 14). Run it from cron or a systemd timer.
# The dumps hold every hand and name: the folder is 0700 and each dump 0600 (umask 077), and
# the password goes to pg_dump through PGPASSWORD (or ~/.pgpass), never on its command line.
set -euo pipefail
umask 077
. "$(dirname "$0")/pgurl.sh"
url="${DATABASE_URL:?set DATABASE_URL (postgresql://...)}"
url="${url/postgresql+psycopg:/postgresql:}"
export_password "$url"
url=$(without_password "$url")
dir="${1:-${BACKUP_DIR:-/var/backups/truco}}"
keep="${KEEP:-14}"
mkdir -p -m 700 "$dir"
file="$dir/truco-$(date -u +%Y%m%d-%H%M%S).dump"
pg_dump --format=custom --no-owner --no-privileges --dbname="$url" --file="$file.partial"
mv "$file.partial" "$file"
# oldest first, everything but the newest $keep
ls -1 "$dir"/truco-*.dump | head -n -"$keep" | xargs -r rm --
echo "$file"
