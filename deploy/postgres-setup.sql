-- PostgreSQL for the bot: one role, one database it owns. Run as the postgres superuser:
--   sudo -u postgres psql -v password="'a-long-random-password'" -f deploy/postgres-setup.sql
-- then DATABASE_URL=postgresql://truco:<password>@127.0.0.1:5432/truco in /etc/truco/bot.env.
-- The bot creates and migrates its tables itself at start-up (one replica at a time: the
-- migration holds an advisory lock), so the role needs no other rights.
CREATE ROLE truco LOGIN PASSWORD :password;
CREATE DATABASE truco OWNER truco ENCODING 'UTF8' TEMPLATE template0;
REVOKE ALL ON DATABASE truco FROM PUBLIC;
-- Each replica keeps a small pool (up to 5 + 10 connections): max_connections = 100 is plenty
-- for several replicas. pg_hba.conf: "host truco truco 127.0.0.1/32 scram-sha-256".
