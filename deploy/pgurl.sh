# Sourced by backup.sh and restore.sh: keep a database URL's password off the command line.
# `ps` shows every process's arguments to every local user; libpq reads PGPASSWORD from the
# environment instead. Usage: url=$(without_password "$url") after export_password "$url".

# The password of postgresql://user:password@host/db (percent-decoded), or nothing.
url_password() {
  local rest="${1#*://}"
  local userinfo="${rest%%@*}"
  [ "$userinfo" != "$rest" ] || return 0
  case "$userinfo" in *:*) ;; *) return 0 ;; esac
  local encoded="${userinfo#*:}"
  printf '%b' "${encoded//%/\\x}"
}

# The URL without its password (postgresql://user@host/db).
without_password() {
  local scheme="${1%%://*}" rest="${1#*://}"
  local userinfo="${rest%%@*}"
  if [ "$userinfo" != "$rest" ]; then
    printf '%s://%s@%s' "$scheme" "${userinfo%%:*}" "${rest#*@}"
  else
    printf '%s' "$1"
  fi
}

export_password() {
  local password
  password=$(url_password "$1")
  if [ -n "$password" ]; then
    export PGPASSWORD="$password"
  fi
}
