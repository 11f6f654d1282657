"""Storage: the schema and migrations, the group-committing writer, and the queries."""
