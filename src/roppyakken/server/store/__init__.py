"""The database: its engine, its tables, the room store and the migrations."""
