"""The server's durable storage: the database, its schema and migrations, group commit, table ownership."""
