#!/bin/sh
# Run once, when the PostgreSQL volume is first initialised, after postgres-init.sql: the
# store's three roles (deploy/README.md, "Database roles"). The owner owns both stores'
# databases, so `tablewatch db migrate` as the owner makes their tables; the ingest and
# the reports log in as roles that own nothing.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v owner_password="$TABLEWATCH_OWNER_PASSWORD" \
    -v ingest_password="$TABLEWATCH_INGEST_PASSWORD" \
    -v report_password="$TABLEWATCH_REPORT_PASSWORD" <<'SQL'
CREATE ROLE tablewatch_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE tablewatch_ingest LOGIN PASSWORD :'ingest_password';
CREATE ROLE tablewatch_report LOGIN PASSWORD :'report_password';
ALTER DATABASE tablewatch OWNER TO tablewatch_owner;
ALTER DATABASE tablewatch_west OWNER TO tablewatch_owner;
SQL
